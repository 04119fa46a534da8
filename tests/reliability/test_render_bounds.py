"""Evidence images are bounded: an oversized page is drawn smaller, a page MuPDF refuses is a message.

A 14400x14400 pt page used to raise MuPDF's "Overly large image" into the evidence view on every
rerun; a 12000 pt page cost 15.7 s and 2 GB per image.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest
from streamlit.testing.v1 import AppTest

from engine.errors import LoupeError
from engine.present.render import render_page
from tests.app.conftest import APP

IMAGE_PIXELS = 12_000_000
"""The page-image bound the evidence view relies on (engine.present.render.MAX_IMAGE_PIXELS)."""


def _page_pdf(width: float, height: float) -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=width, height=height)
    page.insert_text((72, 72), "The Kestrel pump station moves 40 litres per second.", fontsize=11)
    page.insert_text((72, 100), "It was commissioned in 2019 after a long planning phase.", fontsize=11)
    return doc.tobytes()


def _size(png: bytes) -> tuple[int, int]:
    pixmap = pymupdf.Pixmap(png)
    return pixmap.width, pixmap.height


@pytest.mark.parametrize(("width", "height"), [(14400, 14400), (12000, 12000), (14400, 200), (3, 14400)])
def test_oversized_page_is_drawn_within_the_pixel_bound(width: float, height: float) -> None:
    png = render_page(_page_pdf(width, height), 1, dpi=300)
    w, h = _size(png)
    assert w * h <= IMAGE_PIXELS, (w, h)
    assert max(w, h) <= 6000, (w, h)
    assert min(w, h) >= 1


def test_ordinary_page_keeps_its_resolution() -> None:
    assert _size(render_page(_page_pdf(612, 792), 1, dpi=144)) == (1224, 1584)


def test_a_page_mupdf_refuses_is_a_loupe_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise pymupdf.mupdf.FzErrorLimit("Overly large image")

    monkeypatch.setattr(pymupdf.Page, "get_pixmap", refuse)
    with pytest.raises(LoupeError, match="cannot be drawn"):
        render_page(_page_pdf(612, 792), 1)


@pytest.mark.timeout(180)
def test_evidence_view_of_a_huge_page_shows_no_traceback(library_dir: Path) -> None:
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.file_uploader[0].upload("poster.pdf", _page_pdf(14400, 14400), "application/pdf").run()
    at.chat_input(key="loupe_chat").set_value("How many litres per second does the Kestrel pump station move?").run()
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    assert at.get("image"), "the evidence page was not drawn"
    at = at.toggle(key="turn_0_ev_0_full").set_value(True).run()  # the whole 14400 pt page
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    assert at.get("image"), "the whole page was not drawn"
