"""A demo a stakeholder can follow, in a real browser: with a dark browser theme the app is dark; after an
answer the Ask page shows no engine identifiers outside "Details"; History's picker switches runs; a
``?run=<id>`` link opens that run read-only."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine import INTERNAL_NAMES, SAMPLE_QUESTIONS
from tests.app.conftest import REAL_ENGINE
from tests.e2e.server import ARGS, chromium, streamlit_app
from tests.e2e.test_workflow import WAIT, _chat, _session_runs, _wait_for_answers

SNAKE = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")

VISIBLE_TEXT = """() => {
  const main = document.querySelector("[data-testid='stMainBlockContainer']")
    || document.querySelector("section.main, .stMain, [data-testid='stMain']");
  const details = [...main.querySelectorAll("[data-testid='stExpander']")]
    .filter(e => (e.querySelector("summary") || {}).innerText?.includes("Details"));
  const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
  const out = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || details.some(d => d.contains(parent))) continue;
    if ((getComputedStyle(parent).fontFamily || "").includes("Material")) continue;  // icon ligatures
    out.push(node.textContent);
  }
  return out.join("\\n");
}"""
"""The text an analyst reads in the main area: every text node outside "Details" expanders, icon
ligatures ("keyboard_arrow_right" drawn as an arrow) left out."""


def _background_luminance(page) -> float:
    rgb = page.evaluate("() => getComputedStyle(document.querySelector(\"[data-testid='stApp']\")).backgroundColor")
    r, g, b = (int(v) for v in re.findall(r"\d+", rgb)[:3])
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255


@pytest.mark.skipif(not REAL_ENGINE, reason="the demo needs the real engine")
@pytest.mark.timeout(480)
def test_dark_theme_plain_words_history_picker_and_run_link(tmp_path: Path) -> None:
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=90_000)
    library = tmp_path / "library"
    library.mkdir()
    with sync_playwright() as p, streamlit_app(library, tmp_path / "streamlit.log") as url:
        browser = p.chromium.launch(executable_path=chromium(), args=ARGS, headless=True)
        context = browser.new_context(viewport={"width": 1440, "height": 900}, color_scheme="dark")
        page = context.new_page()
        page.set_default_timeout(WAIT)
        page.goto(url)
        page.get_by_text("Ask hard questions of PDFs").wait_for()
        assert _background_luminance(page) < 0.3, "the browser asks for dark: the app is dark"

        _chat(page, SAMPLE_QUESTIONS[0])
        _wait_for_answers(page, 1)
        page.get_by_text("How Loupe searched").first.wait_for()
        text = page.evaluate(VISIBLE_TEXT)
        found = SNAKE.findall(text) + [n for n in INTERNAL_NAMES if n.lower() in text.lower()]
        assert found == [], found
        page.screenshot(path=str(tmp_path / "01-dark-answer.png"), full_page=True)
        page.get_by_role("button", name="New conversation").click()
        # the first conversation must be gone before the second question, or its answer counts as the second's
        expect(page.locator("[data-testid='stChatMessage']")).to_have_count(0)
        _chat(page, SAMPLE_QUESTIONS[2])
        _wait_for_answers(page, 1)

        page.locator("[data-testid='stSidebarNav'] a", has_text="History").click()
        page.get_by_text("Every question asked here").wait_for()
        heading = page.locator("h4").first
        first = heading.inner_text()
        page.get_by_role("combobox", name="Open a run").click()
        options = page.get_by_role("option")
        expect(options).to_have_count(2)  # both runs are saved before one is picked
        options.nth(1).click()
        expect(heading).not_to_have_text(first)
        second = heading.inner_text()
        page.wait_for_timeout(1500)  # the snap-back came on the next rerun: still the chosen run after it
        expect(heading).to_have_text(second)

        run_id = next(r for r in _session_runs(library) if SAMPLE_QUESTIONS[0][:20] in r).split('"run_id":"', 1)[1][:22]
        run_id = run_id.split('"', 1)[0]
        other = context.new_page()
        other.goto(f"{url}/History?run={run_id}")
        other.get_by_text("A shared run, read-only.").wait_for()
        expect(other.locator("h4").first).to_contain_text(SAMPLE_QUESTIONS[0][:30])
        assert other.get_by_role("button", name="Delete this run").count() == 0
        other.screenshot(path=str(tmp_path / "02-shared-run.png"), full_page=True)
        browser.close()
