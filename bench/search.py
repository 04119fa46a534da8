"""Retrieval latency benchmark: parse + index PDFs, then warm per-retriever query latency.

    python bench/search.py [PDF ...] [--queries N]

Defaults to the 468-page mmdetection manual and the Transformer paper from ../shared/corpus.
The cache is disabled (cache_entries=0) so every query is really run. A raw reference (a plain
Python substring scan over the page texts) is timed in the same run for scale.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.config import REPO_ROOT, EngineConfig, RetrievalConfig
from engine.contracts import DocumentProfile, ParsedDocument
from engine.documents.text import content_words
from engine.retrieval.cache import RetrievalCache
from engine.retrieval.index import DocumentIndex
from engine.retrieval.keyword import KeywordIndex

CORPUS = REPO_ROOT.parent / "shared" / "corpus"
DEFAULTS = (
    CORPUS / "manuals" / "mmdetection-readthedocs-io-en-v2.18.0.pdf",
    CORPUS / "papers" / "attention_is_all_you_need.pdf",
)
RETRIEVERS = ("keyword", "toc", "dense", "fused")


def parse(path: Path, config: EngineConfig) -> ParsedDocument:
    from engine.documents.parsing import parse_pdf

    return parse_pdf(path.read_bytes(), path.name, config)


def make_queries(doc: ParsedDocument, n: int) -> list[str]:
    """Distinct queries from the document's own heading titles (then heading chunks, then words)."""
    titles = [e.title for e in doc.toc] + [c.text for c in doc.chunks if c.kind == "heading"]
    queries: dict[str, None] = {}
    for title in titles:
        words = content_words(title)[:4]
        if words:
            queries.setdefault(" ".join(words), None)
    vocab = [w for c in doc.chunks[:: max(1, len(doc.chunks) // 200)] for w in content_words(c.text)[:3]]
    for i in range(0, len(vocab) - 1, 2):
        queries.setdefault(f"{vocab[i]} {vocab[i + 1]}", None)
    picked = list(queries)
    step = max(1, len(picked) // n)
    return picked[::step][:n]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def bench_one(path: Path, n_queries: int) -> list[tuple[str, str, float, float, float]]:
    config = EngineConfig(retrieval=RetrievalConfig(cache_entries=0))
    t0 = time.perf_counter()
    doc = parse(path, config)
    t_parse = time.perf_counter() - t0
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        keyword = KeywordIndex.build(doc, Path(tmp) / "index", config.retrieval)
        t_build = time.perf_counter() - t0
        t0 = time.perf_counter()
        KeywordIndex.open(Path(tmp) / "index", doc, config.retrieval)
        t_open = time.perf_counter() - t0
        profile = DocumentProfile(
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
        index = DocumentIndex(doc, profile, keyword, config.retrieval, cache=RetrievalCache(0))
        t0 = time.perf_counter()
        _ = index.dense
        t_dense = time.perf_counter() - t0
        queries = make_queries(doc, n_queries)
        print(
            f"\n{path.name}: {doc.total_pages} pages, {len(doc.chunks)} chunks, {len(doc.toc)} toc entries, "
            f"{len(queries)} queries"
        )
        print(
            f"  parse {t_parse:.2f} s | keyword build {t_build:.2f} s | open {t_open * 1000:.0f} ms | "
            f"dense build {t_dense:.2f} s"
        )
        rows = []
        for name in RETRIEVERS:
            index.search(queries[0], name, use_dense=False)  # warm-up
            times = []
            for q in queries:
                t0 = time.perf_counter()
                index.search(q, name, use_dense=False)
                times.append((time.perf_counter() - t0) * 1000)
            rows.append((path.name, name, statistics.median(times), percentile(times, 0.95), max(times)))
        t_fd = []
        for q in queries:
            t0 = time.perf_counter()
            index.search(q, "fused", use_dense=True)
            t_fd.append((time.perf_counter() - t0) * 1000)
        rows.append((path.name, "fused+dense", statistics.median(t_fd), percentile(t_fd, 0.95), max(t_fd)))
        texts = [p.text.lower() for p in doc.pages]
        t_raw = []
        for q in queries:
            t0 = time.perf_counter()
            words = q.lower().split()
            _ = [i for i, t in enumerate(texts) if any(w in t for w in words)]
            t_raw.append((time.perf_counter() - t0) * 1000)
        rows.append((path.name, "raw substring scan", statistics.median(t_raw), percentile(t_raw, 0.95), max(t_raw)))
        keyword.close()
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pdfs", nargs="*", type=Path)
    parser.add_argument("--queries", type=int, default=50)
    args = parser.parse_args(argv)
    paths = args.pdfs or [p for p in DEFAULTS if p.exists()]
    if not paths:
        print("error: no PDF given and ../shared/corpus is absent", file=sys.stderr)
        return 2
    rows = [row for path in paths for row in bench_one(path, args.queries)]
    print(f"\n{'document':44} {'retriever':20} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")
    for name, retriever, p50, p95, worst in rows:
        print(f"{name[:44]:44} {retriever:20} {p50:8.2f} {p95:8.2f} {worst:8.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
