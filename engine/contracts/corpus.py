"""Searching the whole library: passages found across documents, and the documents picked for a question."""

from __future__ import annotations

from pydantic import Field

from engine.contracts.base import Contract


class CorpusHit(Contract):
    """One passage found by a keyword search across every document of the library."""

    doc_id: str
    file_name: str
    page: int = Field(ge=1)
    chunk_id: str
    score: float
    text: str
    highlight: str | None = None


class DocumentPick(Contract):
    """The documents a question asked of the whole library goes to, and the rule that chose them."""

    doc_ids: tuple[str, ...] = Field(description="Library ids, best match first.")
    reason: str
    hits: tuple[CorpusHit, ...] = Field(default=(), description="The corpus-wide hits the choice was made from.")
