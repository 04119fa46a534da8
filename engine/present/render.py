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
from engine.present.boxes import locate_quote

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
CROP_MARGIN = 40.0
"""Points of context kept around the marked lines in a cropped render (about three lines of body text)."""
CROP_SIDE_MARGIN = 12.0
"""Points kept left and right of the page's content in a cropped render."""
_COLOURS: dict[CitationRole, tuple[tuple[float, float, float], tuple[float, float, float]]] = {
    "answer": (HIGHLIGHT_BORDER, HIGHLIGHT_FILL),
    "support": (SUPPORT_BORDER, SUPPORT_FILL),
}


_INLINE_SYNTAX = re.compile(r"[\\`*_\[\]<>&~$|]|:(?=[A-Za-z/+_-])|(?<=www)\.", re.IGNORECASE)
"""Characters that start inline Markdown anywhere in a line: escapes, code, emphasis, links and images,
HTML and autolinks, entities, strikethrough, LaTeX, table cells; a colon before a letter or a slash
(``http://``, Streamlit's ``:red[...]``, ``:material/...:`` and ``:smile:``; "12:30" stays); the dot of
``www.`` (an autolink)."""
_LINE_START_SYNTAX = re.compile(r"^([#>+=-]|\d+[.)])")
"""What starts a block at the beginning of a line: heading, quote, list item, setext underline."""


def escape_inline(text: str) -> str:
    """One line of untrusted text shown literally by a Markdown renderer (CommonMark, GitHub, Streamlit's
    markdown, captions, labels, alerts and table cells): every character that could start syntax is
    backslash-escaped, so no emphasis ("OAS 3.*.*"), link, image (which would make the browser fetch its
    URL), autolink, heading, list, raw HTML, LaTeX or Streamlit directive can form, while ordinary
    punctuation ("3.5%", "Table 3: Results") stays as it is. White space runs (line breaks too) become one
    space. Use it on everything that comes from a document, a file name, a question or a model."""
    line = _INLINE_SYNTAX.sub(lambda m: "\\" + m.group(0), " ".join(str(text).split()))
    return _LINE_START_SYNTAX.sub(lambda m: m.group(1)[:-1] + "\\" + m.group(1)[-1], line)


def escape_markdown(text: str) -> str:
    """Untrusted text escaped as by ``escape_inline``, line by line, its line breaks kept as hard breaks
    (blank lines dropped)."""
    lines = [escape_inline(line) for line in str(text).splitlines()]
    return "  \n".join(line for line in lines if line)


def page_marks(result: RunResult, doc_id: str, page: int) -> tuple[PageMark, ...]:
    """The citations of ``result`` on one page, as marks: the citation's recorded boxes (exact), or for runs
    recorded before citations carried boxes, its chunk's boxes to search within."""
    chunks = {c.chunk_id: c for c in result.evidence_chunks}
    marks = []
    for citation in result.answer.citations:
        chunk = chunks.get(citation.chunk_id)
        if chunk is not None and chunk.doc_id == doc_id and chunk.page == page:
            exact = bool(citation.boxes)
            boxes = citation.boxes if exact else chunk.bboxes
            marks.append(PageMark(quote=citation.quote, boxes=boxes, role=citation.role, exact=exact))
    return tuple(marks)


def render_page(
    pdf_bytes: bytes,
    page: int,
    highlights: Sequence[BBox] = (),
    dpi: int = 110,
    marks: Sequence[PageMark] = (),
    crop: bool = False,
) -> bytes:
    """Render one page of a PDF as PNG bytes with translucent boxes over ``highlights`` and ``marks``.

    Args:
        pdf_bytes: The whole PDF.
        page: 1-based page number.
        highlights: Boxes in PDF points (x0, y0, x1, y1), top-left origin, as the chunks carry them (amber).
        dpi: Resolution of the image (clamped to 36..300).
        marks: Cited passages: the lines of each quote (found with PyMuPDF's text search) are boxed,
            amber for the answer's citations and blue for supporting ones; a quote the search cannot
            find falls back to the chunk's lines that hold the quote's words, then to its chunk's boxes.
        crop: Render only the band around the boxes (the width of the page's content, a few lines of
            context above and below); the whole page when nothing is marked.

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
        drawn = []
        for box, role in boxes:
            rect = _padded(box, target.rect)
            if rect is not None:
                border, fill = _COLOURS[role]
                target.draw_rect(rect, color=border, fill=fill, fill_opacity=HIGHLIGHT_OPACITY, width=1.5)
                drawn.append(rect)
        clip = _crop_rect(target, drawn) if crop else None
        zoom = image_zoom(clip if clip is not None else target.rect, dpi)
        try:
            pixmap = target.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), alpha=False, clip=clip)
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
    """A citation's own boxes when the run recorded them; else the quote placed on the page now (the way
    the run would have), else its chunk's boxes."""
    if mark.exact and mark.boxes:
        return list(mark.boxes)
    return list(locate_quote(target, mark.quote, mark.boxes) or mark.boxes)


def _crop_rect(target: pymupdf.Page, drawn: Sequence[pymupdf.Rect]) -> pymupdf.Rect | None:
    """The band of the page around the drawn boxes: a few lines of context above and below, and the
    full width of the page's content (text and rules), so a crop reads like the page's own column."""
    if not drawn:
        return None
    x0, y0 = min(r.x0 for r in drawn), min(r.y0 for r in drawn)
    x1, y1 = max(r.x1 for r in drawn), max(r.y1 for r in drawn)
    try:
        content = [pymupdf.Rect(box) for _, box in target.get_bboxlog()]
    except (RuntimeError, ValueError):
        content = []
    content = [r for r in content if not r.is_empty and r.width < target.rect.width * 0.98]  # not page backgrounds
    if content:
        x0, x1 = min(x0, min(r.x0 for r in content)), max(x1, max(r.x1 for r in content))
    top, bottom = _whole_lines(target, y0 - CROP_MARGIN, y1 + CROP_MARGIN)
    rect = pymupdf.Rect(x0 - CROP_SIDE_MARGIN, top, x1 + CROP_SIDE_MARGIN, bottom)
    return rect & target.rect


def _whole_lines(target: pymupdf.Page, top: float, bottom: float) -> tuple[float, float]:
    """``top`` and ``bottom`` moved outwards so no text line is cut across (a crop that starts half-way
    down a line shows a row of unreadable glyph tops). Repeated, as a moved edge can land in the next
    column's line; a few rounds settle any real page."""
    try:
        lines = [pymupdf.Rect(w[:4]) for w in target.get_text("words")]
    except (RuntimeError, ValueError):
        return top, bottom
    for _ in range(4):
        cut_top = [r.y0 for r in lines if r.y0 < top < r.y1]
        cut_bottom = [r.y1 for r in lines if r.y0 < bottom < r.y1]
        if not cut_top and not cut_bottom:
            break
        top = min(cut_top, default=top + 1) - 1
        bottom = max(cut_bottom, default=bottom - 1) + 1
    return top, bottom


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
