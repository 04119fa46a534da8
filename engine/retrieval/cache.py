"""A thread-safe LRU cache of ranked lists, keyed by document, retriever and normalised query."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable, Iterable

from engine.contracts import RankedList
from engine.documents.text import normalize_query

CacheKey = tuple[str, str, str, tuple[int, ...] | None, int, Hashable, str]


def make_key(
    doc_id: str,
    retriever: str,
    query: str,
    pages: Iterable[int] | None,
    k: int,
    extra: Hashable = None,
    access: str = "",
) -> CacheKey:
    """The cache key: ``(doc_id, retriever, normalize_query(query), sorted pages or None, k, extra, access)``.

    ``access`` names who may read the entry (a team library's user and the sorted ids of the collections
    they may read; "" for a local library): a cached list is never served to another access.

    ``doc_id`` is the sha256 of the PDF bytes, so changed bytes never share an entry; callers that
    serve a re-parsed variant of a document pass a variant id such as ``"<doc_id>#<digest>"``.
    """
    page_key = tuple(sorted(set(pages))) if pages is not None else None
    return (doc_id, retriever, normalize_query(query), page_key, int(k), extra, access)


class RetrievalCache:
    """LRU of ``RankedList`` values; ``max_entries=0`` disables caching (every get misses)."""

    def __init__(self, max_entries: int = 512) -> None:
        self.max_entries = max(0, int(max_entries))
        self._data: OrderedDict[CacheKey, RankedList] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: CacheKey) -> RankedList | None:
        """The cached list for ``key`` (marked most recently used), else None."""
        with self._lock:
            value = self._data.get(key)
            if value is None:
                self.misses += 1
                return None
            self._data.move_to_end(key)
            self.hits += 1
            return value

    def put(self, key: CacheKey, value: RankedList) -> None:
        """Store ``value``; the least recently used entry is evicted past ``max_entries``."""
        if self.max_entries == 0:
            return
        with self._lock:
            self._data[key] = value
            self._data.move_to_end(key)
            while len(self._data) > self.max_entries:
                self._data.popitem(last=False)

    def invalidate(self, doc_id: str) -> int:
        """Drop every entry of ``doc_id`` (and of its re-parsed variants); returns how many."""
        with self._lock:
            stale = [key for key in self._data if key[0] == doc_id or key[0].startswith(doc_id + "#")]
            for key in stale:
                del self._data[key]
            return len(stale)

    def clear(self) -> None:
        with self._lock:
            self._data.clear()

    def __len__(self) -> int:
        with self._lock:
            return len(self._data)


_SHARED: dict[int, RetrievalCache] = {}
_SHARED_LOCK = threading.Lock()


def shared_cache(max_entries: int) -> RetrievalCache:
    """The process-wide cache of that size (one instance per distinct size)."""
    with _SHARED_LOCK:
        cache = _SHARED.get(max_entries)
        if cache is None:
            cache = _SHARED[max_entries] = RetrievalCache(max_entries)
        return cache


def invalidate_shared(doc_id: str) -> int:
    """Drop a document's entries from every shared cache (a deleted document is never served)."""
    with _SHARED_LOCK:
        caches = list(_SHARED.values())
    return sum(cache.invalidate(doc_id) for cache in caches)
