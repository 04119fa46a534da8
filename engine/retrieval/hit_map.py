"""Raw index hits -> ``Hit`` objects over a document's current chunks.

An index stays built over the chunks a document was ingested with. After an adaptive re-parse of
some pages (``DocumentIndex.with_document``), the chunks of those pages are new: a hit on a changed
page maps to that page's unused new chunk sharing most query terms. Used by both keyword retrievers
(Whoosh's documents and PostgreSQL's rows keep the ingested chunk ids).
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.contracts import Chunk, Hit, ParsedDocument, RetrieverName

SNIPPET_CHARS = 160


def snippet(text: str, terms: list[str], width: int = SNIPPET_CHARS) -> str:
    """A cheap highlight: the window of ``text`` around the first query term it contains."""
    flat = " ".join(text.split())
    low = flat.lower()
    positions = [p for p in (low.find(t[: max(4, len(t) - 2)]) for t in terms if t) if p >= 0]
    if not positions:
        return flat[:width]
    start = max(0, min(positions) - width // 4)
    return ("…" if start else "") + flat[start : start + width]


HIGHLIGHTED_HITS = 5
"""Hits that carry a highlight (the first ones, which a person reads)."""


class ChunkMap:
    """A document's chunks by id and by page, plus the pages whose chunks changed since indexing."""

    def __init__(self, doc: ParsedDocument, changed: frozenset[int] = frozenset()) -> None:
        self.doc = doc
        self.changed = changed
        self._by_id = {c.chunk_id: c for c in doc.chunks}
        self._by_page: dict[int, list[Chunk]] = {}
        for chunk in doc.chunks:
            self._by_page.setdefault(chunk.page, []).append(chunk)

    def replaced(self, doc: ParsedDocument) -> ChunkMap:
        """The map over ``doc`` (same document, some pages re-parsed), remembering every changed page."""
        fresh = ChunkMap(doc)
        changed = {
            page
            for page, chunks in fresh._by_page.items()
            if [c.text for c in chunks] != [c.text for c in self._by_page.get(page, ())]
        }
        return ChunkMap(doc, self.changed | changed)

    def hits(
        self, found: Iterable[tuple[str, int, float]], terms: list[str], k: int, retriever: RetrieverName
    ) -> tuple[Hit, ...]:
        """The first ``k`` distinct current chunks for ``found`` = (chunk_id, page, score), best first."""
        hits: list[Hit] = []
        used: set[str] = set()
        for chunk_id, page, score in found:
            chunk = None if page in self.changed else self._by_id.get(chunk_id)
            chunk = chunk or self._substitute(page, used, terms)
            if chunk is None or chunk.chunk_id in used:
                continue
            used.add(chunk.chunk_id)
            highlight = snippet(chunk.text, terms) if len(hits) < HIGHLIGHTED_HITS else None
            hits.append(
                Hit(chunk=chunk, score=round(score, 6), retriever=retriever, rank=len(hits) + 1, highlight=highlight)
            )
            if len(hits) >= k:
                break
        return tuple(hits)

    def _substitute(self, page: int, used: set[str], terms: list[str]) -> Chunk | None:
        stems = [t[: max(4, len(t) - 2)] for t in terms]
        best, best_score = None, -1
        for chunk in self._by_page.get(page, ()):
            if chunk.chunk_id in used:
                continue
            low = chunk.text.lower()
            score = sum(1 for s in stems if s in low)
            if score > best_score:
                best, best_score = chunk, score
        return best
