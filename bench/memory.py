"""Memory with many documents in one process: ingest N documents, then ask about each in turn.

    python bench/memory.py [--docs 200] [--strategy dispatched]

Documents are the PDFs of ../shared/corpus, then copies of them made distinct by a trailing PDF
comment (a new doc_id, so a new entry, parse and index each). Everything runs in this one process,
as in a long-lived app server; printed: resident memory (RSS) after the ingests, its peak while the
questions are asked, open file descriptors and the documents the process keeps loaded. Goal: RSS
under 2 GB with 200 documents.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import CORPUS, current_rss_mb, peak_rss_mb

GOAL_MB = 2048


def documents(count: int) -> Iterator[tuple[str, bytes]]:
    """``count`` distinct PDFs, read one at a time (the benchmark holds no more than one)."""
    pdfs = sorted(CORPUS.rglob("*.pdf"))
    for i in range(count):
        path = pdfs[i % len(pdfs)]
        copy = i // len(pdfs)
        yield f"{path.stem}-{copy}.pdf", path.read_bytes() + (f"\n%loupe-bench-copy {copy}\n".encode() if copy else b"")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--docs", type=int, default=200)
    parser.add_argument("--strategy", default="dispatched")
    options = parser.parse_args(argv)
    if not CORPUS.is_dir():
        print("skipped: ../shared/corpus is not available on this machine")
        return 0
    import engine
    from engine.config import LibraryConfig
    from engine.errors import LoupeError
    from engine.library.loaded import DOCUMENTS

    with tempfile.TemporaryDirectory() as folder:
        config = engine.EngineConfig(library=LibraryConfig(path=folder))
        library = engine.Library(config)
        started, ids, refused = time.perf_counter(), [], 0
        for name, data in documents(options.docs):
            try:
                ids.append(library.ingest(data, name).doc_id)
            except LoupeError:
                refused += 1
        library.wait_for_background()
        ingest_s, after_ingest = time.perf_counter() - started, current_rss_mb()
        print(
            f"ingested {len(ids)} documents ({refused} refused) in {ingest_s:.0f} s; RSS {after_ingest:.0f} MB",
            flush=True,
        )
        highest, started = after_ingest, time.perf_counter()
        for number, doc_id in enumerate(ids, 1):
            engine.answer("What are the main results reported?", [doc_id], config=config, library=library,
                          strategy=options.strategy)  # type: ignore[arg-type]  # fmt: skip
            highest = max(highest, current_rss_mb())
            if number % 50 == 0:
                print(f"  asked {number}: RSS {current_rss_mb():.0f} MB, loaded {len(DOCUMENTS)}", flush=True)
        fds = len(os.listdir("/proc/self/fd")) if Path("/proc/self/fd").is_dir() else -1
        peak = peak_rss_mb()
        print(f"asked about {len(ids)} documents in turn in {time.perf_counter() - started:.0f} s")
        print(f"RSS after ingests {after_ingest:.0f} MB | highest while asking {highest:.0f} MB | "
              f"peak {peak:.0f} MB | loaded documents {len(DOCUMENTS)} | open files {fds}")  # fmt: skip
        print(f"goal: peak RSS < {GOAL_MB} MB: {'PASS' if peak < GOAL_MB else 'FAIL'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
