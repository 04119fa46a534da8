"""Layer-1 PDF parsing: validation, pages, chunks with boxes, the TOC with page ranges; adaptive re-parse.

``open_pdf`` checks a file before any heavy work; ``parse_pdf`` reads one ``get_text("dict")`` per
page and derives everything (running headers, headings, chunks, sections) from it;
``reparse_pages`` runs PyMuPDF's table finder on a few pages and returns a new document.
"""

from __future__ import annotations

import hashlib
import logging
import os
import time
import zlib
from collections.abc import Iterable

os.environ.setdefault("PYMUPDF_SUGGEST_LAYOUT_ANALYZER", "0")

import pymupdf

from engine.bricks.layout import (
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
)
from engine.bricks.outline import build_toc
from engine.config import BYTES_PER_MB, EngineConfig, LibraryConfig
from engine.contracts import BBox, Chunk, PageText, ParsedDocument
from engine.errors import DocumentTooLargeError, EncryptedPdfError, NotAPdfError, NoTextLayerError

logger = logging.getLogger(__name__)
pymupdf.TOOLS.mupdf_display_errors(False)

PARSER_VERSION = 3
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
        pages = doc.page_count
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
    if pages > limits.max_pages:
        doc.close()
        raise DocumentTooLargeError(
            f"this PDF has {pages} pages, over the {limits.max_pages}-page limit; "
            "split it into smaller files or raise the page limit"
        )
    return doc


_CHECK_RAW_BYTES = 16 * 1024
"""Content streams shorter than this (compressed) cannot inflate past any sane limit; skip the check."""


def _content_bytes(pdf: pymupdf.Document, page: pymupdf.Page, limit: int) -> int:
    """Decoded size of a page's content streams, counted only up to ``limit + 1`` bytes.

    Large compressed streams are inflated incrementally, so a flate bomb costs at most ``limit``
    bytes of memory instead of its full decoded size.
    """
    total = 0
    for xref in page.get_contents():
        length = pdf.xref_get_key(xref, "Length")
        if length[0] == "int" and int(length[1]) < _CHECK_RAW_BYTES:
            total += int(length[1])
            continue
        raw = pdf.xref_stream_raw(xref) or b""
        if "FlateDecode" not in pdf.xref_get_key(xref, "Filter")[1]:
            total += len(raw)
            continue
        inflater = zlib.decompressobj()
        chunk = raw
        while chunk and total <= limit:
            out = inflater.decompress(chunk, 1 << 20)
            total += len(out)
            chunk = inflater.unconsumed_tail
            if not out:
                break
    return total


def check_page_content(pdf: pymupdf.Document, page: pymupdf.Page, limits: LibraryConfig) -> None:
    """Refuse a page whose content streams decode past ``limits.max_page_content_mb``.

    Raises:
        DocumentTooLargeError: the page is a decompression bomb (or absurdly heavy).
    """
    limit = int(limits.max_page_content_mb * 1024 * 1024)
    if _content_bytes(pdf, page, limit) > limit:
        raise DocumentTooLargeError(
            f"page {page.number + 1} holds more than {limits.max_page_content_mb:g} MB of drawing "
            "instructions (a damaged or hostile PDF); export the document again or split that page out"
        )


def _read_pages(pdf: pymupdf.Document, limits: LibraryConfig) -> list[tuple[list[list[Line]], float, float]]:
    started = time.perf_counter()
    pages: list[tuple[list[list[Line]], float, float]] = []
    for number in range(pdf.page_count):
        try:
            page = pdf.load_page(number)
            rect = page.rect
            check_page_content(pdf, page, limits)
            blocks = extract_lines(page.get_text("dict", flags=TEXT_FLAGS))
            width, height = rect.width, rect.height
        except (
            RuntimeError,
            ValueError,
            pymupdf.mupdf.FzErrorBase,
        ) as exc:  # a damaged page: keep the page, without text
            logger.warning("page %d could not be read: %s", number + 1, exc)
            blocks, width, height = [], 612.0, 792.0
        pages.append((blocks, width, height))
        if time.perf_counter() - started > limits.max_parse_seconds:
            raise DocumentTooLargeError(
                f"parsing took longer than {limits.max_parse_seconds:g} s (stopped at page {number + 1}); "
                "split the PDF into smaller files or raise the parse time limit"
            )
    return pages


def _outline(pdf: pymupdf.Document) -> list:
    try:
        return pdf.get_toc(simple=True)
    except (RuntimeError, ValueError) as exc:
        logger.warning("the outline could not be read: %s", exc)
        return []


def parse_pdf(data: bytes, file_name: str, config: EngineConfig) -> ParsedDocument:
    """Parse PDF bytes into pages, chunks and a table of contents.

    Raises:
        NotAPdfError, EncryptedPdfError, DocumentTooLargeError: see :func:`open_pdf`.
        NoTextLayerError: no page has at least ``parsing.scanned_chars_per_page`` characters.
    """
    started = time.perf_counter()
    cfg = config.parsing
    doc_id = doc_id_of(data)
    pdf = open_pdf(data, config.library)
    try:
        raw_pages = _read_pages(pdf, config.library)
        raw_outline = _outline(pdf)
    finally:
        pdf.close()
    chars = [sum(line.chars for lines in blocks for line in lines) for blocks, _, _ in raw_pages]
    if not any(n >= max(cfg.scanned_chars_per_page, 1) for n in chars):
        raise NoTextLayerError(
            "this PDF has no text layer (it looks like a scan); OCR it first, e.g. with ocrmypdf, and upload the result"
        )
    layout = [(blocks, height) for blocks, _, height in raw_pages]
    repeated = find_repeated(layout, cfg.repeated_line_min_fraction)
    body = body_font_size(layout)
    units_by_page: list[list[Unit]] = []
    for number, (blocks, _, height) in enumerate(raw_pages, 1):
        units: list[Unit] = []
        for lines in blocks:
            if repeated:
                lines = [line for line in lines if band_key(line, height) not in repeated]
            if lines:
                units.extend(block_units(lines, number, height, body, cfg.heading_size_ratio))
        units_by_page.append(split_long(merge_tiny(demote_cells(units), cfg.min_chunk_chars), cfg.max_chunk_chars))
    toc, toc_source, paths = build_toc(raw_outline, units_by_page)
    chunks = [
        Chunk(
            chunk_id=f"{doc_id[:16]}:p{page}:b{index}",
            doc_id=doc_id,
            page=page,
            index=index,
            text=unit.text,
            bboxes=tuple(unit.bboxes),
            section_path=paths[page - 1][index],
            kind=unit.kind,
            bold_terms=tuple(unit.bold_terms),
        )
        for page, units in enumerate(units_by_page, 1)
        for index, unit in enumerate(units)
    ]
    pages = tuple(
        PageText(page=n, text="\n".join(u.text for u in units), width=raw_pages[n - 1][1], height=raw_pages[n - 1][2])
        for n, units in enumerate(units_by_page, 1)
    )
    logger.info("parsed %s: %d pages, %d chunks, toc=%s (%d), %.2f s", file_name, len(pages), len(chunks),
                toc_source, len(toc), time.perf_counter() - started)  # fmt: skip
    return ParsedDocument(
        doc_id=doc_id, file_name=file_name, total_pages=len(pages), pages=pages, chunks=tuple(chunks),
        toc=toc, toc_source=toc_source, repeated_lines=tuple(repeated.values()), parser_version=PARSER_VERSION,
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
    rebuilt: dict[int, list[Chunk]] = {}
    if wanted:
        pdf = open_pdf(data, config.library)
        try:
            for page in wanted:
                rebuilt[page] = _rebuild_page(doc, page, _page_tables(pdf.load_page(page - 1)))
        finally:
            pdf.close()
    chunks = [c for c in doc.chunks if c.page not in rebuilt]
    for page_chunks in rebuilt.values():
        chunks.extend(page_chunks)
    chunks.sort(key=lambda c: (c.page, c.index))
    logger.info("adaptive parse of %s pages %s: %d table chunks", doc.file_name, wanted,
                sum(1 for p in rebuilt.values() for c in p if c.kind == "table"))  # fmt: skip
    return doc.model_copy(update={"chunks": tuple(chunks), "parse_method": "adaptive"})
