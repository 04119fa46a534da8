"""Page rendering with highlight boxes."""

from __future__ import annotations

import pymupdf
import pytest

from engine.errors import LoupeError, NotAPdfError
from engine.present.render import render_page


@pytest.fixture
def pdf() -> bytes:
    doc = pymupdf.open()
    for n in range(2):
        page = doc.new_page(width=300, height=400)
        page.insert_text((40, 60), f"Line of text on page {n + 1}", fontsize=12)
    return doc.tobytes()


def _pixmap(png: bytes) -> pymupdf.Pixmap:
    return pymupdf.Pixmap(png)


def test_png_size_follows_dpi(pdf: bytes) -> None:
    png = render_page(pdf, 1, dpi=72)
    assert png.startswith(b"\x89PNG")
    pix = _pixmap(png)
    assert (pix.width, pix.height) == (300, 400)
    assert _pixmap(render_page(pdf, 2, dpi=144)).width == 600


def test_highlight_tints_the_box_only(pdf: bytes) -> None:
    plain = _pixmap(render_page(pdf, 1, dpi=72))
    marked = _pixmap(render_page(pdf, 1, [(100.0, 200.0, 200.0, 260.0)], dpi=72))
    inside_plain, inside = plain.pixel(150, 230), marked.pixel(150, 230)
    assert inside_plain == (255, 255, 255)
    assert inside != inside_plain and inside[0] > inside[2]  # amber: more red than blue
    assert marked.pixel(20, 380) == plain.pixel(20, 380)


def test_input_bytes_unchanged(pdf: bytes) -> None:
    before = bytes(pdf)
    render_page(pdf, 1, [(10.0, 10.0, 50.0, 50.0)])
    assert pdf == before


def test_bad_page_and_bad_bytes(pdf: bytes) -> None:
    with pytest.raises(LoupeError, match="page 3 does not exist"):
        render_page(pdf, 3)
    with pytest.raises(LoupeError):
        render_page(pdf, 0)
    with pytest.raises(NotAPdfError):
        render_page(b"not a pdf at all", 1)


def test_offpage_and_empty_boxes_are_ignored(pdf: bytes) -> None:
    png = render_page(pdf, 1, [(1000.0, 1000.0, 1100.0, 1100.0), (5.0, 5.0, 5.0, 5.0)], dpi=72)
    assert _pixmap(png).pixel(150, 230) == (255, 255, 255)


def test_marks_box_the_quote_lines_and_colour_them_by_role() -> None:
    from engine.contracts import PageMark

    doc = pymupdf.open()
    page = doc.new_page(width=300, height=400)
    page.insert_text((40, 60), "The first line is not cited.", fontsize=12)
    page.insert_text((40, 200), "The median filter removes spikes.", fontsize=12)
    pdf = doc.tobytes()
    chunk_box = (30.0, 40.0, 280.0, 220.0)  # the whole chunk: both lines
    answer = _pixmap(render_page(pdf, 1, dpi=72, marks=[PageMark(quote="The median filter removes spikes.",
                                                                   boxes=(chunk_box,))]))  # fmt: skip
    assert answer.pixel(45, 197) != (255, 255, 255), "the quote's line is tinted"
    assert answer.pixel(200, 120) == (255, 255, 255), "the rest of the chunk is not"
    red, _, blue = answer.pixel(45, 197)
    assert red > blue  # amber
    support = _pixmap(render_page(pdf, 1, dpi=72, marks=[PageMark(quote="The median filter removes spikes.",
                                                                    boxes=(chunk_box,), role="support")]))  # fmt: skip
    red, _, blue = support.pixel(45, 197)
    assert blue > red  # blue
    missing = _pixmap(render_page(pdf, 1, dpi=72, marks=[PageMark(quote="Not on this page.", boxes=(chunk_box,))]))
    assert missing.pixel(200, 120) != (255, 255, 255), "an unfound quote falls back to the chunk's boxes"


def test_a_table_row_quote_boxes_its_row_across_the_table() -> None:
    from engine.contracts import PageMark

    doc = pymupdf.open()
    page = doc.new_page(width=300, height=400)
    for n, (label, value) in enumerate((("Flights flown", "30"), ("Mean turbidity", "4.6"))):
        page.insert_text((40, 100 + 20 * n), label, fontsize=11)
        page.insert_text((200, 100 + 20 * n), value, fontsize=11)
    pdf = doc.tobytes()
    table = (30.0, 85.0, 260.0, 125.0)
    marked = _pixmap(render_page(pdf, 1, dpi=72, marks=[PageMark(quote="Mean turbidity | 4.6", boxes=(table,))]))
    assert marked.pixel(150, 117) != (255, 255, 255), "the row is tinted between its cells"
    assert marked.pixel(150, 94) == (255, 255, 255), "the other row is not"
