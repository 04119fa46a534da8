"""A small report PDF exercising every pattern, ingested into a temporary library."""

from __future__ import annotations

import pymupdf
import pytest

from engine.api import answer
from engine.config import EngineConfig
from engine.library.local import Library

PAGES = [
    [
        ("1 Introduction", 16, True),
        (
            "The Heron survey measured river turbidity at twelve stations during the spring season. "
            "Methods are described in Section 2 and the measured results are in Table 3.",
            11,
            False,
        ),
        ("2 Filtering methods", 16, True),
        ("We apply three kinds of filtering to the turbidity readings before analysis.", 11, False),
    ],
    [
        (
            "<b>Median smoothing.</b> Each reading is replaced by the median of its five neighbours, "
            "which removes isolated spikes caused by debris.",
            11,
            False,
        ),
        (
            "<b>Drift correction.</b> A linear drift estimated from the calibration runs is subtracted "
            "from every station's series.",
            11,
            False,
        ),
        ("3 Results", 16, True),
        ("Turbidity fell at nine of the twelve stations. Station values are listed in Table 3.", 11, False),
    ],
    [
        ("Table 3: Mean turbidity per station (NTU)", 11, True),
        ("Station A 4.2 3.1", 11, False),
        ("Station B 6.8 5.0", 11, False),
        ("Station C 2.9 3.3", 11, False),
        ("4 Outlier rejection", 16, True),
        ("Outlier rejection is the third filter: readings beyond four standard deviations are dropped.", 11, False),
    ],
]


def build_report_pdf() -> bytes:
    doc = pymupdf.open()
    toc = []
    for number, blocks in enumerate(PAGES, start=1):
        page = doc.new_page()
        y = 72
        for text, size, bold in blocks:
            html = f"<b>{text}</b>" if bold else text
            rect = pymupdf.Rect(72, y, 540, y + 200)
            spare, _ = page.insert_htmlbox(rect, html, css=f"* {{font-family: sans-serif; font-size: {size}px;}}")
            y += 200 - spare + 12
            if size == 16:
                toc.append([1, text, number])
    doc.set_toc(toc)
    return doc.tobytes()


@pytest.fixture
def report(config: EngineConfig):
    library = Library(config)
    entry = library.ingest(build_report_pdf(), "heron-report.pdf")
    return library, entry


HTML_CSS = "* {font-family: sans-serif; font-size: 11px;}"


def html_pdf(pages: list[str], toc: list[list[object]] | None = None) -> bytes:
    """A made-up PDF, one page per HTML snippet (set in a text box), with an optional outline."""
    doc = pymupdf.open()
    for html in pages:
        doc.new_page().insert_htmlbox(pymupdf.Rect(72, 72, 540, 720), html, css=HTML_CSS)
    if toc:
        doc.set_toc(toc)
    return doc.tobytes()


@pytest.fixture
def ask_about(config: EngineConfig):
    """``ask_about(pdf_bytes, file_name)`` ingests a PDF and returns a function that answers a question over it."""

    def ingested(data: bytes, name: str):
        library = Library(config)
        entry = library.ingest(data, name)
        library.wait_for_background()
        return lambda question: answer(question, [entry.doc_id], library=library)

    return ingested
