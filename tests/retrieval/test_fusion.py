from __future__ import annotations

import pytest

from engine.contracts import Hit, RankedList
from engine.retrieval.fusion import fill_pages, reciprocal_rank_fusion

from .factories import chunk

A, B, C, D = (chunk(1, i, f"text {i}") for i in range(4))


def ranked(retriever, chunks, highlights=None):
    highlights = highlights or {}
    hits = tuple(
        Hit(chunk=c, score=1.0 / r, retriever=retriever, rank=r, highlight=highlights.get(c.chunk_id))
        for r, c in enumerate(chunks, start=1)
    )
    return RankedList(query="q", retriever=retriever, hits=hits)


def test_scores_are_sums_of_reciprocal_ranks():
    fused = reciprocal_rank_fusion([ranked("keyword", [A, B, C]), ranked("toc", [B, D])], k=60)
    scores = {h.chunk.chunk_id: h.score for h in fused.hits}
    assert scores[B.chunk_id] == pytest.approx(1 / 62 + 1 / 61)
    assert scores[A.chunk_id] == pytest.approx(1 / 61)
    assert scores[C.chunk_id] == pytest.approx(1 / 63)
    assert scores[D.chunk_id] == pytest.approx(1 / 62)
    assert [h.chunk.chunk_id for h in fused.hits] == [B.chunk_id, A.chunk_id, D.chunk_id, C.chunk_id]
    assert [h.rank for h in fused.hits] == [1, 2, 3, 4]
    assert fused.retriever == "fused" and all(h.retriever == "fused" for h in fused.hits)


def test_ties_break_by_best_rank_then_chunk_id():
    # A and D both score 1/61 + 1/63 (ranks 1 and 3); best rank equal -> chunk id order
    fused = reciprocal_rank_fusion([ranked("keyword", [D, B, A]), ranked("dense", [A, C, D])], k=60)
    ids = [h.chunk.chunk_id for h in fused.hits]
    assert ids[:2] == sorted([A.chunk_id, D.chunk_id])
    # B (rank 2 once) and C (rank 2 once) tie on score and on best rank -> chunk id order
    assert ids[2:] == sorted([B.chunk_id, C.chunk_id])


def test_top_and_dedup_and_query():
    fused = reciprocal_rank_fusion([ranked("keyword", [A, B]), ranked("toc", [A, B])], top=1, query="my q")
    assert len(fused.hits) == 1 and fused.hits[0].chunk == A and fused.query == "my q"
    assert reciprocal_rank_fusion([ranked("keyword", [A])]).query == "q"


def test_highlight_comes_from_first_list_that_has_one():
    first = ranked("toc", [A])
    second = ranked("keyword", [A, B], {A.chunk_id: "hl-keyword", B.chunk_id: "hl-b"})
    third = ranked("dense", [A], {A.chunk_id: "hl-dense"})
    fused = reciprocal_rank_fusion([first, second, third])
    assert fused.hits[0].highlight == "hl-keyword"
    assert fused.hits[1].highlight == "hl-b"


def test_empty_input_and_k_constant():
    assert reciprocal_rank_fusion([]).hits == ()
    fused = reciprocal_rank_fusion([ranked("keyword", [A])], k=1)
    assert fused.hits[0].score == pytest.approx(0.5)


def test_pure_inputs_unchanged():
    lists = [ranked("keyword", [A, B]), ranked("toc", [B])]
    before = [rl.model_dump() for rl in lists]
    reciprocal_rank_fusion(lists)
    assert [rl.model_dump() for rl in lists] == before


def test_fill_pages_keeps_the_top_k_and_appends_one_hit_per_further_page():
    p1a, p1b, p1c = (chunk(1, i, f"one {i}") for i in range(3))
    p2, p3a, p3b, p4 = chunk(2, 0, "two"), chunk(3, 0, "three"), chunk(3, 1, "three b"), chunk(4, 0, "four")
    fused = reciprocal_rank_fusion([ranked("keyword", [p1a, p1b, p1c, p2, p3a, p3b, p4])], k=60)
    filled = fill_pages(fused, k=3, min_pages=3)
    assert [h.chunk.chunk_id for h in filled.hits] == [
        p1a.chunk_id,
        p1b.chunk_id,
        p1c.chunk_id,
        p2.chunk_id,
        p3a.chunk_id,
    ]
    assert [h.rank for h in filled.hits] == [1, 2, 3, 4, 5]
    assert fill_pages(fused, k=3, min_pages=1).hits == fused.hits[:3], "enough pages: nothing appended"
    assert len({h.chunk.page for h in fill_pages(fused, k=2, min_pages=10).hits}) == 4, "only pages that exist"
    assert fill_pages(fused, k=0, min_pages=0).hits == ()
