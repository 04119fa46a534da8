"""Bounds that hold whoever asks: how long each refused or bounded case takes, and how big a pack is.

    python bench/bounds.py

Prints, for a throwaway library: the evidence pack of a 5-page run (MB, seconds to build); the time the CLI takes
to refuse a 40,026-character ``ask --all`` question, a 100,000-character ``search --all`` query, a 1,000,000 s
budget and ``runs list --limit 99999999999999999999``; and the seconds an embeddings call takes against an
endpoint that answers after 30 s when the question's budget has 5 s left. Timings live here, never in tests.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pymupdf

from engine.config import REPO_ROOT, BackendConfig
from engine.contracts import PageRef
from engine.llm.embeddings import OpenAIEmbedder
from engine.llm.network import allow_network
from engine.present.export import build_pack
from engine.retrieval.protocols import EmbeddingError
from engine.samples import build_sample_pdf, ensure_sample
from tests.app.factories import run_result
from tests.reliability.fault_server import FaultServer


def _pack() -> None:
    doc = pymupdf.open()
    for n in range(5):
        page = doc.new_page()
        for line in range(40):
            page.insert_text((72, 72 + 17 * line), f"Line {line} of page {n + 1}: turbidity at station {line}.")
    data = doc.tobytes()
    result = run_result()
    pages = tuple(PageRef(doc_id=result.docs[0].doc_id, file_name="report.pdf", page=p) for p in range(1, 6))
    started = time.monotonic()
    pdf = build_pack(result.model_copy(update={"evidence_pages": pages}), lambda _: data).pdf()
    print(f"5-page evidence pack: {len(pdf) / 1e6:.2f} MB (source {len(data) / 1e3:.1f} KB), "
          f"built in {time.monotonic() - started:.2f} s")  # fmt: skip
    sample = build_sample_pdf()
    with pymupdf.open(stream=sample, filetype="pdf") as opened:
        count = opened.page_count
    pages = tuple(PageRef(doc_id=result.docs[0].doc_id, file_name="sample.pdf", page=p) for p in range(1, count + 1))
    pdf = build_pack(result.model_copy(update={"evidence_pages": pages}), lambda _: sample).pdf()
    print(f"{count}-page pack of the bundled sample: {len(pdf) / 1e6:.2f} MB")


def _cli(library: str, *args: str) -> None:
    env = {**os.environ, "LOUPE_LIBRARY": library}
    started = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "engine", *args], cwd=REPO_ROOT, env=env, capture_output=True,
                          text=True, timeout=600)  # fmt: skip
    shown = " ".join(a if len(a) < 40 else f"<{len(a):,} chars>" for a in args)
    print(f"{shown[:70]:<70} exit {proc.returncode} in {time.monotonic() - started:5.2f} s: "
          f"{proc.stderr.strip().splitlines()[-1][:90] if proc.stderr.strip() else ''}")  # fmt: skip


def _embeddings() -> None:
    config = BackendConfig(kind="openai", api_key="sk-bench", model="embedder", timeout_seconds=60, max_retries=2)
    with FaultServer("slow", delay=30) as slow, allow_network():
        embedder = OpenAIEmbedder(config.model_copy(update={"base_url": slow.base_url}), lambda: ends)
        started = time.monotonic()
        ends = started + 5.0
        try:
            embedder.embed(["a question"], started + 120)
        except EmbeddingError as error:
            print(f"embeddings call, 5 s left of the budget, 30 s endpoint: gave up after "
                  f"{time.monotonic() - started:.1f} s ({error.reason[:70]})")  # fmt: skip


def main() -> None:
    _pack()
    with tempfile.TemporaryDirectory() as library:
        from engine.config import EngineConfig, LibraryConfig
        from engine.library import open_library

        ensure_sample(open_library(EngineConfig(library=LibraryConfig(path=library))))
        _cli(library, "ask", "--all", "w " * 20_013)
        _cli(library, "search", "--all", "x" * 100_000)
        _cli(library, "ask", "--all", "--max-seconds", "1000000", "What is the endurance?")
        _cli(library, "runs", "list", "--limit", "99999999999999999999")
        _cli(library, "runs", "list", "--search", "a" * 50_000)
    _embeddings()


if __name__ == "__main__":
    main()
