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
    assert any(DRAFT in str(m.value) for m in at.markdown), "the draft was written into the page"
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
