"""The Ask page with the openai backend streams the model's draft answer, then shows the verified run."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from engine.llm.network import allow_network
from engine.llm.structured import MODES
from tests.app.conftest import APP
from tests.llm.stub_server import StubServer, reply

DRAFT = "The Heron 3 flies for 95 minutes on one battery."


@pytest.fixture
def stub():
    MODES.clear()
    with StubServer() as server:
        yield server
    MODES.clear()


def test_openai_answer_streams_into_the_page_then_the_run_is_shown(app_engine: str, stub, monkeypatch) -> None:
    if app_engine != "real":
        pytest.skip("needs the real engine")
    monkeypatch.setenv("OPENAI_BASE_URL", stub.base_url)
    stub.script(reply({"statements": [{"text": DRAFT, "passages": [1]}], "answer_found": True, "missing": []}))
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.sidebar.radio(key="loupe_w_backend").set_value("openai").run()
    at.sidebar.text_input(key="loupe_w_api_key").input("sk-test-streaming-key").run()
    with allow_network():
        at = at.button(key="loupe_suggest_0").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert any(r.body.get("stream") for r in stub.requests), "the answer request streamed"
    runs = at.session_state["loupe"]["runs"]
    assert runs and all("sk-test-streaming-key" not in run for run in runs)


def test_sidebar_request_timeout_and_empty_model_reach_the_backend_settings(app_engine: str) -> None:
    from ui.settings import build_config

    config = build_config("balanced", "openai", "http://127.0.0.1:9/v1", "", "k", "auto", timeout=45.0)
    assert config.backend.timeout_seconds == 45.0 and config.backend.model is None
    at = AppTest.from_file(APP, default_timeout=30).run()
    at.sidebar.radio(key="loupe_w_backend").set_value("openai").run()
    timeout = at.sidebar.number_input(key="loupe_w_timeout")
    assert timeout.value == 20.0 and not at.exception


class FakeContainer:
    """Stands in for ``st.container()``: ``write_stream`` drains the generator and keeps the pieces."""

    def __init__(self) -> None:
        self.pieces: list[str] = []

    def write_stream(self, pieces) -> str:
        self.pieces = list(pieces)
        return "".join(self.pieces)


def _event(stage: str):
    from engine import ProgressEvent

    return ProgressEvent(stage=stage, message=stage)


def test_run_streaming_writes_the_draft_reports_progress_and_returns_the_run():
    import engine
    from ui.streaming import run_streaming

    seen: list[str] = []

    def run(progress):
        from engine.llm.streaming import current_sink

        sink = current_sink()
        for stage in ("understand", "answer"):
            progress(_event(stage))
        sink("The Heron 3 ")
        sink("flies 95 minutes.")
        progress(_event("answer"))
        sink("A second pass.")
        return "the run"

    draft = FakeContainer()
    assert run_streaming(run, lambda event: seen.append(event.stage), draft) == "the run"
    assert "".join(draft.pieces) == "The Heron 3 flies 95 minutes\\.\n\nA second pass\\."  # shown literally
    assert seen == ["understand", "answer", "answer"]
    assert engine.stream_answer_text is not None


def test_run_streaming_raises_the_runs_error_in_the_script_thread():
    from engine import LoupeError
    from ui.streaming import run_streaming

    def run(progress):
        raise LoupeError("no document selected")

    with pytest.raises(LoupeError, match="no document selected"):
        run_streaming(run, lambda event: None, FakeContainer())


def test_streamed_pieces_escaped_one_by_one_render_as_the_plain_text():
    from markdown_it import MarkdownIt

    from ui.streaming import literal

    text = "See ![x](http://127.0.0.1:9/a.png) *b* <img src=x> 1. # $x$ :red[y] www.a.com 3.5% a\\b"
    pieces = [text[i : i + 5] for i in range(0, len(text), 5)]
    html = MarkdownIt("commonmark").render("".join(literal(p) for p in pieces))
    assert "<img" not in html and "<em>" not in html and "<a " not in html and "<ol" not in html
    assert html == "<p>" + text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;") + "</p>\n"
