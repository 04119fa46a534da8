"""Replay for demos: a saved run stepped through pass by pass."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.app.conftest import APP
from tests.app.factories import run_result
from ui.replay import replay_facts


def test_replay_after_the_first_pass_shows_only_what_it_found() -> None:
    lines = replay_facts(run_result(), 1)
    assert lines[0].startswith("First reading:") and len([x for x in lines if "pass" in x.lower()]) >= 1
    assert lines[-2] == "Pages found so far: p. 2." and "5" not in lines[-2]
    assert "40% confident and looked again" in lines[-1]


def test_replay_to_the_end_says_why_it_stopped() -> None:
    lines = replay_facts(run_result(), 2)
    assert lines[1].startswith("Follow-up pass 1: The answer pointed to another part of the document")
    assert lines[-2] == "Pages found so far: p. 2, 5."
    assert lines[-1] == "Then Loupe stopped: The answer covers the question."


def test_inspect_steps_through_a_run(app_engine: str) -> None:
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.sidebar.selectbox(key="loupe_w_strategy").select("dispatched").run()
    at = at.button(key="loupe_suggest_2").click().run()  # the sensors question: several passes
    at.switch_page("pages/1_Inspect.py").run()
    assert not at.exception
    assert any(s.value == "Replay" for s in at.subheader)
    sliders = [s for s in at.slider if s.key == "inspect_replay"]
    assert sliders, "the sample question about sensors runs follow-up passes"
    if sliders:  # a run of several passes: step back to the first
        sliders[0].set_value(1).run()
        shown = "\n".join(str(m.value) for m in at.markdown)
        assert "First reading:" in shown and "Follow-up pass 1:" not in shown  # only the replay says it
    else:
        assert any("One pass: there is nothing to step through." in c.value for c in at.caption)
