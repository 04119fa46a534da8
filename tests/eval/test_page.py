"""The Evaluate page: renders, runs the bundled set offline, shows tables and a download."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from engine.config import REPO_ROOT

PAGE = str(REPO_ROOT / "pages" / "5_Evaluate.py")


def test_page_renders_controls(library_dir: Path) -> None:
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    assert not at.exception and not at.error
    assert at.title[0].value == "Evaluate"
    assert at.multiselect[0].value == ["baseline_top5", "single_pass", "auto"]
    assert any(b.label == "Run evaluation" for b in at.button)


def test_page_runs_the_bundled_set(library_dir: Path) -> None:
    at = AppTest.from_file(PAGE, default_timeout=120).run()
    at.multiselect[0].set_value(["single_pass", "dispatched"])
    at.number_input[0].set_value(3)
    at.run()
    next(b for b in at.button if b.label == "Run evaluation").click().run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert len(at.dataframe) == 3, "the summary, the per-question table and the per-type table"
    assert len(at.dataframe[1].value) == 3 * 2, "one row per question and strategy"
    assert "Results: sample" in at.subheader[0].value
    assert at.session_state["eval_report_json"].startswith("{")


def test_page_shows_bad_upload_as_error(library_dir: Path) -> None:
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    at.multiselect[0].set_value([])
    at.run()
    run = next(b for b in at.button if b.label == "Run evaluation")
    assert run.disabled  # no strategy chosen
    assert not at.exception
