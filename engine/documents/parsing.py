"""Layer-1 PDF parsing: validation, pages, chunks with boxes, the TOC with page ranges; adaptive re-parse.

``open_pdf`` checks a file before any heavy work; ``parse_pdf`` reads one ``get_text("dict")`` per
page and derives everything (running headers, headings, chunks, sections) from it;
``reparse_pages`` runs PyMuPDF's table finder on a few pages and returns a new document.
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable

os.environ.setdefault("PYMUPDF_SUGGEST_LAYOUT_ANALYZER", "0")

import pymupdf

from engine.config import BYTES_PER_MB, EngineConfig, LibraryConfig
from engine.contracts import BBox, Chunk, PageText, ParsedDocument
from engine.documents.layout import (
    LIGATURES,
    Line,
    Unit,
    band_key,
    block_units,
    body_font_size,
    demote_cells,
    extract_lines,
    find_repeated,
    merge_tiny,
    split_long,
    text_edges,
)
from engine.documents.list_marks import glyph_bullet
from engine.documents.ocr import needs_ocr, no_text_message, ocr_lines
from engine.documents.outline import build_toc
from engine.documents.parsed_codec import chunk_id_of, make_chunk
from engine.documents.pdf_guard import FormMemo, check_page_content
from engine.documents.table_headers import with_table_headers
from engine.errors import DocumentTooLargeError, EncryptedPdfError, NotAPdfError, NoTextLayerError

logger = logging.getLogger(__name__)
pymupdf.TOOLS.mupdf_display_errors(False)

PARSER_VERSION = 18
"""Bump when chunking or headings change: library entries parsed by an older version are re-parsed."""

TEXT_FLAGS = pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_MEDIABOX_CLIP
"""``get_text`` flags: ligatures expanded (no TEXT_PRESERVE_LIGATURES), images skipped."""


def doc_id_of(data: bytes) -> str:
    """The library id of a PDF: the sha256 hex digest of its bytes."""
    return hashlib.sha256(data).hexdigest()


def open_pdf(data: bytes, limits: LibraryConfig) -> pymupdf.Document:
    """Open PDF bytes after cheap checks; the caller closes the document.

    Raises:
        NotAPdfError: empty, not a PDF, or too damaged to read.
        EncryptedPdfError: the PDF needs a password.
        DocumentTooLargeError: over ``limits.max_file_mb`` or ``limits.max_pages``.
    """
    if not data:
        raise NotAPdfError("the file is empty; upload a PDF file")
    if b"%PDF" not in data[:1024]:
        raise NotAPdfError("this file is not a PDF (it has no %PDF header); upload a PDF file")
    size_mb = len(data) / BYTES_PER_MB
    if size_mb > limits.max_file_mb:
        raise DocumentTooLargeError(
            f"this PDF is {size_mb:.1f} MB, over the {limits.max_file_mb:g} MB limit; "
            "split it into smaller files or raise the library size limit"
        )
    try:
        doc = pymupdf.open(stream=data, filetype="pdf")
    except (pymupdf.FileDataError, RuntimeError, ValueError) as exc:
        raise NotAPdfError("this PDF is damaged or truncated and cannot be read; download or export it again") from exc
    if doc.needs_pass:
        doc.close()
        raise EncryptedPdfError("this PDF is password-protected; remove the password and upload it again")
    try:
        pages = doc.page_count  # the page tree's count: cheap, checked before MuPDF maps every page
        if pages > limits.max_pages:
            doc.close()
            raise DocumentTooLargeError(
                f"this PDF has {pages} pages, over the {limits.max_pages}-page limit; "
                "split it into smaller files or raise the page limit"
            )
        if pages:
            doc.load_page(0)
    except (RuntimeError, ValueError) as exc:
        doc.close()
        raise NotAPdfError("this PDF is damaged and its pages cannot be read; download or export it again") from exc
    if pages == 0 or (doc.is_repaired and b"%%EOF" not in data[-4096:]):
        doc.close()
        raise NotAPdfError(
            "this PDF is truncated or has no pages (the end of the file is missing); download or export it again"
        )
    return doc


PageCallback = Callable[[int, int, bool], None]
"""Told ``(page, total, ocr)`` before each page is read (``ocr=True`` again before it is OCR'd)."""


def is_memory_error(exc: BaseException | None) -> bool:
    """The error, or one it came from, is an allocation failure (Python's or MuPDF's)."""
    seen = 0
    while exc is not None and seen < 10:
        text = str(exc).lower()
        if isinstance(exc, MemoryError) or "malloc" in text or "out of memory" in text:
            return True
        exc, seen = exc.__cause__ or exc.__context__, seen + 1
    return False


RawPage = tuple[list[list[Line]], float, float]
"""One page as read: its blocks of lines, width and height."""
PageReader = Callable[[pymupdf.Document, "EngineConfig", "PageCallback | None"], tuple[list[RawPage], list[int]]]
"""Reads every page of an open PDF: the pages in order and the pages read by OCR (see :func:`read_pages`)."""


def read_pages(
    pdf: pymupdf.Document, config: EngineConfig, on_page: PageCallback | None, numbers: Iterable[int] | None = None
) -> tuple[list[RawPage], list[int]]:
    """Lines of the pages ``numbers`` (0-based; all by default), OCR'd where a page has no text layer but
    an image, and the 1-based numbers of the OCR'd pages."""
    limits = config.library
    started = time.perf_counter()
    pages: list[RawPage] = []
    ocr_pages: list[int] = []
    forms: FormMemo = {}
    total = pdf.page_count
    for number in numbers if numbers is not None else range(total):
        if on_page is not None:
            on_page(number + 1, total, False)
        try:
            page = pdf.load_page(number)
            rect = page.rect
            check_page_content(pdf, page, limits, forms)
            blocks = extract_lines(page.get_text("dict", flags=TEXT_FLAGS))
            if limits.ocr and needs_ocr(blocks, page, config.parsing.scanned_chars_per_page):
                if on_page is not None:
                    on_page(number + 1, total, True)
                read = ocr_lines(page, limits.ocr_dpi)
                if read is not None:
                    blocks = read
                    ocr_pages.append(number + 1)
            width, height = rect.width, rect.height
        except (RuntimeError, ValueError, MemoryError, SystemError, pymupdf.mupdf.FzErrorBase) as exc:
            if is_memory_error(exc):
                raise DocumentTooLargeError(
                    f"page {number + 1} needs more memory than the reader may use (a damaged or hostile PDF); "
                    "export the document again or split that page out"
                ) from None
            logger.warning("page %d could not be read: %s", number + 1, exc)  # keep the page, without text
            blocks, width, height = [], 612.0, 792.0
        pages.append((blocks, width, height))
        if time.perf_counter() - started > limits.max_parse_seconds:
            raise DocumentTooLargeError(
                f"parsing took longer than {limits.max_parse_seconds:g} s (stopped at page {number + 1}); "
                "split the PDF into smaller files or raise the parse time limit"
            )
    return pages, ocr_pages


def _outline(pdf: pymupdf.Document) -> list:
    try:
        return pdf.get_toc(simple=True)
    except (RuntimeError, ValueError) as exc:
        logger.warning("the outline could not be read: %s", exc)
        return []


def _chunk(doc_id: str, page: int, index: int, unit: Unit, path: tuple[str, ...]) -> Chunk:
    values = {
        "chunk_id": chunk_id_of(doc_id, page, index), "doc_id": doc_id, "page": page, "index": index,
        "text": unit.text, "bboxes": tuple(unit.bboxes), "section_path": path, "kind": unit.kind,
        "bold_terms": tuple(unit.bold_terms),
    }  # fmt: skip
    return make_chunk(values)


def parse_pdf(
    data: bytes,
    file_name: str,
    config: EngineConfig,
    on_page: PageCallback | None = None,
    reader: PageReader = read_pages,
) -> ParsedDocument:
    """Parse PDF bytes into pages, chunks and a table of contents (scanned pages OCR'd when possible).

    ``reader`` reads the pages (the PDF worker passes one that reads them in two processes).

    Raises:
        NotAPdfError, EncryptedPdfError, DocumentTooLargeError: see :func:`open_pdf`.
        NoTextLayerError: no page has at least ``parsing.scanned_chars_per_page`` characters.
    """
    started = time.perf_counter()
    cfg = config.parsing
    doc_id = doc_id_of(data)
    pdf = open_pdf(data, config.library)
    try:
        raw_pages, ocr_pages = reader(pdf, config, on_page)
        raw_outline = _outline(pdf)
    finally:
        pdf.close()
    chars = [sum(line.chars for lines in blocks for line in lines) for blocks, _, _ in raw_pages]
    if not any(n >= max(cfg.scanned_chars_per_page, 1) for n in chars):
        raise NoTextLayerError(no_text_message(config.library))
    layout = [(blocks, height) for blocks, _, height in raw_pages]
    repeated = find_repeated(layout, cfg.repeated_line_min_fraction)
    body = body_font_size(layout)
    units_by_page: list[list[Unit]] = []
    for number, (blocks, _, height) in enumerate(raw_pages, 1):
        units: list[Unit] = []
        edges = text_edges(blocks)
        glyph = glyph_bullet([line for lines in blocks for line in lines])
        for lines in with_table_headers(blocks):
            if repeated:
                lines = [line for line in lines if band_key(line, height, edges) not in repeated]
            if lines:
                units.extend(block_units(lines, number, height, body, cfg.heading_size_ratio, glyph))
        units_by_page.append(split_long(merge_tiny(demote_cells(units), cfg.min_chunk_chars), cfg.max_chunk_chars))
    toc, toc_source, paths = build_toc(raw_outline, units_by_page)
    # the parser's own values have the contract's types: built without re-validating 10,000 chunks
    chunks = [
        _chunk(doc_id, page, index, unit, paths[page - 1][index])
        for page, units in enumerate(units_by_page, 1)
        for index, unit in enumerate(units)
    ]
    pages = tuple(
        PageText.model_construct(
            page=n, text="\n".join(u.text for u in units), width=raw_pages[n - 1][1], height=raw_pages[n - 1][2]
        )
        for n, units in enumerate(units_by_page, 1)
    )
    logger.info("parsed %s: %d pages, %d chunks, toc=%s (%d), %.2f s", file_name, len(pages), len(chunks),
                toc_source, len(toc), time.perf_counter() - started)  # fmt: skip
    return ParsedDocument(
        doc_id=doc_id, file_name=file_name, total_pages=len(pages), pages=pages, chunks=tuple(chunks),
        toc=toc, toc_source=toc_source, repeated_lines=tuple(repeated.values()), parser_version=PARSER_VERSION,
        ocr_pages=tuple(ocr_pages),
    )  # fmt: skip


# --------------------------------------------------------------------------------------------
# Adaptive re-parse (tables)
# --------------------------------------------------------------------------------------------


def _inside_share(box: BBox, table: BBox) -> float:
    width = max(0.0, min(box[2], table[2]) - max(box[0], table[0]))
    height = max(0.0, min(box[3], table[3]) - max(box[1], table[1]))
    area = max((box[2] - box[0]) * (box[3] - box[1]), 1e-6)
    return width * height / area


def _covered(boxes: tuple[BBox, ...], tables: list[BBox]) -> bool:
    """Every line of the chunk lies (mostly) inside a table; partly covered chunks are kept."""
    return bool(boxes) and bool(tables) and all(any(_inside_share(b, t) >= 0.5 for t in tables) for b in boxes)


def _cell(value: object) -> str:
    return " ".join(str(value).translate(LIGATURES).split()) if value is not None else ""


TABLE_CACHE_PAGES = 512
"""Pages whose tables stay cached in the process (the table finder costs 0.3-1.5 s a page)."""
_tables: OrderedDict[tuple[str, int], list[tuple[BBox, str]]] = OrderedDict()
_tables_lock = threading.Lock()


def _cached_tables(doc_id: str, page: int) -> list[tuple[BBox, str]] | None:
    with _tables_lock:
        found = _tables.get((doc_id, page))
        if found is not None:
            _tables.move_to_end((doc_id, page))
        return found


def _remember_tables(doc_id: str, page: int, tables: list[tuple[BBox, str]]) -> None:
    with _tables_lock:
        _tables[(doc_id, page)] = tables
        while len(_tables) > TABLE_CACHE_PAGES:
            _tables.popitem(last=False)


def _page_tables(page: pymupdf.Page) -> list[tuple[BBox, str]]:
    try:
        found = page.find_tables().tables
    except (RuntimeError, ValueError, AttributeError) as exc:
        logger.warning("table finder failed on page %d: %s", page.number + 1, exc)
        return []
    tables: list[tuple[BBox, str]] = []
    for table in found:
        rows = [[_cell(c) for c in row] for row in table.extract()]
        text = "\n".join(" | ".join(row) for row in rows if any(row))
        if text.strip():
            tables.append((tuple(table.bbox), text))
    return tables


def _rebuild_page(doc: ParsedDocument, page: int, tables: list[tuple[BBox, str]]) -> list[Chunk]:
    old = [c for c in doc.chunks if c.page == page]
    kept = [c for c in old if not _covered(c.bboxes, [t[0] for t in tables])]
    items: list[tuple[float, int, Chunk | tuple[BBox, str]]] = [
        (c.bboxes[0][1] if c.bboxes else 0.0, n, c) for n, c in enumerate(kept)
    ]
    items += [(box[1], len(kept) + n, (box, text)) for n, (box, text) in enumerate(tables)]
    items.sort(key=lambda item: (item[0], item[1]))
    out: list[Chunk] = []
    path = old[0].section_path if old else ()
    for index, (_, _, item) in enumerate(items):
        chunk_id = f"{doc.doc_id[:16]}:p{page}:b{index}"
        if isinstance(item, Chunk):
            path = item.section_path
            out.append(item.model_copy(update={"chunk_id": chunk_id, "index": index}))
        else:
            box, text = item
            out.append(Chunk(chunk_id=chunk_id, doc_id=doc.doc_id, page=page, index=index, text=text,
                             bboxes=(box,), section_path=path, kind="table"))  # fmt: skip
    return out


def reparse_pages(data: bytes, doc: ParsedDocument, pages: Iterable[int], config: EngineConfig) -> ParsedDocument:
    """Re-parse some pages with the table finder: tables become ``kind="table"`` chunks.

    Text chunks of those pages that do not overlap a table are kept (re-indexed in reading order).
    Returns a new document with ``parse_method="adaptive"``; ``doc`` is not changed.
    """
    wanted = sorted({p for p in pages if 1 <= p <= doc.total_pages})
    found = {page: _cached_tables(doc.doc_id, page) for page in wanted}
    missing = [page for page, tables in found.items() if tables is None]
    if missing:
        pdf = open_pdf(data, config.library)
        try:
            for page in missing:
                found[page] = _page_tables(pdf.load_page(page - 1))
                _remember_tables(doc.doc_id, page, found[page] or [])
        finally:
            pdf.close()
    rebuilt = {page: _rebuild_page(doc, page, found[page] or []) for page in wanted}
    chunks = [c for c in doc.chunks if c.page not in rebuilt]
    for page_chunks in rebuilt.values():
        chunks.extend(page_chunks)
    chunks.sort(key=lambda c: (c.page, c.index))
    logger.info("adaptive parse of %s pages %s: %d table chunks", doc.file_name, wanted,
                sum(1 for p in rebuilt.values() for c in p if c.kind == "table"))  # fmt: skip
    return doc.model_copy(update={"chunks": tuple(chunks), "parse_method": "adaptive"})
