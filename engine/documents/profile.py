"""A cheap probe of a PDF for the dispatcher: outline, text layer, tables, suggested strategy.

Opens the file once and reads fast plain text (``get_text("text")``) on at most ``SAMPLE_PAGES``
pages spread over the document; counts on the other pages are extrapolated.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable

import pymupdf

from engine.config import EngineConfig
from engine.contracts import DocumentProfile, EffectiveStrategy
from engine.documents.outline import clean_outline
from engine.documents.parsing import doc_id_of, open_pdf
from engine.documents.pdf_guard import check_page_content

logger = logging.getLogger(__name__)

SAMPLE_PAGES = 8
"""Pages read for text counts and table cues; larger documents are sampled evenly."""
MANY_PAGES = 20
"""Documents longer than this get the dispatched strategy even without an outline."""
MIN_TOC_ENTRIES = 3

_NUMERIC_LINE = re.compile(r"^[\s$€£(\-–—]*[0-9][0-9,.\s]*[%)]?\s*$")
_TABLE_CAPTION = re.compile(r"^\s*(?:Table|TABLE)\s+[0-9]+[A-Za-z]?\s*[:.|\-–—]", re.MULTILINE)
_ROW_WITH_NUMBERS = re.compile(r"(?:\d[\d,.]*%?\s+){2,}\d[\d,.]*%?\s*$")


def _sample(page_count: int) -> list[int]:
    if page_count <= SAMPLE_PAGES:
        return list(range(page_count))
    step = page_count / SAMPLE_PAGES
    return sorted({int(i * step) for i in range(SAMPLE_PAGES)})


def looks_tabular(text: str) -> bool:
    """A page cue for tables: a "Table N:" caption, or many short numeric lines / numeric rows."""
    if _TABLE_CAPTION.search(text):
        return True
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) < 6:
        return False
    numeric = sum(1 for line in lines if _NUMERIC_LINE.match(line) or _ROW_WITH_NUMBERS.search(line))
    return numeric >= 8 and numeric >= 0.25 * len(lines)


def suggest_strategy(has_usable_toc: bool, pages: int, has_tables: bool) -> EffectiveStrategy:
    """Dispatched for structured, long or tabular documents; single pass otherwise."""
    return "dispatched" if has_usable_toc or pages > MANY_PAGES or has_tables else "single_pass"


def probe_pdf(
    data: bytes, file_name: str, config: EngineConfig, on_page: Callable[[int], None] | None = None
) -> DocumentProfile:
    """Profile a PDF cheaply (well under 100 ms for 15 pages); ``on_page`` is told each sampled page first.

    Raises the :func:`engine.documents.parsing.open_pdf` errors for files that cannot be read.
    """
    pdf = open_pdf(data, config.library)
    try:
        total = pdf.page_count
        try:
            outline = clean_outline(pdf.get_toc(simple=True), total)
        except (RuntimeError, ValueError):
            outline = []
        sampled = _sample(total)
        with_text = 0
        scanned_like = 0
        tabular = False
        for number in sampled:
            if on_page is not None:
                on_page(number + 1)
            try:
                page = pdf.load_page(number)
                check_page_content(pdf, page, config.library)
                text = page.get_text("text")
            except (RuntimeError, ValueError, pymupdf.mupdf.FzErrorBase) as exc:
                logger.warning("probe: page %d unreadable: %s", number + 1, exc)
                continue
            chars = len(text) - text.count(" ") - text.count("\n")
            if chars >= max(config.parsing.scanned_chars_per_page, 1):
                with_text += 1
                tabular = tabular or looks_tabular(text)
            elif page.get_images(full=False):
                scanned_like += 1
    finally:
        pdf.close()
    text_pages = round(with_text * total / len(sampled)) if sampled else 0
    has_toc = len(outline) >= MIN_TOC_ENTRIES
    return DocumentProfile(
        doc_id=doc_id_of(data), file_name=file_name, total_pages=total, has_usable_toc=has_toc,
        toc_entries=len(outline), is_likely_scanned=scanned_like > len(sampled) / 2, has_tables=tabular,
        text_pages=text_pages, suggested_strategy=suggest_strategy(has_toc, total, tabular),
    )  # fmt: skip
