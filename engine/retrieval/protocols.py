"""The retrieval seams: what ``DocumentIndex`` needs of an exact-term and of a meaning-based retriever.

Two engines implement it: ``KeywordIndex`` (Whoosh BM25F, one index folder per document: the embedded
default) and ``PgKeywordIndex`` (PostgreSQL full-text search over the shared chunks table: a team
library). Fusion, two-hop, listing and the dispatcher see only ``RankedList``s, so they work unchanged
with either; ``engine`` names the one that ran (the activation column shows it).

Dense retrieval has two engines too: ``LsaRetriever`` (offline, the default) and ``EmbeddingDense``
(vectors from an OpenAI-compatible embeddings endpoint, through an ``Embedder``; LSA again when it fails).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from engine.contracts import ParsedDocument, RankedList

if TYPE_CHECKING:
    import numpy as np

KEYWORD_META_NAME = "loupe-index.json"
"""The file a keyword index folder writes last (its format and the chunks it holds): the folder is a whole index
once it is there. Named here, where the library can read it without loading whoosh."""


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


LSA_ENGINE = "LSA"
"""The offline dense engine (TF-IDF + truncated SVD of the document's own chunks): the default."""


@runtime_checkable
class DenseRetriever(Protocol):
    """Ranks a document's chunks for a query by meaning rather than exact words (retriever="dense")."""

    @property
    def engine(self) -> str:
        """The engine that ranks, for people ("LSA", "embeddings: MODEL")."""
        ...

    def search(self, query: str, k: int, pages: frozenset[int] | None = None) -> RankedList: ...


class EmbeddingError(Exception):
    """The embeddings endpoint gave no usable vectors; ``reason`` is one key-free line, safe to record."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into vectors (an OpenAI-compatible ``/v1/embeddings`` endpoint: ``engine.llm.embeddings``)."""

    @property
    def model(self) -> str:
        """The model the vectors come from (part of the cache key of a document's vectors)."""
        ...

    def embed(self, texts: Sequence[str], deadline: float | None = None) -> np.ndarray:
        """One float32 row per text, in order, all of one width.

        Raises:
            EmbeddingError: the endpoint failed, timed out (``deadline`` is a ``time.monotonic()`` value), or
                answered with the wrong number or width of vectors.
        """
        ...
