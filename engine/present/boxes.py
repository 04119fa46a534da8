"""Where a citation sits on its page: the boxes of the cited line, or for a table value the row with its
cells, found in the page's own text layout (PyMuPDF words) and matched to the quote.

These boxes are what every reader draws (the app's crops, the evidence pack, any client of the run record),
so they are computed once, when the run ends, and carried on each ``Citation``. A chunk's own line boxes
are only a hint of where to look: a table split into several chunks shares its line boxes out by position,
so a row quoted from one part can sit outside the boxes that part carries.
"""

from __future__ import annotations

import logging
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence

import pymupdf

from engine.contracts import AnswerWithEvidence, BBox, Chunk, Citation

logger = logging.getLogger(__name__)

LINE_MATCH_SHARE = 0.6
"""A line belongs to a quote that is not verbatim on the page when this share of its words are the quote's."""
ROW_BAND_SHARE = 0.5
"""A word is on a label's row when its vertical centre lies inside the label's line, grown by this share of
the line's height (cells set a point lower or higher than their label stay on the row; the next row does not)."""
WRAP_GAP_SHARE = 0.8
"""Two search hits are one wrapped passage when the second starts within this share of a line height below the
first (a label that wraps to a second line in its column)."""
_NUMBER_CHARS = re.compile(r"[^\w().,%-]")


SEARCH_FLAGS = (
    pymupdf.TEXT_DEHYPHENATE | pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_PRESERVE_LIGATURES
    | pymupdf.TEXT_MEDIABOX_CLIP
)  # fmt: skip
"""The text page ``Page.search_for`` makes itself when given none (PyMuPDF's default flags)."""


class PageText:
    """A page's text layer, read once for all the quotes placed on it: the text page ``search_for`` searches
    (made as ``search_for`` makes its own, so the hits are the same) and the page's words."""

    def __init__(self, page: pymupdf.Page) -> None:
        self.page = page
        self._textpage: pymupdf.TextPage | None = None
        self._words: list[tuple] | None = None

    def search(self, text: str) -> list[pymupdf.Rect]:
        if self._textpage is None:
            self._textpage = self.page.get_textpage(flags=SEARCH_FLAGS)
        return list(self.page.search_for(text, textpage=self._textpage))

    def words(self) -> list[tuple]:
        if self._words is None:
            self._words = self.page.get_text("words")
        return self._words


def _tokens(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


def _cell_text(text: str) -> str:
    """A cell's value as written, without currency signs and spaces: "$ (1,577)" -> "(1,577)"."""
    return _NUMBER_CHARS.sub("", text)


def _rect(box: BBox) -> pymupdf.Rect:
    return pymupdf.Rect(*box)


def _union(rects: Sequence[pymupdf.Rect]) -> BBox:
    return (min(r.x0 for r in rects), min(r.y0 for r in rects), max(r.x1 for r in rects), max(r.y1 for r in rects))


def _occurrences(hits: Sequence[pymupdf.Rect]) -> list[list[pymupdf.Rect]]:
    """Search hits grouped into passages: a hit that starts on the next line down continues the previous one
    (search_for returns one rectangle per line of a passage that wraps)."""
    groups: list[list[pymupdf.Rect]] = []
    for hit in hits:
        last = groups[-1][-1] if groups else None
        if last is not None and last.y1 - 1 <= hit.y0 <= last.y1 + WRAP_GAP_SHARE * max(last.height, 1.0):
            groups[-1].append(hit)
        else:
            groups.append([hit])
    return groups


def _distance(rects: Sequence[pymupdf.Rect], near: pymupdf.Rect | None) -> float:
    """Vertical distance of a passage from the chunk's area (0 inside it)."""
    if near is None:
        return 0.0
    top, bottom = min(r.y0 for r in rects), max(r.y1 for r in rects)
    return max(0.0, near.y0 - bottom, top - near.y1)


def _row_words(words: Sequence[tuple], line: pymupdf.Rect) -> list[tuple]:
    grow = ROW_BAND_SHARE * line.height
    return [w for w in words if line.y0 - grow <= (w[1] + w[3]) / 2 <= line.y1 + grow and w[0] >= line.x0 - 1]


def _table_row(page: PageText, quote: str, near: pymupdf.Rect | None) -> list[BBox]:
    """The row of a quoted table row ("Label | 1,577 | 1,373"): where its label is, the occurrence whose
    line holds the most of the quoted cells (nearest the chunk on a tie), boxed with those cells."""
    cells = [c.strip() for c in quote.split("|")]
    label = next((c for c in cells if any(ch.isalpha() for ch in c)), "")
    values = [_cell_text(c) for c in cells if c and c != label and _cell_text(c)]
    if not label:
        return []
    words = page.words()
    best: tuple[tuple[int, float], list[pymupdf.Rect]] | None = None
    for group in _occurrences(page.search(label)):
        row = _row_words(words, group[-1])  # the cells sit on the label's last line when it wraps
        matched = [pymupdf.Rect(w[:4]) for w in row if _cell_text(w[4]) in values]
        score = (len({_cell_text(w[4]) for w in row} & set(values)), -_distance(group, near))
        if best is None or score > best[0]:
            best = (score, group + matched)
    return [_union(best[1])] if best else []


def _line_matches(page: pymupdf.Page, quote: str, area: pymupdf.Rect | None) -> list[BBox]:
    """The lines inside ``area`` whose words are mostly the quote's (when the quote is not verbatim on the
    page: joined table cells, hyphenation, ligatures), so a passage is boxed line by line, not as a block."""
    wanted = set(_tokens(quote))
    if not wanted:
        return []
    lines: dict[tuple[int, int], list[tuple]] = {}
    for word in page.get_text("words", clip=area):
        lines.setdefault((word[5], word[6]), []).append(word)
    boxes: list[BBox] = []
    for members in lines.values():
        tokens = [t for w in members for t in _tokens(w[4])]
        if tokens and sum(t in wanted for t in tokens) >= LINE_MATCH_SHARE * len(tokens):
            boxes.append(_union([pymupdf.Rect(w[:4]) for w in members]))
    return boxes


def locate_quote(page: pymupdf.Page | PageText, quote: str, hint: Sequence[BBox] = ()) -> tuple[BBox, ...]:
    """The boxes of ``quote`` on ``page`` (PDF points, top-left origin): one per line of a prose passage, one
    for a table row with its cells; ``hint`` (the chunk's boxes) breaks ties between occurrences and bounds
    the fuzzy fallback. Empty when the quote cannot be placed on the page."""
    quote = " ".join(quote.split())
    if not quote:
        return ()
    text = page if isinstance(page, PageText) else PageText(page)
    near = pymupdf.Rect(_union([_rect(b) for b in hint])) if hint else None
    try:
        if " | " in quote:  # a table row as the table finder joined it
            return tuple(_table_row(text, quote, near))
        groups = _occurrences(text.search(quote))
        if groups:
            best = min(groups, key=lambda g: _distance(g, near))
            return tuple((r.x0, r.y0, r.x1, r.y1) for r in best)
        area = pymupdf.Rect(near.x0 - 4, near.y0 - 4, near.x1 + 4, near.y1 + 4) if near is not None else None
        return tuple(_line_matches(text.page, quote, area))
    except (RuntimeError, ValueError) as error:  # a damaged page: the caller falls back to the chunk
        logger.debug("cannot place a quote on page %d: %s", text.page.number + 1, error)
        return ()


def with_citation_boxes(
    answer: AnswerWithEvidence, chunks: Sequence[Chunk], pdf_bytes: Callable[[str], bytes]
) -> AnswerWithEvidence:
    """``answer`` with each citation's ``boxes`` set from its page's layout (its chunk's boxes when the quote
    cannot be placed; left empty when the document cannot be opened)."""
    by_id = {c.chunk_id: c for c in chunks}
    citations: list[Citation] = []
    with CITED_PAGES.lock:
        read: set[str] = set()  # each document's bytes are read once per answer
        for citation in answer.citations:
            chunk = by_id.get(citation.chunk_id)
            doc_id = citation.doc_id or (chunk.doc_id if chunk is not None else "")
            if doc_id not in read:
                read.add(doc_id)
                CITED_PAGES.open(doc_id, pdf_bytes)
            hint = chunk.bboxes if chunk is not None else ()
            text = CITED_PAGES.page(doc_id, citation.page)
            boxes = (locate_quote(text, citation.quote, hint) or tuple(hint)) if text is not None else ()
            citations.append(citation.model_copy(update={"boxes": boxes}))
    return answer.model_copy(update={"citations": tuple(citations)})


class CitedPages:
    """The text layers of the pages cited last, kept open between answers (a text page of a dense filing page
    takes milliseconds to make and about half a megabyte to keep): the next questions about a document often
    cite its pages again (its statements, its segment table). At most ``max_documents`` documents, each with
    at most ``max_pages`` pages, least recently cited first out. A document is known by its id and its bytes,
    which are read again on every answer, so a changed file is never read from an old copy. Used under
    ``lock`` (PyMuPDF objects are not safe across threads)."""

    def __init__(self, max_documents: int = 3, max_pages: int = 16) -> None:
        self.lock = threading.Lock()
        self.max_documents, self.max_pages = max_documents, max_pages
        self._docs: OrderedDict[str, tuple[bytes, pymupdf.Document, OrderedDict[int, PageText]]] = OrderedDict()

    def open(self, doc_id: str, pdf_bytes: Callable[[str], bytes]) -> None:
        """Read ``doc_id``'s bytes; open it unless kept with the same bytes (dropped when unreadable)."""
        try:
            data = pdf_bytes(doc_id)
            kept = self._docs.get(doc_id)
            if kept is None or kept[0] != data:
                self._close(doc_id)
                self._docs[doc_id] = (data, pymupdf.open(stream=data, filetype="pdf"), OrderedDict())
        except Exception as error:  # a missing or unreadable file leaves the boxes empty
            logger.info("no citation boxes for %s: %s", doc_id, error)
            self._close(doc_id)
            return
        self._docs.move_to_end(doc_id)
        while len(self._docs) > self.max_documents:
            self._close(next(iter(self._docs)))

    def page(self, doc_id: str, number: int) -> PageText | None:
        """The text layer of page ``number`` (1-based) of an opened document; None when not opened or out of range."""
        kept = self._docs.get(doc_id)
        if kept is None or not 1 <= number <= kept[1].page_count:
            return None
        pages = kept[2]
        text = pages.get(number)
        if text is None:
            text = pages[number] = PageText(kept[1][number - 1])
            while len(pages) > self.max_pages:
                pages.popitem(last=False)
        pages.move_to_end(number)
        return text

    def clear(self) -> None:
        with self.lock:
            for doc_id in list(self._docs):
                self._close(doc_id)

    def _close(self, doc_id: str) -> None:
        kept = self._docs.pop(doc_id, None)
        if kept is not None:
            kept[2].clear()
            kept[1].close()


CITED_PAGES = CitedPages()
