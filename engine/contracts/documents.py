"""Documents: pages, chunks, outlines, profiles and library entries."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from engine.contracts.base import BBox, Contract, EffectiveStrategy

ChunkKind = Literal["text", "heading", "table", "caption", "list_item"]
TocSource = Literal["outline", "headings", "none"]


class TocEntry(Contract):
    """One outline entry with the page range its section covers (inclusive, 1-based)."""

    level: int = Field(ge=1, description="Nesting depth, 1 = top level.")
    title: str
    number: str | None = Field(None, description='Section number parsed from the title ("5.4", "7A", "B").')
    start_page: int = Field(ge=1)
    end_page: int = Field(ge=1)


class PageText(Contract):
    """The cleaned text of one page."""

    page: int = Field(ge=1)
    text: str
    width: float
    height: float


class Chunk(Contract):
    """A block/paragraph-level piece of a page with its location.

    ``chunk_id`` is stable: ``{doc_id[:16]}:p{page}:b{index}``.
    """

    chunk_id: str
    doc_id: str
    page: int = Field(ge=1)
    index: int = Field(ge=0, description="Position of the chunk on its page.")
    text: str
    bboxes: tuple[BBox, ...] = Field(description="Line boxes the text came from, for highlighting.")
    section_path: tuple[str, ...] = Field(default=(), description="Outline titles from the top down.")
    kind: ChunkKind = "text"
    bold_terms: tuple[str, ...] = Field(default=(), description="Bold or run-in header phrases in the chunk.")


class ParsedDocument(Contract):
    """The layer-1 parse of a PDF: pages, chunks and the table of contents."""

    doc_id: str = Field(description="sha256 hex digest of the PDF bytes.")
    file_name: str
    total_pages: int = Field(ge=0)
    pages: tuple[PageText, ...]
    chunks: tuple[Chunk, ...]
    toc: tuple[TocEntry, ...] = ()
    toc_source: TocSource = "none"
    repeated_lines: tuple[str, ...] = Field(default=(), description="Recognised running headers/footers.")
    parse_method: Literal["layer1", "adaptive"] = "layer1"
    parser_version: int = Field(
        0, ge=0, description="Version of the parser that produced it (older ones are re-parsed)."
    )
    ocr_pages: tuple[int, ...] = Field(default=(), description="Pages read by OCR (they had no text layer).")


class DocumentProfile(Contract):
    """A cheap probe of a document, read by the dispatcher."""

    doc_id: str
    file_name: str
    total_pages: int = Field(ge=0)
    has_usable_toc: bool
    toc_entries: int = Field(ge=0, description="Number of outline entries (0 when there is no outline).")
    is_likely_scanned: bool
    has_tables: bool
    text_pages: int = Field(ge=0, description="Pages that carry a text layer.")
    suggested_strategy: EffectiveStrategy
    ocr_pages: tuple[int, ...] = Field(default=(), description="Pages whose text was read by OCR.")


class PageRef(Contract):
    """A page a person can open: document and 1-based page number."""

    doc_id: str
    file_name: str
    page: int = Field(ge=1)


class LibraryEntry(Contract):
    """The manifest of one document in the library."""

    doc_id: str
    file_name: str
    size_bytes: int = Field(ge=0)
    total_pages: int = Field(ge=0)
    added_at: str = Field(description="ISO-8601 UTC timestamp.")
    profile: DocumentProfile
    building: tuple[Literal["keyword index", "dense index"], ...] = Field(
        default=(),
        description="Search indexes not yet on disk: being built in the background, or built on the first question.",
    )
