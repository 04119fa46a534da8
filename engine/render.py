"""Page images for the UI: one PDF page rendered to PNG, with the cited lines highlighted.

Pure: the PDF bytes are opened as a private in-memory copy; nothing is written anywhere.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import pymupdf

from engine.contracts import BBox
from engine.errors import LoupeError, NotAPdfError

logger = logging.getLogger(__name__)

HIGHLIGHT_FILL = (1.0, 0.78, 0.0)
"""Amber fill of a highlight box."""
HIGHLIGHT_BORDER = (0.85, 0.33, 0.0)
"""Dark orange border of a highlight box."""
HIGHLIGHT_OPACITY = 0.28
MAX_DPI = 300


def render_page(pdf_bytes: bytes, page: int, highlights: Sequence[BBox] = (), dpi: int = 110) -> bytes:
    """Render one page of a PDF as PNG bytes with translucent boxes over ``highlights``.

    Args:
        pdf_bytes: The whole PDF.
        page: 1-based page number.
        highlights: Boxes in PDF points (x0, y0, x1, y1), top-left origin, as the chunks carry them.
        dpi: Resolution of the image (clamped to 36..300).

    Raises:
        NotAPdfError: the bytes are not a readable PDF.
        LoupeError: the page does not exist.
    """
    try:
        doc = pymupdf.open(stream=pdf_bytes, filetype="pdf")
    except (pymupdf.FileDataError, RuntimeError, ValueError) as error:
        raise NotAPdfError(f"cannot render the page: the file is not a readable PDF ({error})") from error
    try:
        if not 1 <= page <= doc.page_count:
            raise LoupeError(f"page {page} does not exist; the document has {doc.page_count} page(s)")
        target = doc[page - 1]
        for box in highlights:
            rect = _padded(box, target.rect)
            if rect is not None:
                target.draw_rect(
                    rect, color=HIGHLIGHT_BORDER, fill=HIGHLIGHT_FILL, fill_opacity=HIGHLIGHT_OPACITY, width=1.5
                )
        pixmap = target.get_pixmap(dpi=max(36, min(int(dpi), MAX_DPI)), alpha=False)
        return pixmap.tobytes("png")
    finally:
        doc.close()


def _padded(box: BBox, page_rect: pymupdf.Rect, pad: float = 1.5) -> pymupdf.Rect | None:
    """The box grown by ``pad`` points and clipped to the page; None when empty or off the page."""
    rect = pymupdf.Rect(box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad) & page_rect
    if rect.is_empty or rect.width < 1 or rect.height < 1:
        logger.debug("skipping empty highlight %s", box)
        return None
    return rect
