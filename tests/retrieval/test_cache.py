from __future__ import annotations

import threading

from engine.contracts import RankedList
from engine.retrieval.cache import RetrievalCache, make_key, shared_cache


def rl(q="q"):
    return RankedList(query=q, retriever="keyword")


def test_normalised_query_shares_an_entry():
    cache = RetrievalCache(8)
    cache.put(make_key("doc1", "fused", "  What IS x ", None, 8), rl("a"))
    assert cache.get(make_key("doc1", "fused", "what is x", None, 8)).query == "a"


def test_key_parts_separate_entries():
    cache = RetrievalCache(8)
    cache.put(make_key("doc1", "fused", "x", [3, 1], 8), rl("a"))
    assert cache.get(make_key("doc1", "fused", "x", (1, 3), 8)) is not None  # pages order-insensitive
    assert cache.get(make_key("doc2", "fused", "x", (1, 3), 8)) is None  # other bytes, never stale
    assert cache.get(make_key("doc1", "keyword", "x", (1, 3), 8)) is None
    assert cache.get(make_key("doc1", "fused", "x", None, 8)) is None
    assert cache.get(make_key("doc1", "fused", "x", (1, 3), 5)) is None
    assert cache.get(make_key("doc1", "fused", "x", (1, 3), 8, extra=("5.4", False))) is None


def test_lru_eviction():
    cache = RetrievalCache(2)
    k1, k2, k3 = (make_key("d", "keyword", q, None, 1) for q in ("a", "b", "c"))
    cache.put(k1, rl("a"))
    cache.put(k2, rl("b"))
    assert cache.get(k1) is not None  # k1 now most recent
    cache.put(k3, rl("c"))
    assert cache.get(k2) is None and cache.get(k1) is not None and cache.get(k3) is not None
    assert len(cache) == 2


def test_zero_entries_disables():
    cache = RetrievalCache(0)
    key = make_key("d", "keyword", "a", None, 1)
    cache.put(key, rl())
    assert cache.get(key) is None and len(cache) == 0


def test_invalidate_drops_doc_and_variants_only():
    cache = RetrievalCache(10)
    cache.put(make_key("d1", "keyword", "a", None, 1), rl())
    cache.put(make_key("d1#abc", "keyword", "a", None, 1), rl())
    cache.put(make_key("d2", "keyword", "a", None, 1), rl())
    assert cache.invalidate("d1") == 2
    assert len(cache) == 1 and cache.get(make_key("d2", "keyword", "a", None, 1)) is not None


def test_thread_safe_under_concurrent_use():
    cache = RetrievalCache(50)
    errors = []

    def work(n):
        try:
            for i in range(300):
                key = make_key("d", "keyword", f"q{(i * n) % 80}", None, 1)
                cache.put(key, rl())
                cache.get(key)
        except Exception as exc:  # pragma: no cover - the assertion reports it
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(1, 7)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(cache) <= 50


def test_shared_cache_is_one_instance_per_size():
    assert shared_cache(7) is shared_cache(7)
    assert shared_cache(7) is not shared_cache(8)


def test_the_key_holds_the_readers_access_so_a_cached_list_is_never_served_to_other_access() -> None:
    cache = RetrievalCache(8)
    cache.put(make_key("doc1", "fused", "x", None, 8, access="alice:1,3"), rl("a"))
    assert cache.get(make_key("doc1", "fused", "x", None, 8, access="alice:1,3")) is not None
    assert cache.get(make_key("doc1", "fused", "x", None, 8, access="bob:2")) is None
    assert cache.get(make_key("doc1", "fused", "x", None, 8, access="alice:3")) is None  # a membership went
    assert cache.get(make_key("doc1", "fused", "x", None, 8)) is None
