"""History: the picker opens any run and stays there; the table's columns; Compare runs as one entry;
a ?run=<id> link opens that run read-only."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from engine import SAMPLE_QUESTIONS
from tests.app.conftest import APP


def _app() -> AppTest:
    return AppTest.from_file(APP, default_timeout=60)


def _ok(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]


def _two_runs() -> AppTest:
    at = _app().run()
    at = at.button(key="loupe_suggest_0").click().run()
    at = at.button(key="loupe_suggest_2").click().run()
    _ok(at)
    return at


def _opened_question(at: AppTest) -> str:
    return next(m.value for m in at.markdown if str(m.value).startswith("#### "))


def test_the_picker_opens_any_run_and_stays_on_it(app_engine: str) -> None:
    at = _two_runs()
    at.switch_page("pages/6_History.py").run()
    _ok(at)
    picker = at.selectbox(key="loupe_history_run")
    assert len(picker.options) == 2
    first_shown = _opened_question(at)
    at.selectbox(key="loupe_history_run").select_index(1).run()
    _ok(at)
    second_shown = _opened_question(at)
    assert second_shown != first_shown and at.selectbox(key="loupe_history_run").index == 1
    at.text_input(key="loupe_history_search").input("").run()  # any later interaction keeps the pick
    assert _opened_question(at) == second_shown and at.selectbox(key="loupe_history_run").index == 1


def test_the_picker_works_in_a_fresh_session_after_a_run_was_opened(app_engine: str) -> None:
    _two_runs()
    at = _app().run()
    at.switch_page("pages/6_History.py").run()
    at.selectbox(key="loupe_history_run").select_index(1).run()
    first = _opened_question(at)
    at.selectbox(key="loupe_history_run").select_index(0).run()
    assert _opened_question(at) != first


def test_the_table_shows_what_an_analyst_needs(app_engine: str) -> None:
    at = _two_runs()
    at.switch_page("pages/6_History.py").run()
    table = at.dataframe[0].value
    assert list(table.columns) == ["when (UTC)", "question", "documents", "approach", "confidence", "complete"]
    assert set(table["complete"]) <= {"yes", "no"} and all(str(c).endswith("%") for c in table["confidence"])


def test_compare_page_runs_are_one_comparison_entry(app_engine: str) -> None:
    at = _app().run()
    at.switch_page("pages/2_Compare.py").run()
    at.text_input(key="loupe_compare_question").input(SAMPLE_QUESTIONS[1])
    at.multiselect(key="loupe_compare_strategies").set_value(["single_pass", "dispatched", "auto"])
    at.button[[b.label for b in at.button].index("Run comparison")].click().run()
    _ok(at)
    at.switch_page("pages/6_History.py").run()
    _ok(at)
    table = at.dataframe[0].value
    assert list(table["approach"]) == ["Comparison of 3 approaches"]
    inner = at.selectbox(key=f"loupe_history_in_{at.selectbox(key='loupe_history_run').value}")
    assert len(inner.options) == 3


def test_a_run_link_opens_that_run_read_only(app_engine: str) -> None:
    at = _two_runs()
    wanted = next(r for r in at.session_state["loupe"]["runs"] if SAMPLE_QUESTIONS[0][:20] in r)
    run_id = wanted.split('"run_id":"', 1)[1].split('"', 1)[0]
    fresh = _app()
    fresh.query_params["run"] = run_id
    fresh.run()
    fresh.switch_page("pages/6_History.py").run()
    _ok(fresh)
    assert SAMPLE_QUESTIONS[0][:30] in _opened_question(fresh)
    labels = {b.label for b in fresh.button}
    assert "Delete this run" not in labels and "Re-run" not in labels
    assert any(f"?run={run_id}" in str(c.value) for c in fresh.caption)
