"""Reciprocal-rank fusion: a pure function over ranked lists."""

from __future__ import annotations

from collections.abc import Sequence

from engine.contracts import Chunk, Hit, RankedList


def reciprocal_rank_fusion(
    lists: Sequence[RankedList], k: int = 60, top: int | None = None, query: str = ""
) -> RankedList:
    """Fuse ranked lists: ``score(chunk) = sum(1 / (k + rank))`` over the lists that hold it.

    Chunks are deduplicated by ``chunk_id`` (the chunk object of the first list that holds it is
    kept). Ties are broken by the best rank any list gave the chunk, then by ``chunk_id``, so the
    result is deterministic. A highlight is carried from the first list that had one.

    Args:
        lists: ranked lists, best hit first in each.
        k: the RRF constant (larger flattens the rank differences).
        top: keep only this many fused hits (None keeps all).
        query: the query recorded on the fused list (defaults to the first list's query).

    Returns:
        A ``RankedList`` with ``retriever="fused"`` and ranks 1..n.
    """
    scores: dict[str, float] = {}
    best_rank: dict[str, int] = {}
    chunks: dict[str, Chunk] = {}
    highlights: dict[str, str] = {}
    for ranked in lists:
        for position, hit in enumerate(ranked.hits, start=1):
            cid = hit.chunk.chunk_id
            rank = hit.rank if hit.rank else position
            scores[cid] = scores.get(cid, 0.0) + 1.0 / (k + rank)
            best_rank[cid] = min(best_rank.get(cid, rank), rank)
            chunks.setdefault(cid, hit.chunk)
            if hit.highlight and cid not in highlights:
                highlights[cid] = hit.highlight
    order = sorted(scores, key=lambda cid: (-scores[cid], best_rank[cid], cid))
    if top is not None:
        order = order[: max(0, top)]
    hits = tuple(
        Hit(chunk=chunks[cid], score=scores[cid], retriever="fused", rank=i, highlight=highlights.get(cid))
        for i, cid in enumerate(order, start=1)
    )
    if not query and lists:
        query = lists[0].query
    return RankedList(query=query, retriever="fused", hits=hits)


def fill_pages(ranked: RankedList, k: int, min_pages: int) -> RankedList:
    """The first ``k`` hits, plus the best hit of each further page until ``min_pages`` pages are present.

    Strong hits are never displaced: a page that only ranks lower still gets one place at the end,
    so an answer can weigh evidence from several pages. Pure; ranks are renumbered 1..n.
    """
    top = list(ranked.hits[: max(0, k)])
    pages = {(h.chunk.doc_id, h.chunk.page) for h in top}
    for hit in ranked.hits[len(top) :]:
        if len(pages) >= min_pages:
            break
        page = (hit.chunk.doc_id, hit.chunk.page)
        if page not in pages:
            pages.add(page)
            top.append(hit)
    hits = tuple(hit.model_copy(update={"rank": i}) for i, hit in enumerate(top, start=1))
    return ranked.model_copy(update={"hits": hits})
