"""Team-library benchmark: the whole corpus ingested into PostgreSQL, keyword latency beside Whoosh on the same chunks.

    source .ci/postgres.sh && pg_throwaway_start         # a throwaway server (or any you may create databases on)
    python bench/pg_library.py --url "$LOUPE_TEST_DATABASE_URL" [--corpus DIR] [--workers 2] [--queries 20] [--runs 3]

1. Ingest every PDF under the corpus into a fresh database with ``--workers`` processes (each its own
   library folder, as app replicas would): documents/s, pages/s, the share spent writing to the
   database; raw PyMuPDF text extraction of the same files is timed in the same run for scale.
2. Build a Whoosh index per document from the same parsed documents (the embedded default's index).
3. In ``--runs`` fresh processes: per-document keyword queries (``--queries`` per document, from its
   own headings and words) on PostgreSQL full-text search and on Whoosh, and corpus-wide queries
   (one full-text query; Whoosh: every document's index in turn, as the embedded library does);
   p50/p95 of each run, then the min and median over runs; plus how many of Whoosh's top-5 pages
   PostgreSQL's top 5 also holds (the ranking functions differ: IDF-weighted ts_rank_cd vs BM25F).
The database is dropped at the end unless ``--keep``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.search import make_queries, percentile
from engine.config import REPO_ROOT, EngineConfig, LibraryConfig, RetrievalConfig

CORPUS = REPO_ROOT.parent / "shared" / "corpus"
CORPUS_QUERIES = 60
TOP = 5


def _config(folder: Path, url: str) -> EngineConfig:
    return EngineConfig(library=LibraryConfig(path=str(folder), database_url=url),
                        retrieval=RetrievalConfig(cache_entries=0))  # fmt: skip


def _ingest_one(job: tuple[str, str, str]) -> dict:
    """Ingest one PDF (in a worker process); the time spent in database writes is measured apart."""
    path, url, folder = job
    import engine.library.pg_library as module
    from engine.errors import LoupeError
    from engine.library import open_library

    spent = [0.0]
    real = module.write_document

    def timed_write(*args, **kwargs):
        started = time.perf_counter()
        try:
            return real(*args, **kwargs)
        finally:
            spent[0] += time.perf_counter() - started

    module.write_document = timed_write
    started = time.perf_counter()
    try:
        entry = open_library(_config(Path(folder), url)).ingest_path(path)
    except LoupeError as error:
        return {"path": path, "error": str(error), "seconds": time.perf_counter() - started}
    return {"path": path, "doc_id": entry.doc_id, "pages": entry.total_pages,
            "seconds": time.perf_counter() - started, "db_seconds": spent[0]}  # fmt: skip


def _raw_extraction(paths: list[Path]) -> tuple[float, int]:
    import pymupdf

    started, pages = time.perf_counter(), 0
    for path in paths:
        with pymupdf.open(path) as pdf:
            for page in pdf:
                page.get_text("text")
                pages += 1
    return time.perf_counter() - started, pages


def ingest(paths: list[Path], url: str, workers: int, work: Path) -> dict:
    jobs = [(str(p), url, str(work / f"replica-{i % workers}")) for i, p in enumerate(paths)]
    started = time.perf_counter()
    with ProcessPoolExecutor(workers) as pool:
        rows = list(pool.map(_ingest_one, jobs))
    wall = time.perf_counter() - started
    good = [r for r in rows if "doc_id" in r]
    from engine.errors import LoupeError
    from engine.library import open_library

    library = open_library(_config(work / "replica-0", url))
    started = time.perf_counter()
    for path in paths:  # again: every document is already there (one lookup each)
        with contextlib.suppress(LoupeError):
            library.ingest_path(path)
    again = time.perf_counter() - started
    return {"wall": wall, "rows": rows, "good": good, "again": again, "docs_in_db": len(library.entries())}


def build_whoosh(url: str, work: Path, doc_ids: list[str]) -> float:
    from engine.library import open_library
    from engine.retrieval.keyword import KeywordIndex

    library = open_library(_config(work / "replica-0", url))
    started = time.perf_counter()
    for doc_id in doc_ids:
        KeywordIndex.build(library.parsed(doc_id), work / "whoosh" / doc_id, library.config.retrieval).close()
    return time.perf_counter() - started


def query_phase(url: str, work: Path, n_queries: int) -> dict:
    """One fresh process: per-document and corpus-wide keyword latency, PostgreSQL and Whoosh (ms)."""
    from engine.library import open_library
    from engine.retrieval.keyword import KeywordIndex
    from engine.retrieval.pg_keyword import PgKeywordIndex, corpus_search

    library = open_library(_config(work / "replica-query", url))
    config = library.config.retrieval
    pg_ms: list[float] = []
    wh_ms: list[float] = []
    agreement: list[float] = []
    whoosh: list[KeywordIndex] = []
    corpus: list[str] = []
    for entry in sorted(library.entries(), key=lambda e: e.file_name):
        doc = library.parsed(entry.doc_id)
        pg = PgKeywordIndex(library.db, doc, config)  # type: ignore[attr-defined]
        wh = KeywordIndex.open(work / "whoosh" / entry.doc_id, doc, config)
        whoosh.append(wh)
        queries = make_queries(doc, n_queries)
        corpus.extend(queries[:2])
        pg.search(queries[0], TOP)
        wh.search(queries[0], TOP)
        for query in queries:
            started = time.perf_counter()
            ours = pg.search(query, TOP)
            pg_ms.append((time.perf_counter() - started) * 1000)
            started = time.perf_counter()
            theirs = wh.search(query, TOP)
            wh_ms.append((time.perf_counter() - started) * 1000)
            wanted = {h.chunk.page for h in theirs.hits}
            if wanted:
                agreement.append(len(wanted & {h.chunk.page for h in ours.hits}) / len(wanted))
    corpus = corpus[:: max(1, len(corpus) // CORPUS_QUERIES)][:CORPUS_QUERIES]
    pg_all: list[float] = []
    wh_all: list[float] = []
    for query in corpus:
        started = time.perf_counter()
        corpus_search(library.db, query, 10, config)  # type: ignore[attr-defined]
        pg_all.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        found = [h for wh in whoosh for h in wh.search(query, 10).hits]
        sorted(found, key=lambda h: -h.score)[:10]
        wh_all.append((time.perf_counter() - started) * 1000)
    return {"pg_doc": pg_ms, "whoosh_doc": wh_ms, "pg_corpus": pg_all, "whoosh_corpus": wh_all,
            "agreement": statistics.mean(agreement) if agreement else 0.0, "queries": len(pg_ms),
            "corpus_queries": len(pg_all)}  # fmt: skip


def _stats(runs: list[dict], key: str) -> str:
    p50 = [statistics.median(r[key]) for r in runs]
    p95 = [percentile(r[key], 0.95) for r in runs]
    return (f"p50 {min(p50):7.2f} / {statistics.median(p50):7.2f}   "
            f"p95 {min(p95):7.2f} / {statistics.median(p95):7.2f}")  # fmt: skip


def report(done: dict, raw: tuple[float, int], whoosh_build: float, runs: list[dict], workers: int) -> None:
    good = done["good"]
    pages = sum(r["pages"] for r in good)
    db = sum(r["db_seconds"] for r in good)
    busy = sum(r["seconds"] for r in good)
    print(f"\ningest: {len(good)} of {len(done['rows'])} PDFs, {pages} pages, {workers} worker process(es)")
    for row in done["rows"]:
        if "error" in row:
            print(f"  refused {Path(row['path']).name}: {row['error'][:100]}")
    print(
        f"  wall {done['wall']:.1f} s = {len(good) / done['wall']:.2f} documents/s, {pages / done['wall']:.0f} pages/s"
    )
    print(f"  database writes {db:.1f} s of {busy:.1f} s of worker time ({db / busy:.0%}); "
          f"again (already there) {done['again']:.2f} s for all; documents in the database: {done['docs_in_db']}")  # fmt: skip
    print(f"  raw PyMuPDF get_text of the same files, one process: {raw[0]:.1f} s = {raw[1] / raw[0]:.0f} pages/s")
    print(f"  Whoosh indexes from the same parsed documents: {whoosh_build:.1f} s")
    first = runs[0]
    print(f"\nkeyword query latency, ms (min / median over {len(runs)} fresh processes of each run's p50 and p95)")
    print(f"  per document ({first['queries']} queries, top {TOP}):")
    print(f"    PostgreSQL full-text (ts_rank_cd)   {_stats(runs, 'pg_doc')}")
    print(f"    Whoosh BM25F                        {_stats(runs, 'whoosh_doc')}")
    print(f"  corpus-wide ({first['corpus_queries']} queries over {len(good)} documents, top 10):")
    print(f"    PostgreSQL, one query               {_stats(runs, 'pg_corpus')}")
    print(f"    Whoosh, each document's index       {_stats(runs, 'whoosh_corpus')}")
    print(f"  Whoosh's top-{TOP} pages also in PostgreSQL's top {TOP}: {first['agreement']:.0%}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default=os.environ.get("LOUPE_TEST_DATABASE_URL", ""), help="a PostgreSQL server")
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--queries", type=int, default=20, help="keyword queries per document")
    parser.add_argument("--runs", type=int, default=3, help="fresh query processes")
    parser.add_argument("--limit", type=int, default=0, help="only the first N PDFs (0: all)")
    parser.add_argument("--keep", action="store_true", help="keep the benchmark database")
    parser.add_argument("--phase", choices=("all", "query"), default="all", help=argparse.SUPPRESS)
    parser.add_argument("--work", type=Path, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.phase == "query":
        sys.stdout.write(json.dumps(query_phase(args.url, args.work, args.queries)) + "\n")
        return 0
    paths = sorted(p for p in args.corpus.rglob("*") if p.suffix.lower() == ".pdf")[: args.limit or None]
    if not args.url or not paths:
        print("error: give --url (a PostgreSQL server) and a corpus with PDFs", file=sys.stderr)
        return 2
    from tests.pg import create_database, drop_database

    name, url = create_database(args.url)
    try:
        with tempfile.TemporaryDirectory(prefix="loupe-pg-bench-") as tmp:
            work = Path(tmp)
            raw = _raw_extraction(paths)
            done = ingest(paths, url, args.workers, work)
            whoosh_build = build_whoosh(url, work, [r["doc_id"] for r in done["good"]])
            runs = []
            for _ in range(args.runs):
                command = [sys.executable, __file__, "--phase", "query", "--url", url, "--work", str(work),
                           "--queries", str(args.queries)]  # fmt: skip
                out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
                runs.append(json.loads(out.strip().splitlines()[-1]))
            report(done, raw, whoosh_build, runs, args.workers)
    finally:
        if not args.keep:
            drop_database(args.url, name)
        else:
            print(f"kept database {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
