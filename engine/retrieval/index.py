"""DocumentIndex: every retriever of one document behind one ``search`` call, with a cache."""

from __future__ import annotations

import hashlib
import logging
import threading
from collections.abc import Callable, Iterable
from typing import Literal, TypeVar

from engine.config import RetrievalConfig
from engine.contracts import Chunk, DocumentProfile, ParsedDocument, RankedList
from engine.retrieval.cache import RetrievalCache, make_key, shared_cache
from engine.retrieval.dense import LsaRetriever
from engine.retrieval.fusion import fill_pages, reciprocal_rank_fusion
from engine.retrieval.protocols import LSA_ENGINE, DenseRetriever, KeywordRetriever
from engine.retrieval.toc import has_strong_title_match, toc_search

log = logging.getLogger(__name__)

RetrieverChoice = Literal["keyword", "toc", "dense", "fused"]
T = TypeVar("T")


class DocumentMemo:
    """Values derived from one document's chunks (its table cells, its fiscal calendar), each computed once
    and kept as long as the loaded document: every view of the document shares it, and it goes when the
    document is dropped from the library's cache or deleted. Keys are a fixed set of names (one per kind
    of derived value), so it stays small; a lock makes each value computed once under concurrent runs."""

    def __init__(self) -> None:
        self._values: dict[str, object] = {}
        self._lock = threading.Lock()
        self._making: dict[str, threading.Lock] = {}

    def get(self, key: str, make: Callable[[], T]) -> T:
        """The value kept under ``key``, made by ``make`` the first time it is asked for. One lock per key
        while it is made: an asker of another key (or of none being made) does not wait for it."""
        with self._lock:
            if key in self._values:
                return self._values[key]  # type: ignore[return-value]
            making = self._making.setdefault(key, threading.Lock())
        with making:
            with self._lock:
                if key in self._values:  # made meanwhile by the asker that held the key's lock
                    return self._values[key]  # type: ignore[return-value]
            value = make()
            with self._lock:
                self._values[key] = value
                self._making.pop(key, None)
            return value


MemoWarmer = Callable[[ParsedDocument, DocumentMemo], None]
_WARMERS: list[MemoWarmer] = []


def warm_on_load(warmer: MemoWarmer) -> MemoWarmer:
    """Register ``warmer``, which fills a document's memo with a value derived from the document alone (the
    layers above the library register theirs: the library cannot name them)."""
    if warmer not in _WARMERS:
        _WARMERS.append(warmer)
    return warmer


def start_warming(doc: ParsedDocument, memo: DocumentMemo) -> None:
    """Fill ``memo`` by the registered warmers in a background thread. A question that loads a document whose
    keyword index is still being built waits for it; meanwhile this thread derives what the question will
    read (a value question reads every table cell of the document), so it is ready, or under way, when the
    question gets to it. A warmer that fails leaves its value to be made when asked for."""
    if not _WARMERS:
        return

    def run() -> None:
        for warmer in list(_WARMERS):
            try:
                warmer(doc, memo)
            except Exception:
                log.debug("warming the memo of %s failed", doc.doc_id[:16], exc_info=True)

    threading.Thread(target=run, name="loupe-memo-warm", daemon=True).start()


class DenseSlot:
    """A document's dense retriever, made on first use by ``make`` (built, or loaded from disk), once."""

    def __init__(self, make: Callable[[], DenseRetriever], engine: str = LSA_ENGINE) -> None:
        self._make = make
        self._engine = engine
        self._lock = threading.Lock()
        self._value: DenseRetriever | None = None

    @classmethod
    def holding(cls, retriever: DenseRetriever) -> DenseSlot:
        """A slot around a retriever made already (a run's embeddings retriever)."""
        slot = cls(lambda: retriever, retriever.engine)
        slot._value = retriever
        return slot

    @property
    def ready(self) -> bool:
        return self._value is not None

    @property
    def engine(self) -> str:
        """The engine ranking now (an embeddings retriever says LSA once it fell back)."""
        value = self._value
        return value.engine if value is not None else self._engine

    def get(self) -> DenseRetriever:
        with self._lock:
            if self._value is None:
                self._value = self._make()
            return self._value


class DocumentIndex:
    """One document's chunks and retrievers (keyword always; toc; dense made on first use).

    ``dense`` shares one dense retriever between indexes of the same document (a library passes a
    slot that loads the saved LSA); by default the LSA is built from ``doc`` on first use.
    """

    def __init__(
        self,
        doc: ParsedDocument,
        profile: DocumentProfile,
        keyword: KeywordRetriever,
        config: RetrievalConfig,
        cache: RetrievalCache | None = None,
        dense: DenseSlot | None = None,
        memo: DocumentMemo | None = None,
        access: str = "",
    ) -> None:
        self.doc = doc
        self.access = access
        """Who may read through this index (a team library's user and collections; "" for a local library):
        part of every retrieval-cache key, so cached evidence is only served to the same access."""
        self.memo = memo or DocumentMemo()
        self.profile = profile
        self.keyword = keyword
        self.config = config
        self.retrieval_cache = cache if cache is not None else shared_cache(config.cache_entries)
        self._chunks = {c.chunk_id: c for c in doc.chunks}
        self._by_page: dict[int, list[Chunk]] = {}
        for chunk in doc.chunks:
            self._by_page.setdefault(chunk.page, []).append(chunk)
        self._dense = dense or DenseSlot(lambda: LsaRetriever.build(doc, config))
        self.cache_id = doc.doc_id if doc.parse_method == "layer1" else f"{doc.doc_id}#{_digest(doc)}"

    # ---- lookups ----------------------------------------------------------------------------

    def chunk(self, chunk_id: str) -> Chunk | None:
        return self._chunks.get(chunk_id)

    def chunks_on_pages(self, pages: Iterable[int]) -> tuple[Chunk, ...]:
        """The chunks of those pages, in page order then position."""
        return tuple(c for p in sorted(set(pages)) for c in self._by_page.get(p, ()))

    @property
    def dense(self) -> DenseRetriever:
        """The dense retriever (the LSA by default), made on first use (thread-safe)."""
        return self._dense.get()

    @property
    def dense_engine(self) -> str:
        return self._dense.engine

    @property
    def dense_slot(self) -> DenseSlot:
        return self._dense

    def with_config(self, config: RetrievalConfig, cache: RetrievalCache) -> DocumentIndex:
        """The same document, retrievers and dense slot under other retrieval sizes."""
        return DocumentIndex(self.doc, self.profile, self.keyword, config, cache, self._dense, self.memo, self.access)

    def with_dense(self, dense: DenseRetriever) -> DocumentIndex:
        """The same document and retrievers, with ``dense`` ranking by meaning (a run's embeddings retriever)."""
        return DocumentIndex(self.doc, self.profile, self.keyword, self.config, self.retrieval_cache,
                             DenseSlot.holding(dense), self.memo, self.access)  # fmt: skip

    def with_document(self, doc: ParsedDocument) -> DocumentIndex:
        """A new index over ``doc``'s replaced chunks, reusing the keyword index (same doc_id)."""
        return DocumentIndex(doc, self.profile, self.keyword.with_document(doc), self.config, self.retrieval_cache,
                             access=self.access)  # fmt: skip

    # ---- search -----------------------------------------------------------------------------

    def search(
        self,
        query: str,
        retriever: RetrieverChoice = "fused",
        k: int | None = None,
        pages: frozenset[int] | None = None,
        section_hint: str | None = None,
        use_dense: bool = False,
    ) -> RankedList:
        """Run one retriever (or the fusion of several) for ``query``; a cache hit has ``from_cache=True``."""
        k = self.config.top_k if k is None else k
        pages = frozenset(pages) if pages is not None else None
        extra = (section_hint or None, bool(use_dense)) if retriever in ("fused", "toc") else None
        engine = self.dense_engine if retriever == "dense" or (retriever == "fused" and use_dense) else LSA_ENGINE
        key = make_key(self.cache_id, retriever, query, pages, k, extra if engine == LSA_ENGINE else (extra, engine),
                       access=self.access)  # fmt: skip
        cached = self.retrieval_cache.get(key)
        if cached is not None:
            return cached.model_copy(update={"from_cache": True})
        result = self._run(query, retriever, k, pages, section_hint, use_dense)
        if engine == LSA_ENGINE or self.dense_engine == engine:  # not when the engine fell back meanwhile
            self.retrieval_cache.put(key, result)
        return result

    def _run(
        self,
        query: str,
        retriever: RetrieverChoice,
        k: int,
        pages: frozenset[int] | None,
        section_hint: str | None,
        use_dense: bool,
    ) -> RankedList:
        if retriever == "keyword":
            return self.keyword.search(query, k, pages)
        if retriever == "toc":
            return self._toc(query, k, pages, section_hint)
        if retriever == "dense":
            return self.dense.search(query, k, pages)
        if retriever != "fused":
            raise ValueError(f"unknown retriever {retriever!r}; choose keyword, toc, dense or fused")
        per = max(self.config.per_retriever_k, k)
        lists = [self.keyword.search(query, per, pages)]
        if self.uses_toc(query, section_hint):
            lists.append(self._toc(query, per, pages, section_hint))
        if use_dense:
            lists.append(self.dense.search(query, per, pages))
        fused = reciprocal_rank_fusion(lists, k=self.config.rrf_k, query=query)
        return fill_pages(fused, k, self.config.min_pages)

    def uses_toc(self, query: str, section_hint: str | None) -> bool:
        """TOC retrieval joins fusion when a section is named, or a title matches the query closely.

        A single shared word ("results", "introduction") is not enough: section chunks come in
        position order, so a loose title match would crowd out better keyword hits.
        """
        if not self.doc.toc:
            return False
        return bool(section_hint) or has_strong_title_match(self.doc.toc, query)

    def _toc(self, query: str, k: int, pages: frozenset[int] | None, section_hint: str | None) -> RankedList:
        if pages is None:
            return toc_search(self.doc, query, k, section_hint)
        found = toc_search(self.doc, query, max(k * 4, 40), section_hint)
        kept = [h for h in found.hits if h.chunk.page in pages][:k]
        hits = tuple(h.model_copy(update={"rank": i}) for i, h in enumerate(kept, start=1))
        return RankedList(query=query, retriever="toc", hits=hits)


def _digest(doc: ParsedDocument) -> str:
    sha = hashlib.sha1()
    for chunk in doc.chunks:
        sha.update(chunk.chunk_id.encode())
        sha.update(chunk.text.encode("utf-8", "replace"))
    return sha.hexdigest()[:12]
