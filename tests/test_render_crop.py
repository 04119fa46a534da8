"""Readable evidence: crops around the cited lines, and line-level boxes for quotes not verbatim on the page."""

from __future__ import annotations

import pymupdf

from engine.contracts import PageMark
from engine.present.render import _mark_boxes, render_page


def _page_pdf() -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=600, height=800)
    for n in range(30):
        page.insert_text((50, 60 + 22 * n), f"Body line number {n} about nothing in particular", fontsize=11)
    page.insert_text((50, 400 + 11), "Revenue grew to 4.6 million in 2023", fontsize=11)
    page.draw_line((50, 30), (550, 30))  # a rule across the text column
    return doc.tobytes()


def test_crop_is_a_band_around_the_marked_lines() -> None:
    pdf = _page_pdf()
    mark = PageMark(quote="Revenue grew to 4.6 million in 2023", role="answer")
    full = pymupdf.Pixmap(render_page(pdf, 1, dpi=72, marks=[mark]))
    crop = pymupdf.Pixmap(render_page(pdf, 1, dpi=72, marks=[mark], crop=True))
    assert (full.width, full.height) == (600, 800)
    assert crop.height < 160 and crop.width >= 500  # a few lines tall, as wide as the page's content
    assert crop.width <= 600


def test_crop_without_marks_is_the_whole_page() -> None:
    pix = pymupdf.Pixmap(render_page(_page_pdf(), 1, dpi=72, crop=True))
    assert (pix.width, pix.height) == (600, 800)


def test_quote_not_verbatim_is_boxed_line_by_line_not_as_its_block() -> None:
    doc = pymupdf.open(stream=_page_pdf())
    page = doc[0]
    block = (40.0, 40.0, 560.0, 760.0)  # the chunk's box: the whole page body
    mark = PageMark(quote="Revenue | grew to 4.6 million (2023)", boxes=(block,), role="support")
    boxes = _mark_boxes(page, mark)
    assert len(boxes) == 1
    _, y0, _, y1 = boxes[0]
    assert 395 < y0 < y1 < 420 and y1 - y0 < 20  # the one line, not the block
