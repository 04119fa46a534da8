"""The analyst view: Ask, Inspect and History show no snake_case identifier or internal engine name outside
"Details"; the engineering names are there, one click away."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.app.conftest import APP
from tests.app.jargon import analyst_texts, jargon


def _asked(n: int = 0, strategy: str | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60).run()
    if strategy:
        at.sidebar.selectbox(key="loupe_w_strategy").select(strategy).run()
    return at.button(key=f"loupe_suggest_{n}").click().run()


def _details_text(at: AppTest) -> str:
    return "\n".join(str(m.value) for e in at.expander if e.label == "Details" for m in e.markdown)


def test_ask_page_speaks_plainly_after_an_answer(app_engine: str) -> None:
    at = _asked(0, "single_pass")
    assert not at.exception and not at.error, [e.value for e in at.error]
    text = analyst_texts(at, sidebar=True)
    assert jargon(text) == [], jargon(text)
    assert "done: stopped" not in text and "Strategy:" not in text
    assert "single_pass" in _details_text(at)  # the engine's name one click away


def test_ask_page_after_a_dispatched_answer_and_a_follow_up(app_engine: str) -> None:
    at = _asked(1, "dispatched")
    at = at.chat_input(key="loupe_chat").set_value("And what about its second flight?").run()
    assert not at.exception
    text = analyst_texts(at)
    assert jargon(text) == [], jargon(text)


def test_inspect_speaks_plainly(app_engine: str) -> None:
    at = _asked(1, "dispatched")
    at.switch_page("pages/1_Inspect.py").run()
    assert not at.exception and not at.error
    text = analyst_texts(at)
    assert jargon(text) == [], jargon(text)
    assert "fingerprint" not in text.lower() and '"intent"' not in text


def test_history_speaks_plainly(app_engine: str) -> None:
    at = _asked(0)
    at.switch_page("pages/6_History.py").run()
    assert not at.exception and not at.error
    text = analyst_texts(at)
    assert jargon(text) == [], jargon(text)
