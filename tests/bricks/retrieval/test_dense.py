from __future__ import annotations

import time

import numpy as np
import pytest

from engine.bricks.retrieval.dense import DenseRetriever, LsaRetriever, _Csr, _randomized_svd
from engine.config import RetrievalConfig

from .factories import document, paper

CFG = RetrievalConfig(dense_dimensions=16)


def corpus():
    cars = [
        "the car engine and the wheels",
        "a vehicle engine with four wheels",
        "car wheels and tyres",
        "the automobile vehicle drives on the road",
    ]
    food = [
        "bake bread with flour and yeast",
        "the oven bakes the bread",
        "flour sugar and butter for cake",
        "the cake and the bread from the bakery",
    ]
    return document([cars, food])


def test_is_a_dense_retriever_and_finds_related_chunks():
    lsa = LsaRetriever.build(corpus(), CFG)
    assert isinstance(lsa, DenseRetriever)
    ranked = lsa.search("automobile vehicle", 3)
    assert ranked.retriever == "dense" and ranked.hits
    assert all(h.chunk.page == 1 for h in ranked.hits)  # the car topic, not the bakery
    assert [h.rank for h in ranked.hits] == list(range(1, len(ranked.hits) + 1))
    assert all(a.score >= b.score for a, b in zip(ranked.hits, ranked.hits[1:], strict=False))
    assert lsa.search("oven yeast", 2).hits[0].chunk.page == 2


def test_vocabulary_mismatch_is_bridged():
    lsa = LsaRetriever.build(corpus(), CFG)
    # "automobile" only co-occurs with "vehicle"; LSA still ranks car chunks that never say it
    top = [h.chunk.text for h in lsa.search("automobile", 4).hits]
    assert any("automobile" not in t for t in top)
    assert all("bread" not in t and "cake" not in t for t in top[:2])


def test_unknown_words_empty_and_page_filter_and_k():
    lsa = LsaRetriever.build(corpus(), CFG)
    assert lsa.search("zebra", 5).hits == ()
    assert lsa.search("", 5).hits == ()
    assert lsa.search("car", 0).hits == ()
    assert {h.chunk.page for h in lsa.search("car bread", 8, frozenset({2})).hits} == {2}
    assert len(lsa.search("car bread", 2).hits) <= 2


def test_deterministic():
    a = LsaRetriever.build(paper(), CFG).search("regularization dropout", 5)
    b = LsaRetriever.build(paper(), CFG).search("regularization dropout", 5)
    assert a == b and a.hits


def test_tiny_documents_do_not_crash():
    one = document([["just one chunk about cars"]])
    assert LsaRetriever.build(one, CFG).search("cars", 3).hits[0].chunk.text.startswith("just")
    assert LsaRetriever.build(document([[]]), CFG).search("cars", 3).hits == ()


def test_randomized_svd_matches_exact_singular_values():
    rng = np.random.default_rng(1)
    dense = (rng.random((300, 200)) < 0.05) * rng.random((300, 200))
    dense[:, :5] += np.outer(rng.random(300), rng.random(5)) * 3  # a strong low-rank part
    rows, cols = np.nonzero(dense)
    matrix = _Csr(rows, cols, dense[rows, cols].astype(np.float32), dense.shape)
    assert np.allclose(matrix.todense(), dense, atol=1e-6)
    assert np.allclose(matrix.dot(np.eye(200, dtype=np.float32)), dense, atol=1e-5)
    _, s, _ = _randomized_svd(matrix, 5)
    exact = np.linalg.svd(dense, compute_uv=False)[:5]
    assert abs(s[0] - exact[0]) / exact[0] < 0.01


@pytest.mark.perf
def test_large_build_is_fast():
    rng = np.random.default_rng(0)
    words = [f"w{i}" for i in range(3000)]
    pages = [[" ".join(rng.choice(words, 40)) for _ in range(12)] for _ in range(400)]  # 4800 chunks
    doc = document(pages)
    t0 = time.perf_counter()
    lsa = LsaRetriever.build(doc, RetrievalConfig())
    assert time.perf_counter() - t0 < 10.0
    t0 = time.perf_counter()
    for _ in range(10):
        lsa.search("w1 w2 w3", 20)
    assert (time.perf_counter() - t0) / 10 < 0.05
