"""In-process state of the library: loaded documents (a bounded LRU) and background index builds.

A loaded document (parse, keyword index, dense slot) is shared by every configuration that builds
the same indexes: the cache key holds only the settings that change them (``heading_boost``,
``dense_dimensions``), so switching presets reuses it and only the light per-configuration view
(:class:`DocumentIndex`) is new. The least recently used documents are dropped past
``LibraryConfig.cache_documents``; a view still in use by a running question keeps its document
alive until that question ends.
"""

from __future__ import annotations

import atexit
import logging
import queue
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from engine.config import EngineConfig, RetrievalConfig
from engine.contracts import DocumentProfile, ParsedDocument
from engine.retrieval.cache import shared_cache

if TYPE_CHECKING:  # loaded once a document is (numpy, whoosh): not by an ingest
    from engine.retrieval.index import DenseSlot, DocumentIndex, DocumentMemo
    from engine.retrieval.keyword import KeywordIndex

logger = logging.getLogger(__name__)

MAX_VIEWS = 4
"""Retrieval configurations kept per loaded document (presets); older views are rebuilt on demand."""

CacheKey = tuple[str, str, float, int]


def cache_key(root: Path, doc_id: str, config: EngineConfig) -> CacheKey:
    """Library folder, document and the settings that change its loaded indexes."""
    retrieval = config.retrieval
    return (str(root.resolve()), doc_id, retrieval.heading_boost, retrieval.dense_dimensions)


@dataclass
class Loaded:
    """One document's parse and indexes, with its views per retrieval configuration."""

    doc: ParsedDocument
    profile: DocumentProfile
    keyword: KeywordIndex
    dense: DenseSlot
    memo: DocumentMemo
    """Derived data of the document (table cells, fiscal calendar) every view shares; dropped with it."""
    views: OrderedDict[RetrievalConfig, DocumentIndex] = field(default_factory=OrderedDict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def view(self, config: RetrievalConfig) -> DocumentIndex:
        from engine.retrieval.index import DocumentIndex

        with self.lock:
            index = self.views.get(config)
            if index is None:
                cache = shared_cache(config.cache_entries)
                index = DocumentIndex(self.doc, self.profile, self.keyword, config, cache, self.dense, self.memo)
                self.views[config] = index
                while len(self.views) > MAX_VIEWS:
                    self.views.popitem(last=False)
            self.views.move_to_end(config)
            return index


class DocumentCache:
    """A thread-safe LRU of loaded documents."""

    def __init__(self) -> None:
        self._data: OrderedDict[CacheKey, Loaded] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: CacheKey) -> Loaded | None:
        with self._lock:
            loaded = self._data.get(key)
            if loaded is not None:
                self._data.move_to_end(key)
            return loaded

    def put(self, key: CacheKey, loaded: Loaded, max_documents: int) -> Loaded:
        """Store ``loaded`` (or return the one another thread stored first); evict past ``max_documents``."""
        with self._lock:
            kept = self._data.setdefault(key, loaded)
            self._data.move_to_end(key)
            while len(self._data) > max(1, max_documents):
                self._data.popitem(last=False)  # dropped, not closed: a running question may still search it
            return kept

    def drop(self, doc_id: str) -> list[Loaded]:
        """Remove every loaded copy of ``doc_id`` and return them (to be closed)."""
        with self._lock:
            keys = [key for key in self._data if key[1] == doc_id]
            return [self._data.pop(key) for key in keys]

    def __len__(self) -> int:
        with self._lock:
            return len(self._data)


@dataclass
class Build:
    """A background index build of a freshly ingested document, as other threads see it."""

    run: Callable[[Build], None]
    started: threading.Event = field(default_factory=threading.Event)
    keyword_ready: threading.Event = field(default_factory=threading.Event)
    dense_ready: threading.Event = field(default_factory=threading.Event)
    doc: ParsedDocument | None = None
    keyword: KeywordIndex | None = None
    doc_ready: threading.Event = field(default_factory=threading.Event)
    """Set once ``doc`` is decoded (or its decoding failed)."""


class BuildRegistry:
    """Background builds of this process, run one at a time by one daemon thread, in ingest order.

    One builder keeps many quick ingests from holding many parsed documents at once; a question about
    a document whose build has not started yet builds what it needs itself (under the entry's lock).
    """

    def __init__(self) -> None:
        self._data: dict[tuple[str, str], Build] = {}
        self._queue: queue.SimpleQueue[tuple[tuple[str, str], Build]] = queue.SimpleQueue()
        self._changed = threading.Condition()
        self._thread: threading.Thread | None = None

    def submit(self, key: tuple[str, str], build: Build) -> None:
        with self._changed:
            self._data[key] = build
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._work, name="loupe-index-builder", daemon=True)
                self._thread.start()
        self._queue.put((key, build))

    def _work(self) -> None:
        while True:
            key, build = self._queue.get()
            build.started.set()
            try:
                build.run(build)
            except Exception:  # run() logs its own failures; nothing may stop the builder
                logger.exception("background index build failed")
            finally:
                build.doc_ready.set()
                build.keyword_ready.set()
                build.dense_ready.set()
                with self._changed:
                    if self._data.get(key) is build:
                        del self._data[key]
                    self._changed.notify_all()

    def get(self, key: tuple[str, str]) -> Build | None:
        with self._changed:
            return self._data.get(key)

    def active(self, key: tuple[str, str]) -> Build | None:
        """The build of ``key`` when it runs or runs next (no build submitted before it is pending).

        A build only queued could be waited for as well as one running: the builder picks it up at once.
        Answering None there made the first question after an ingest build the keyword index a second time
        in its own thread, racing the builder that was about to start (and then waited for its lock)."""
        with self._changed:
            build = self._data.get(key)
            if build is None or build.started.is_set() or next(iter(self._data)) == key:
                return build
            return None

    def join(self, root: str | None = None, timeout: float | None = None) -> bool:
        """Wait until no build of library folder ``root`` (of any, when None) is pending; True when none is."""
        with self._changed:
            return self._changed.wait_for(
                lambda: not any(root is None or folder == root for folder, _ in self._data), timeout
            )


DOCUMENTS = DocumentCache()
BUILDS = BuildRegistry()
EXIT_WAIT_SECONDS = 120.0
"""At interpreter exit, background builds get this long to finish (a CLI ingest leaves its indexes built)."""
atexit.register(BUILDS.join, None, EXIT_WAIT_SECONDS)
