from __future__ import annotations

import threading

import pytest

from engine.config import RetrievalConfig
from engine.contracts import DocumentProfile
from engine.retrieval.cache import RetrievalCache
from engine.retrieval.index import DocumentIndex
from engine.retrieval.keyword import KeywordIndex

from .factories import chunk, document, paper

CFG = RetrievalConfig(top_k=4, per_retriever_k=10)


def profile_of(doc):
    return DocumentProfile(
        doc_id=doc.doc_id,
        file_name=doc.file_name,
        total_pages=doc.total_pages,
        has_usable_toc=bool(doc.toc),
        toc_entries=len(doc.toc),
        is_likely_scanned=False,
        has_tables=False,
        text_pages=doc.total_pages,
        suggested_strategy="dispatched",
    )


@pytest.fixture
def index(tmp_path):
    doc = paper()
    return DocumentIndex(doc, profile_of(doc), KeywordIndex.build(doc, tmp_path / "ix", CFG), CFG, RetrievalCache(64))


def test_fused_default_k_and_retriever(index):
    ranked = index.search("label smoothing")
    assert ranked.retriever == "fused" and 0 < len(ranked.hits) <= CFG.top_k
    assert ranked.hits[0].chunk.page == 3
    assert not ranked.from_cache


@pytest.mark.parametrize("retriever", ["keyword", "toc", "dense", "fused"])
def test_each_retriever(index, retriever):
    ranked = index.search("regularization dropout", retriever, k=3, section_hint="5.4")
    assert ranked.retriever == retriever and 0 < len(ranked.hits) <= 3


def test_unknown_retriever_raises(index):
    with pytest.raises(ValueError):
        index.search("x", "bogus")  # type: ignore[arg-type]


def test_cache_hit_marks_from_cache_and_normalises(index):
    first = index.search("Label Smoothing", k=3)
    again = index.search("  label   SMOOTHING ", k=3)
    assert again.from_cache and again.hits == first.hits
    assert not index.search("label smoothing", k=3, section_hint="5.4").from_cache
    assert not index.search("label smoothing", k=3, use_dense=True).from_cache
    assert not index.search("label smoothing", k=3, pages=frozenset({3})).from_cache


def test_toc_joins_fusion_only_when_relevant(index):
    assert index.uses_toc("the regularization used", None)
    assert index.uses_toc("zebra", "5.4")
    assert not index.uses_toc("zebra", None)
    hinted = index.search("zebra unicorn", k=4, section_hint="5.4")
    assert hinted.hits and hinted.hits[0].chunk.text == "5.4 Regularization"
    assert index.search("zebra unicorn", k=4).hits == ()


def test_dense_only_with_use_dense(tmp_path):
    cars = ["the car engine and the wheels", "a vehicle engine with four wheels", "automobile vehicle on road"]
    doc = document([cars, ["bake bread with flour", "the oven bakes bread"]])
    idx = DocumentIndex(doc, profile_of(doc), KeywordIndex.build(doc, tmp_path / "i", CFG), CFG, RetrievalCache(0))
    without = {h.chunk.chunk_id for h in idx.search("automobile", k=4).hits}
    with_dense = {h.chunk.chunk_id for h in idx.search("automobile", k=4, use_dense=True).hits}
    assert len(with_dense) > len(without)


def test_pages_filter_applies_to_all_retrievers(index):
    for retriever in ("keyword", "toc", "dense", "fused"):
        ranked = index.search(
            "regularization dropout smoothing", retriever, k=5, pages=frozenset({3}), section_hint="5.4", use_dense=True
        )
        assert ranked.hits and {h.chunk.page for h in ranked.hits} == {3}, retriever
        assert [h.rank for h in ranked.hits] == list(range(1, len(ranked.hits) + 1))


def test_lookups(index):
    doc = index.doc
    assert index.chunk(doc.chunks[0].chunk_id) == doc.chunks[0]
    assert index.chunk("nope") is None
    on = index.chunks_on_pages([4, 2])
    assert [c.page for c in on] == sorted(c.page for c in on) and {c.page for c in on} == {2, 4}
    assert index.chunks_on_pages([]) == ()


def test_with_document_replaces_chunks_and_never_serves_stale_cache(index):
    before = index.search("label smoothing", "keyword", k=3)
    kept = [c for c in index.doc.chunks if c.page != 3]
    new3 = [chunk(3, 0, "Label smoothing | 0.1 | table row"), chunk(3, 1, "Residual dropout | 0.1")]
    new_doc = index.doc.model_copy(update={"chunks": tuple(kept + new3), "parse_method": "adaptive"})
    new_index = index.with_document(new_doc)
    assert new_index is not index and new_index.keyword is not index.keyword
    after = new_index.search("label smoothing", "keyword", k=3)
    assert not after.from_cache
    assert after.hits[0].chunk.text.startswith("Label smoothing |")
    assert before.hits[0].chunk.text.startswith("Label Smoothing During")  # the old index is untouched
    assert new_index.chunks_on_pages([3]) == tuple(new3)
    assert index.search("label smoothing", "keyword", k=3).from_cache


def test_dense_built_lazily_once_across_threads(index):
    assert not index.dense_slot.ready
    seen = []
    threads = [threading.Thread(target=lambda: seen.append(id(index.dense))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(set(seen)) == 1


def test_concurrent_searches(index):
    errors = []

    def work(q):
        try:
            for _ in range(20):
                assert index.search(q, "keyword", k=3).hits
        except Exception as exc:  # pragma: no cover
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(q,)) for q in ("label", "dropout", "table", "attention")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


def test_shared_cache_default(tmp_path):
    doc = paper()
    a = DocumentIndex(doc, profile_of(doc), KeywordIndex.build(doc, tmp_path / "a", CFG), CFG)
    b = DocumentIndex(doc, profile_of(doc), KeywordIndex.build(doc, tmp_path / "b", CFG), CFG)
    assert a.retrieval_cache is b.retrieval_cache
    a.retrieval_cache.invalidate(doc.doc_id)
    a.search("attention heads")
    assert b.search("attention heads").from_cache
    a.retrieval_cache.invalidate(doc.doc_id)
    assert not b.search("attention heads").from_cache
