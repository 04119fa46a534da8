"""Keyword retrieval through PostgreSQL full-text search, over the chunks table a team library shares.

Each chunk row carries ``tsv``: the section titles and bold run-in terms weighted ``A``, the body
weighted ``D`` (``TS_CONFIG`` stems and drops stop words), with a GIN index. Each content word of the
query is parsed by ``websearch_to_tsquery`` into a term (stop words drop out); a chunk matching any
term is a candidate (an AND of every word would match almost nothing, as with Whoosh's OrGroup).

A candidate's score sums, over the terms it holds, ``ts_rank_cd`` of that term (headings weigh
``RetrievalConfig.heading_boost`` times the body; normalised by the chunk's length) times the term's
inverse document frequency among the chunks searched: ``ln(1 + (N - df + 0.5) / (df + 0.5))``, the
IDF of BM25. ``ts_rank_cd`` alone has no IDF, so "company" would count as much as "goodwill"; with
it, keyword recall@8 of the gold pages rose from 0.57 to 0.62 (financebench) and 0.59 to 0.63
(mmlongbench), against Whoosh BM25F's 0.65. The remaining difference is the ranking function: term
frequency saturates in BM25 and not in ``ts_rank_cd``.
"""

from __future__ import annotations

import logging
from contextlib import AbstractContextManager
from typing import Any, Protocol

from engine.config import RetrievalConfig
from engine.contracts import Chunk, CorpusHit, ParsedDocument, RankedList
from engine.documents.text import content_words, tokenize
from engine.retrieval.hit_map import ChunkMap, snippet

log = logging.getLogger(__name__)

TS_CONFIG = "english"
"""The text search configuration of the chunks' ``tsv`` column and of every query (they must match)."""
ENGINE_NAME = "PostgreSQL full-text search, ts_rank_cd"
RANK_NORMALIZATION = 1
"""``ts_rank_cd`` normalization: 1 divides by 1 + log(chunk length), so long chunks do not win by size."""
_WEBSEARCH_OPERATORS = frozenset({"or"})
"""Words websearch_to_tsquery reads as operators; dropped from the words of a query."""


class Connections(Protocol):
    """Where connections come from (``engine.library.postgres.PgDatabase``): a pooled one per block."""

    def connection(self) -> AbstractContextManager[Any]: ...


def websearch_text(query: str) -> str:
    """The query's content words joined by ``or``: plain words only, so no syntax of the user's reaches the parser."""
    words = content_words(query) or tokenize(query)
    kept = ("".join(ch for ch in w if ch.isalnum() or ch == ".").strip(".") for w in words)
    return " or ".join(w for w in kept if w and w not in _WEBSEARCH_OPERATORS)


def section_text(chunk: Chunk) -> str:
    """What the heading-weighted part of a chunk's vector is made of: its section titles and bold terms."""
    return " ".join((*chunk.section_path, *chunk.bold_terms))


def _weights(config: RetrievalConfig) -> list[float]:
    body = 1.0 / config.heading_boost
    return [body, body, body, 1.0]  # {D, C, B, A}: body text D, headings A


_TERMS = f"""terms AS (
    SELECT DISTINCT websearch_to_tsquery('{TS_CONFIG}', word) AS tq FROM unnest(%(words)s::text[]) AS word
    WHERE numnode(websearch_to_tsquery('{TS_CONFIG}', word)) > 0
)"""
_SCORE = f"sum(w.idf * ts_rank_cd(%(weights)s::float4[], c.tsv, w.tq, {RANK_NORMALIZATION}))"


def _weighted(scope: str) -> str:
    """The terms with their IDF among the chunks ``scope`` selects (a WHERE condition on ``c``)."""
    return f"""size AS (SELECT count(*)::float8 AS n FROM loupe_chunks AS c WHERE {scope}),
weighted AS (
    SELECT t.tq, ln(1 + (greatest(size.n, f.df) - f.df + 0.5) / (f.df + 0.5)) AS idf
    FROM terms AS t, size, LATERAL (SELECT count(*)::float8 AS df FROM loupe_chunks AS c WHERE {scope} AND c.tsv @@ t.tq) AS f
)"""


_SEARCH = f"""
WITH {_TERMS}, {_weighted("c.doc_id = %(doc_id)s")}
SELECT c.chunk_id, c.page, {_SCORE} AS score
FROM loupe_chunks AS c JOIN weighted AS w ON c.tsv @@ w.tq
WHERE c.doc_id = %(doc_id)s AND (%(pages)s::int[] IS NULL OR c.page = ANY(%(pages)s::int[]))
GROUP BY c.position, c.chunk_id, c.page
ORDER BY score DESC, c.position
LIMIT %(limit)s
"""


class PgKeywordIndex:
    """Full-text search over one document's rows of ``loupe_chunks`` (the same seam as Whoosh's index)."""

    engine = ENGINE_NAME

    def __init__(self, connections: Connections, doc: ParsedDocument, config: RetrievalConfig) -> None:
        self._connections = connections
        self._config = config
        self._map = ChunkMap(doc)

    @property
    def doc(self) -> ParsedDocument:
        return self._map.doc

    def with_document(self, doc: ParsedDocument) -> PgKeywordIndex:
        clone = PgKeywordIndex(self._connections, doc, self._config)
        clone._map = self._map.replaced(doc)
        return clone

    def close(self) -> None:
        """Nothing to release: connections belong to the pool."""

    def search(self, query: str, k: int, pages: frozenset[int] | None = None) -> RankedList:
        """The ``k`` best chunks for ``query`` (optionally only on ``pages``); retriever="keyword"."""
        text = websearch_text(query)
        if not text or k <= 0 or (pages is not None and not pages):
            return RankedList(query=query, retriever="keyword")
        limit = k * 2 if self._map.changed else k
        params = {"weights": _weights(self._config), "words": text.split(" or "), "doc_id": self.doc.doc_id,
                  "pages": sorted(pages) if pages else None, "limit": limit}  # fmt: skip
        with self._connections.connection() as conn:
            rows = conn.execute(_SEARCH, params).fetchall()
        found = [(str(chunk_id), int(page), float(score)) for chunk_id, page, score in rows]
        return RankedList(
            query=query, retriever="keyword", hits=self._map.hits(found, text.split(" or "), k, "keyword")
        )


_CORPUS_SEARCH = f"""
WITH {_TERMS}, {_weighted("true")}, best AS (
    SELECT c.doc_id, c.position, {_SCORE} AS score
    FROM loupe_chunks AS c JOIN weighted AS w ON c.tsv @@ w.tq
    GROUP BY c.doc_id, c.position
    ORDER BY score DESC, c.doc_id, c.position
    LIMIT %(limit)s
)
SELECT c.doc_id, d.file_name, c.page, c.chunk_id, c.body, best.score
FROM best JOIN loupe_chunks AS c USING (doc_id, position) JOIN loupe_documents AS d USING (doc_id)
ORDER BY best.score DESC, c.doc_id, c.position
"""


def corpus_search(connections: Connections, query: str, k: int, config: RetrievalConfig) -> list[CorpusHit]:
    """The ``k`` best chunks of the whole library for ``query``, best first (one query, one GIN index scan)."""
    text = websearch_text(query)
    if not text or k <= 0:
        return []
    with connections.connection() as conn:
        params = {"weights": _weights(config), "words": text.split(" or "), "limit": k}
        rows = conn.execute(_CORPUS_SEARCH, params).fetchall()
    terms = text.split(" or ")
    return [
        CorpusHit(doc_id=doc_id, file_name=file_name, page=page, chunk_id=chunk_id, score=round(float(score), 6),
                  text=body, highlight=snippet(body, terms))
        for doc_id, file_name, page, chunk_id, body, score in rows
    ]  # fmt: skip
