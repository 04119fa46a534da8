"""The keyword-retrieval seam: what ``DocumentIndex`` needs of an exact-term retriever.

Two engines implement it: ``KeywordIndex`` (Whoosh BM25F, one index folder per document: the embedded
default) and ``PgKeywordIndex`` (PostgreSQL full-text search over the shared chunks table: a team
library). Fusion, two-hop, listing and the dispatcher see only ``RankedList``s, so they work unchanged
with either; ``engine`` names the one that ran (the activation column shows it).
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from engine.contracts import ParsedDocument, RankedList


@runtime_checkable
class KeywordRetriever(Protocol):
    """Ranks one document's chunks by the query's exact (stemmed) terms."""

    @property
    def engine(self) -> str:
        """The engine and ranking function, for people ("Whoosh BM25F")."""
        ...

    @property
    def doc(self) -> ParsedDocument:
        """The document whose chunks hits are mapped to."""
        ...

    def search(self, query: str, k: int, pages: frozenset[int] | None = None) -> RankedList:
        """The ``k`` best chunks for ``query`` (only on ``pages`` when given); retriever="keyword"."""
        ...

    def with_document(self, doc: ParsedDocument) -> KeywordRetriever:
        """The same index over ``doc``'s chunks after some pages were re-parsed (same doc_id)."""
        ...

    def close(self) -> None: ...
