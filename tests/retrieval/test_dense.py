from __future__ import annotations

import numpy as np
import pytest

from engine.config import RetrievalConfig
from engine.retrieval.dense import DenseRetriever, LsaRetriever, _Csr, _randomized_svd

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


def test_save_and_load_give_the_same_results(tmp_path):
    doc = paper()
    built = LsaRetriever.build(doc, CFG)
    built.save(tmp_path / "dense.npz", CFG.dense_dimensions)
    loaded = LsaRetriever.load(tmp_path / "dense.npz", doc, CFG.dense_dimensions)
    for query in ("attention heads", "label smoothing regularization", "training schedule"):
        assert loaded.search(query, 5) == built.search(query, 5)
    assert not list(tmp_path.glob(".*.tmp")), "the temporary file was left behind"


def test_load_refuses_another_setting_another_parse_or_damage(tmp_path):
    doc = paper()
    path = tmp_path / "dense.npz"
    LsaRetriever.build(doc, CFG).save(path, CFG.dense_dimensions)
    with pytest.raises(ValueError):
        LsaRetriever.load(path, doc, CFG.dense_dimensions + 1)
    other = doc.model_copy(update={"chunks": doc.chunks[:-1]})
    with pytest.raises(ValueError):
        LsaRetriever.load(path, other, CFG.dense_dimensions)
    path.write_bytes(path.read_bytes()[:100])
    with pytest.raises(ValueError):
        LsaRetriever.load(path, doc, CFG.dense_dimensions)


def test_blas_is_pinned_to_one_thread_once_the_lsa_runs_in_any_thread():
    import threading

    from threadpoolctl import threadpool_info

    def blas_threads() -> set[int]:  # numpy's own BLAS (another library may load its own copy)
        return {p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas" and "numpy" in p["filepath"]}

    worker = threading.Thread(target=lambda: LsaRetriever.build(paper(), CFG).search("attention heads", 3))
    worker.start()
    worker.join()
    assert blas_threads() == {1}
    LsaRetriever.build(paper(), CFG)
    assert blas_threads() == {1}
