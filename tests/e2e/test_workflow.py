"""The analyst's workflow in a real browser: ask on the sample, follow up, both turns visible with their
evidence, export the evidence pack (a PDF with the answer text and a page image), restart the app, and
find both runs on the History page."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pymupdf
import pytest

from engine import SAMPLE_QUESTIONS
from tests.app.conftest import REAL_ENGINE
from tests.e2e.server import ARGS, chromium, streamlit_app

FOLLOW_UP = "And what about the Heron 2?"
WAIT = 120_000
"""Milliseconds to wait for an element: generous, for a loaded 2-core machine."""


def _chat(page, text: str) -> None:
    box = page.locator("[data-testid='stChatInputTextArea']")
    box.wait_for()
    box.fill(text)
    box.press("Enter")


def _wait_for_answers(page, count: int) -> None:
    """Until ``count`` assistant messages show and no run is in progress."""
    from playwright.sync_api import expect

    assistant = page.locator("[data-testid='stChatMessage']").filter(
        has=page.locator("[data-testid='stChatMessageAvatarAssistant']")
    )
    expect(assistant).to_have_count(count, timeout=WAIT)
    # one pack per finished turn (an earlier turn's sits in its collapsed expander, hidden): the latest is shown
    packs = page.get_by_text("Evidence pack (PDF)")
    expect(packs).to_have_count(count, timeout=WAIT)
    packs.last.wait_for(timeout=WAIT)


def _pdf_text(path: Path) -> str:
    doc = pymupdf.open(path)
    return unicodedata.normalize("NFKC", " ".join(" ".join(p.get_text().split()) for p in doc))


@pytest.mark.skipif(not REAL_ENGINE, reason="the workflow needs the real engine")
@pytest.mark.timeout(480)
def test_conversation_pack_restart_history(tmp_path: Path) -> None:
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=90_000)  # a loaded 2-core machine: wait on elements generously

    executable = chromium()
    library = tmp_path / "library"
    library.mkdir()
    log = tmp_path / "streamlit.log"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=ARGS, headless=True)
        with streamlit_app(library, log) as url:
            page = browser.new_page(viewport={"width": 1500, "height": 1400}, accept_downloads=True)
            page.set_default_timeout(WAIT)
            page.goto(url)
            page.get_by_text("Ask hard questions of PDFs").wait_for()
            nav = page.locator("[data-testid='stSidebarNav']")
            expect(nav).to_contain_text("Ask")
            expect(nav).to_contain_text("History")
            expect(page.locator("[data-testid='stMultiSelect']")).to_contain_text("sample", timeout=WAIT)

            _chat(page, SAMPLE_QUESTIONS[0])
            _wait_for_answers(page, 1)
            _chat(page, FOLLOW_UP)
            _wait_for_answers(page, 2)
            messages = page.locator("[data-testid='stChatMessage']")
            expect(messages).to_have_count(4)
            expect(messages.nth(0)).to_contain_text(SAMPLE_QUESTIONS[0])
            expect(messages.nth(2)).to_contain_text(FOLLOW_UP)
            expect(messages.nth(3)).to_contain_text("Understood as: What is the flight endurance of the Heron 2?")
            # the earlier turn is collapsed with its evidence inside; the latest shows its evidence cards
            earlier = page.get_by_text("How it was answered, and the evidence")
            expect(earlier).to_be_visible()
            earlier.click()
            expect(page.get_by_text("Evidence pages").first).to_be_visible()
            images = page.locator("[data-testid='stChatMessage'] [data-testid='stImage'] img")
            expect(images.first).to_be_visible()
            assert images.count() >= 2  # evidence of both turns
            assert not page.locator("[data-testid='stException']").count()
            page.screenshot(path=str(tmp_path / "01-conversation.png"), full_page=True)

            with page.expect_download(timeout=WAIT) as info:
                page.get_by_text("Evidence pack (PDF)").last.click()
            pdf_path = tmp_path / "pack.pdf"
            info.value.save_as(pdf_path)
            turns = [json.loads(t) for t in _session_runs(library)]
            latest = turns[0]
            text = _pdf_text(pdf_path)
            assert " ".join(latest["answer"]["text"].split())[:40] in text
            assert sum(len(p.get_images()) for p in pymupdf.open(pdf_path)) >= 1
            page.close()

        with streamlit_app(library, log) as url:  # a restart: a new process over the same library
            page = browser.new_page(viewport={"width": 1500, "height": 1200})
            page.set_default_timeout(WAIT)
            page.goto(url)
            page.locator("[data-testid='stSidebarNav'] a", has_text="History").click()
            page.get_by_text("Every question asked here").wait_for()
            table = page.locator("[data-testid='stDataFrame']").first
            table.wait_for()
            expect(page.get_by_text("2 run(s), newest first")).to_be_visible()
            assert not page.locator("[data-testid='stException']").count()
            page.screenshot(path=str(tmp_path / "02-history.png"), full_page=True)
        browser.close()
    assert (tmp_path / "01-conversation.png").stat().st_size > 5_000


def _session_runs(library: Path) -> list[str]:
    """The saved runs' JSON, newest first, read straight from the history file."""
    import sqlite3

    with sqlite3.connect(library / "history.sqlite3") as db:
        return [row[0] for row in db.execute("SELECT result_json FROM runs ORDER BY created_at DESC, rowid DESC")]
