"""Rendering for the UI: one PDF page as a PNG with the cited lines highlighted, and untrusted text made
safe for Markdown.

Pure: the PDF bytes are opened as a private in-memory copy; nothing is written anywhere.
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Sequence

import pymupdf

from engine.contracts import BBox, CitationRole, PageMark, RunResult
from engine.errors import LoupeError, NotAPdfError

logger = logging.getLogger(__name__)

HIGHLIGHT_FILL = (1.0, 0.78, 0.0)
"""Amber fill of a highlight box."""
HIGHLIGHT_BORDER = (0.85, 0.33, 0.0)
"""Dark orange border of a highlight box."""
SUPPORT_FILL = (0.35, 0.62, 0.95)
"""Light blue fill of a supporting passage."""
SUPPORT_BORDER = (0.1, 0.35, 0.75)
HIGHLIGHT_OPACITY = 0.28
MAX_DPI = 300
MAX_IMAGE_PIXELS = 12_000_000
"""Most pixels one page image may have (a letter page at 300 dpi has 8.4 million); a larger page is drawn
at a lower resolution instead (a 14400 pt square page at 110 dpi would need 1.5 GB)."""
MAX_IMAGE_SIDE = 6000
"""Longest side of a page image in pixels (a 100:1 strip of paper stays within the pixel budget otherwise)."""
_COLOURS: dict[CitationRole, tuple[tuple[float, float, float], tuple[float, float, float]]] = {
    "answer": (HIGHLIGHT_BORDER, HIGHLIGHT_FILL),
    "support": (SUPPORT_BORDER, SUPPORT_FILL),
}


_INLINE_SYNTAX = re.compile(r"[\\`*_\[\]<>&~$|]|:(?=\S)|(?<=www)\.", re.IGNORECASE)
"""Characters that start inline Markdown anywhere in a line: escapes, code, emphasis, links and images,
HTML and autolinks, entities, strikethrough, LaTeX, table cells; a colon before a non-space (``http://``,
Streamlit's ``:red[...]`` and ``:smile:``); the dot of ``www.`` (an autolink)."""
_LINE_START_SYNTAX = re.compile(r"^([#>+=-]|\d+[.)])")
"""What starts a block at the beginning of a line: heading, quote, list item, setext underline."""


def escape_markdown(text: str) -> str:
    """``text`` shown literally by a CommonMark renderer (Streamlit's markdown, captions, labels, alerts,
    table cells) and in a Markdown export.

    Every character that could start Markdown syntax is backslash-escaped, so no emphasis ("OAS 3.*.*"),
    link, image (which would make the browser fetch its URL), autolink, heading, list, raw HTML, LaTeX or
    Streamlit directive can form; ordinary punctuation ("3.5%", "Table 3: Results") stays as it is. Lines are
    stripped and joined by hard breaks. Use it on everything that comes from a document, a file name, a
    question or a model: answers, quotes, captions, outline titles, caveats, fallback reasons, errors.
    """
    lines = []
    for line in str(text).splitlines():
        line = _INLINE_SYNTAX.sub(lambda m: "\\" + m.group(0), line.strip())
        lines.append(_LINE_START_SYNTAX.sub(lambda m: m.group(1)[:-1] + "\\" + m.group(1)[-1], line))
    return "  \n".join(lines)


def page_marks(result: RunResult, doc_id: str, page: int) -> tuple[PageMark, ...]:
    """The citations of ``result`` on one page, as marks (quote, chunk boxes, role)."""
    chunks = {c.chunk_id: c for c in result.evidence_chunks}
    marks = []
    for citation in result.answer.citations:
        chunk = chunks.get(citation.chunk_id)
        if chunk is not None and chunk.doc_id == doc_id and chunk.page == page:
            marks.append(PageMark(quote=citation.quote, boxes=chunk.bboxes, role=citation.role))
    return tuple(marks)


def render_page(
    pdf_bytes: bytes,
    page: int,
    highlights: Sequence[BBox] = (),
    dpi: int = 110,
    marks: Sequence[PageMark] = (),
) -> bytes:
    """Render one page of a PDF as PNG bytes with translucent boxes over ``highlights`` and ``marks``.

    Args:
        pdf_bytes: The whole PDF.
        page: 1-based page number.
        highlights: Boxes in PDF points (x0, y0, x1, y1), top-left origin, as the chunks carry them (amber).
        dpi: Resolution of the image (clamped to 36..300).
        marks: Cited passages: the lines of each quote (found with PyMuPDF's text search) are boxed,
            amber for the answer's citations and blue for supporting ones; a quote the search cannot
            find falls back to its chunk's boxes.

    The image has at most ``MAX_IMAGE_PIXELS`` pixels and ``MAX_IMAGE_SIDE`` pixels a side: an oversized
    page is drawn at a lower resolution.

    Raises:
        NotAPdfError: the bytes are not a readable PDF.
        LoupeError: the page does not exist, or MuPDF cannot draw it.
    """
    try:
        doc = pymupdf.open(stream=pdf_bytes, filetype="pdf")
    except (pymupdf.FileDataError, RuntimeError, ValueError) as error:
        raise NotAPdfError(f"cannot render the page: the file is not a readable PDF ({error})") from error
    try:
        if not 1 <= page <= doc.page_count:
            raise LoupeError(f"page {page} does not exist; the document has {doc.page_count} page(s)")
        target = doc[page - 1]
        boxes: list[tuple[BBox, CitationRole]] = [(box, "answer") for box in highlights] + [
            (box, m.role) for m in marks for box in _mark_boxes(target, m)
        ]
        for box, role in boxes:
            rect = _padded(box, target.rect)
            if rect is not None:
                border, fill = _COLOURS[role]
                target.draw_rect(rect, color=border, fill=fill, fill_opacity=HIGHLIGHT_OPACITY, width=1.5)
        zoom = image_zoom(target.rect, dpi)
        try:
            pixmap = target.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), alpha=False)
            return pixmap.tobytes("png")
        except (RuntimeError, ValueError, pymupdf.mupdf.FzErrorBase) as error:
            logger.warning("cannot draw page %d: %s", page, error)
            raise LoupeError(f"page {page} cannot be drawn as an image ({type(error).__name__})") from None
    finally:
        doc.close()


def image_zoom(rect: pymupdf.Rect, dpi: int) -> float:
    """Scale from PDF points to pixels: ``dpi`` (clamped to 36..300), lowered so the image stays within
    ``MAX_IMAGE_PIXELS`` and ``MAX_IMAGE_SIDE``."""
    zoom = max(36, min(int(dpi), MAX_DPI)) / 72
    width, height = max(abs(rect.width), 1.0), max(abs(rect.height), 1.0)
    # 1% headroom: MuPDF rounds the image edges out by up to a pixel each (2 x 6000 px x 2 < 1% of the budget)
    by_pixels = math.sqrt(0.99 * MAX_IMAGE_PIXELS / (width * height))
    by_side = (MAX_IMAGE_SIDE - 2) / max(width, height)
    return min(zoom, by_pixels, by_side)


def _mark_boxes(target: pymupdf.Page, mark: PageMark) -> list[BBox]:
    """The quote's own line boxes on the page (within its chunk when boxes are known), else the chunk's."""
    quote = " ".join(mark.quote.split())
    area = _union(mark.boxes) if mark.boxes else target.rect
    try:
        if " | " in quote:  # a table row as the table finder joined it: box the row where its label is
            label = next((c for c in quote.split(" | ") if any(ch.isalpha() for ch in c)), "")
            found = target.search_for(label, clip=area) if label else []
            return [(area.x0, r.y0, area.x1, r.y1) for r in found[:1]] or list(mark.boxes)
        found = target.search_for(quote, clip=area) if quote else []
    except (RuntimeError, ValueError):  # a damaged page: fall back to the chunk
        found = []
    return [(r.x0, r.y0, r.x1, r.y1) for r in found] or list(mark.boxes)


def _union(boxes: Sequence[BBox], pad: float = 4.0) -> pymupdf.Rect:
    return pymupdf.Rect(min(b[0] for b in boxes) - pad, min(b[1] for b in boxes) - pad,
                        max(b[2] for b in boxes) + pad, max(b[3] for b in boxes) + pad)  # fmt: skip


def _padded(box: BBox, page_rect: pymupdf.Rect, pad: float = 1.5) -> pymupdf.Rect | None:
    """The box grown by ``pad`` points and clipped to the page; None when empty or off the page."""
    rect = pymupdf.Rect(box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad) & page_rect
    if rect.is_empty or rect.width < 1 or rect.height < 1:
        logger.debug("skipping empty highlight %s", box)
        return None
    return rect
