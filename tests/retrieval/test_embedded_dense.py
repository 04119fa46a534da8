"""Dense retrieval on an embedder's vectors: ranking, batches, the per-document cache, and the LSA standing in."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest

from engine.config import RetrievalConfig
from engine.contracts import ParsedDocument
from engine.retrieval import embedded_dense
from engine.retrieval.cache import RetrievalCache
from engine.retrieval.dense import LsaRetriever
from engine.retrieval.embedded_dense import EMBEDDINGS_NAME, ChunkVectors, EmbeddingDense, with_embeddings
from engine.retrieval.index import DenseSlot, DocumentIndex
from engine.retrieval.keyword import KeywordIndex
from engine.retrieval.protocols import DenseRetriever, Embedder, EmbeddingError

from .factories import document
from .test_index import profile_of

CFG = RetrievalConfig(top_k=4, per_retriever_k=10, dense_dimensions=8)
QUERY = "which chunk talks about wheels and cars"
TARGET = "the ledger of the bakery"
"""The chunk the fake endpoint puts next to the query, though it shares no word with it."""


class FakeEmbedder:
    """Vectors by rule: the query and TARGET point one way, chunks about cars another, the rest a third."""

    def __init__(self, model: str = "fake-a", fail_after: int | None = None, width: int = 3) -> None:
        self.model = model
        self.calls: list[list[str]] = []
        self.fail_after = fail_after
        self.width = width

    def vector(self, text: str) -> list[float]:
        if text.endswith(TARGET) or text == QUERY:
            base = [0.0, 0.0, 1.0]
        elif "car" in text:
            base = [1.0, 0.0, 0.1]
        else:
            base = [0.0, 1.0, 0.0]
        return (base + [0.0] * self.width)[: self.width]

    def embed(self, texts: Sequence[str], deadline: float | None = None) -> np.ndarray:
        if self.fail_after is not None and len(self.calls) >= self.fail_after:
            raise EmbeddingError("embeddings endpoint: the endpoint answered HTTP 500")
        self.calls.append(list(texts))
        return np.array([self.vector(t) for t in texts], dtype=np.float32)

    def chunk_calls(self) -> list[list[str]]:
        return [c for c in self.calls if c != [QUERY]]


def doc(extra: str = "") -> ParsedDocument:
    return document(
        [
            ["the car has four wheels", "cars and wheels on the road", "a red car with new wheels"],
            ["bread from the oven", TARGET + extra, "flour and yeast"],
            ["the car engine", "wheels of a car", "tyres for cars"],
        ]
    )


@pytest.fixture(autouse=True)
def fresh_memory() -> Iterator[None]:
    embedded_dense._MEMORY.clear()
    yield
    embedded_dense._MEMORY.clear()


def dense_over(
    parsed: ParsedDocument, embedder: FakeEmbedder, folder: Path | None, batch: int = 4, build_seconds: float = 60.0
) -> EmbeddingDense:
    lsa = DenseSlot(lambda: LsaRetriever.build(parsed, CFG))
    return EmbeddingDense(parsed, embedder, lsa, folder, batch, build_seconds, 5.0)


def test_the_endpoints_vectors_decide_the_ranking(tmp_path: Path) -> None:
    parsed, embedder = doc(), FakeEmbedder()
    assert isinstance(embedder, Embedder)
    dense = dense_over(parsed, embedder, tmp_path)
    assert isinstance(dense, DenseRetriever) and dense.engine == "embeddings: fake-a"
    ranked = dense.search(QUERY, 3)
    assert ranked.retriever == "dense"
    assert ranked.hits[0].chunk.text == TARGET  # no shared word: only the vectors put it first
    assert ranked.hits[0].score == pytest.approx(1.0)
    assert LsaRetriever.build(parsed, CFG).search(QUERY, 3).hits[0].chunk.text != TARGET
    assert [h.rank for h in ranked.hits] == [1, 2, 3]
    assert dense.search(QUERY, 3, pages=frozenset({3})).hits[0].chunk.page == 3
    assert dense.failure is None


def test_chunks_are_embedded_in_bounded_batches_and_saved_next_to_the_entry(tmp_path: Path) -> None:
    embedder = FakeEmbedder()
    dense_over(doc(), embedder, tmp_path, batch=4).search(QUERY, 3)
    assert [len(c) for c in embedder.chunk_calls()] == [4, 4, 1]
    assert embedder.calls[-1] == [QUERY]
    assert (tmp_path / EMBEDDINGS_NAME).is_file()


def test_a_second_load_makes_no_chunk_requests(tmp_path: Path) -> None:
    dense_over(doc(), FakeEmbedder(), tmp_path).search(QUERY, 3)
    embedded_dense._MEMORY.clear()  # a new process: only the file is left
    again = FakeEmbedder()
    assert dense_over(doc(), again, tmp_path).search(QUERY, 3).hits[0].chunk.text == TARGET
    assert again.calls == [[QUERY]]


def test_another_model_or_parse_rebuilds(tmp_path: Path) -> None:
    dense_over(doc(), FakeEmbedder("fake-a"), tmp_path).search(QUERY, 3)
    other_model = FakeEmbedder("fake-b")
    dense_over(doc(), other_model, tmp_path).search(QUERY, 3)
    assert len(other_model.chunk_calls()) == 3
    saved = ChunkVectors.load(tmp_path / EMBEDDINGS_NAME, "fake-b", embedded_dense.parse_digest(doc()))
    assert saved is not None and len(saved.rows) == 9
    reparsed = FakeEmbedder("fake-b")
    dense_over(doc(" (revised)"), reparsed, tmp_path).search(QUERY, 3)
    assert len(reparsed.chunk_calls()) == 3


def test_a_failing_endpoint_hands_the_run_to_the_lsa(tmp_path: Path) -> None:
    parsed, embedder = doc(), FakeEmbedder(fail_after=0)
    dense = dense_over(parsed, embedder, tmp_path)
    ranked = dense.search(QUERY, 3)
    assert ranked == LsaRetriever.build(parsed, CFG).search(QUERY, 3)
    assert dense.failure == "embeddings endpoint: the endpoint answered HTTP 500"
    assert dense.engine == "LSA"
    dense.search("another query", 3)
    assert embedder.calls == []  # the rest of the run stays on the LSA
    assert dense_over(parsed, FakeEmbedder(), tmp_path).search(QUERY, 3).hits[0].chunk.text == TARGET  # next run


def test_a_build_cut_short_keeps_its_batches_and_the_next_run_goes_on(tmp_path: Path) -> None:
    first = FakeEmbedder(fail_after=1)
    dense = dense_over(doc(), first, tmp_path, batch=4)
    dense.search(QUERY, 3)
    assert dense.failure is not None and len(first.calls) == 1
    embedded_dense._MEMORY.clear()
    second = FakeEmbedder()
    dense_over(doc(), second, tmp_path, batch=4).search(QUERY, 3)
    assert [len(c) for c in second.chunk_calls()] == [4, 1]  # the first 4 chunks were kept


def test_the_build_stops_at_its_time_cap(tmp_path: Path) -> None:
    dense = dense_over(doc(), FakeEmbedder(), tmp_path, build_seconds=1e-9)
    dense.search(QUERY, 3)
    assert dense.failure is not None and "longer than" in dense.failure


def test_a_query_vector_of_another_width_falls_back_and_forgets_the_vectors(tmp_path: Path) -> None:
    dense_over(doc(), FakeEmbedder(), tmp_path).search(QUERY, 3)

    class Wider(FakeEmbedder):
        def embed(self, texts: Sequence[str], deadline: float | None = None) -> np.ndarray:
            self.calls.append(list(texts))
            return np.ones((len(texts), 5), dtype=np.float32)

    dense = dense_over(doc(), Wider(), tmp_path)
    dense.search(QUERY, 3)
    assert dense.failure is not None and "5 dimensions" in dense.failure
    assert not (tmp_path / EMBEDDINGS_NAME).exists()


def test_the_retrieval_cache_never_keeps_a_fallback_under_the_embeddings_engine(tmp_path: Path) -> None:
    parsed = doc()
    cache = RetrievalCache(64)
    base = DocumentIndex(parsed, profile_of(parsed), KeywordIndex.build(parsed, tmp_path / "ix", CFG), CFG, cache)
    failing, dense = with_embeddings(base, FakeEmbedder(fail_after=0), tmp_path, 4, 60.0, 5.0)
    assert failing.dense_engine == "embeddings: fake-a"
    assert failing.search(QUERY, "dense", k=3).hits[0].chunk.text != TARGET
    assert dense.failure is not None and failing.dense_engine == "LSA"
    healthy, _ = with_embeddings(base, FakeEmbedder(), tmp_path, 4, 60.0, 5.0)
    fresh = healthy.search(QUERY, "dense", k=3)
    assert not fresh.from_cache and fresh.hits[0].chunk.text == TARGET
    assert healthy.search(QUERY, "dense", k=3).from_cache
    assert base.search(QUERY, "dense", k=3).hits[0].chunk.text != TARGET  # the LSA's own entry is separate
    fused = healthy.search(QUERY, "fused", k=3, use_dense=True)
    assert TARGET in [h.chunk.text for h in fused.hits]


def test_a_document_without_a_folder_keeps_its_vectors_in_memory() -> None:
    dense_over(doc(), FakeEmbedder(), None).search(QUERY, 3)
    again = FakeEmbedder()
    dense_over(doc(), again, None).search(QUERY, 3)
    assert again.calls == [[QUERY]]
