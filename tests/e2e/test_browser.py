"""A real browser (Debian's chromium via Playwright) drives the running app: upload, ask, see why.

Skips when chromium is absent, unless $CI is set (then it fails). Never downloads a browser.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pymupdf
import pytest

from tests.app.conftest import REAL_ENGINE
from tests.e2e.server import ARGS, chromium, streamlit_app

QUESTION = "What mean turbidity does Table 3 report for the Osprey flights?"


def _report_pdf() -> bytes:
    """A small 3-page report: prose that points at Table 3 and the table on a later page."""
    doc = pymupdf.open()
    texts = [
        [
            "1 Overview",
            "The Osprey survey flew 20 flights over the reservoir in 2025.",
            "The measured results are in Table 3, on the last page.",
        ],
        [
            "2 Method",
            "Each flight lowered a turbidity probe at five stations.",
            "Readings were averaged per flight and checked against bottle samples.",
        ],
        [
            "3 Results",
            "Table 3: Mean turbidity of the Osprey flights",
            "Station A | 3.9 NTU",
            "Station B | 4.4 NTU",
            "All stations | 4.1 NTU",
        ],
    ]
    for lines in texts:
        page = doc.new_page()
        for n, line in enumerate(lines):
            page.insert_text((72, 80 + 22 * n), line, fontsize=14 if n == 0 else 11,
                             fontname="hebo" if n == 0 else "helv")  # fmt: skip
    doc.set_toc([[1, t[0], n + 1] for n, t in enumerate(texts)])
    return doc.tobytes()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    library = tmp_path / "library"
    library.mkdir()
    script = "app.py" if REAL_ENGINE else "tests/e2e/fake_engine_app.py"
    with streamlit_app(library, tmp_path / "streamlit.log", script) as url:
        yield url


@pytest.mark.timeout(240)
def test_upload_ask_and_see_why(server: str, tmp_path: Path) -> None:
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=90_000)  # a loaded 2-core machine: wait on elements generously

    executable = chromium()
    pdf = tmp_path / "osprey-report.pdf"
    pdf.write_bytes(_report_pdf())
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=ARGS, headless=True)
        page = browser.new_page(viewport={"width": 1500, "height": 1100})
        page.set_default_timeout(60_000)
        page.goto(server)
        page.get_by_text("Ask hard questions of PDFs").wait_for()
        # the first run (which reads the bundled sample) has drawn the whole page and finished: a file
        # chosen while the page is still being drawn goes to an uploader that the run then replaces
        page.locator("[data-testid='stChatInputTextArea']").wait_for()
        page.locator("[data-testid='stStatusWidget']").wait_for(state="hidden")
        page.screenshot(path=str(tmp_path / "01-landing.png"), full_page=True)

        page.locator("[data-testid='stFileUploader'] input[type='file']").set_input_files(str(pdf))
        multiselect = page.locator("[data-testid='stMultiSelect']")
        expect(multiselect).to_contain_text("osprey-report.pdf", timeout=60_000)

        box = page.locator("[data-testid='stChatInputTextArea']")
        box.fill(QUESTION)
        box.press("Enter")
        page.get_by_text("How Loupe searched").wait_for()
        expect(page.get_by_text("What each pass did", exact=True)).to_be_visible()
        expect(page.get_by_text("First reading").first).to_be_visible()
        expect(page.get_by_text("Following references").first).to_be_visible()
        evidence = page.locator("[data-testid='stImage'] img").first
        evidence.wait_for()
        page.locator(".js-plotly-plot").first.wait_for()
        expect(page.get_by_text("osprey-report.pdf · page").first).to_be_visible()
        assert not page.locator("[data-testid='stException']").count()
        page.set_viewport_size({"width": 1500, "height": 2900})  # Streamlit scrolls inside: a tall window shows all
        time.sleep(2.0)  # let plotly finish drawing before the picture
        page.screenshot(path=str(tmp_path / "02-answer.png"), full_page=True)
        evidence.scroll_into_view_if_needed()
        evidence.screenshot(path=str(tmp_path / "03-evidence.png"))

        if not REAL_ENGINE:  # the stand-in launcher has no pages/ folder next to it
            browser.close()
            return
        page.locator("[data-testid='stSidebarNav'] a", has_text="Inspect").click()
        page.get_by_text("Passes", exact=True).wait_for()
        page.locator(".js-plotly-plot").nth(1).wait_for()
        time.sleep(2.0)
        assert not page.locator("[data-testid='stException']").count()
        page.screenshot(path=str(tmp_path / "04-inspect.png"), full_page=True)

        page.locator("[data-testid='stSidebarNav'] a", has_text="Library").click()
        page.get_by_text("Outline", exact=True).wait_for()
        page.screenshot(path=str(tmp_path / "05-library.png"), full_page=True)
        browser.close()
    for name in ("01-landing.png", "02-answer.png", "03-evidence.png", "04-inspect.png", "05-library.png"):
        assert (tmp_path / name).stat().st_size > 5_000
