"""Ingest benchmark: ``python bench/ingest.py [--repeat N] FILE.pdf [FILE.pdf ...]``.

For each file prints the page count, the seconds of a raw PyMuPDF ``get_text("dict")`` over all
pages, of ``parse_pdf`` and of a full ``Library.ingest`` into a temporary library, and the ratios
parse/raw and ingest/raw (goal: <= 2.0). Each timing is the best of ``--repeat`` runs (default 2),
because a shared machine makes single runs noisy.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("PYMUPDF_SUGGEST_LAYOUT_ANALYZER", "0")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pymupdf

from engine.bricks.parsing import TEXT_FLAGS, parse_pdf
from engine.config import EngineConfig, LibraryConfig
from engine.library import Library


def raw_seconds(data: bytes) -> tuple[int, float]:
    """Pages and seconds of opening the PDF and one get_text("dict") per page."""
    started = time.perf_counter()
    doc = pymupdf.open(stream=data, filetype="pdf")
    for page in doc:
        page.get_text("dict", flags=TEXT_FLAGS)
    pages = doc.page_count
    doc.close()
    return pages, time.perf_counter() - started


def parse_seconds(data: bytes, name: str) -> float:
    started = time.perf_counter()
    parse_pdf(data, name, EngineConfig())
    return time.perf_counter() - started


def ingest_seconds(data: bytes, name: str) -> float:
    with tempfile.TemporaryDirectory() as folder:
        library = Library(EngineConfig(library=LibraryConfig(path=folder)))
        started = time.perf_counter()
        library.ingest(data, name)
        return time.perf_counter() - started


def bench(path: Path, repeat: int) -> None:
    data = path.read_bytes()
    raws, parses, ingests = [], [], []
    pages = 0
    for _ in range(repeat):
        pages, raw = raw_seconds(data)
        raws.append(raw)
        parses.append(parse_seconds(data, path.name))
        ingests.append(ingest_seconds(data, path.name))
    raw, parse, ingest = min(raws), min(parses), min(ingests)
    print(f"{path.name}: {pages} pages | raw dict {raw:.2f} s | parse_pdf {parse:.2f} s | ingest {ingest:.2f} s "
          f"| parse/raw {parse / raw:.2f} | ingest/raw {ingest / raw:.2f}")  # fmt: skip


def main(argv: list[str]) -> int:
    repeat = 2
    if argv[:1] == ["--repeat"] and len(argv) > 1:
        repeat, argv = max(1, int(argv[1])), argv[2:]
    if not argv:
        print(__doc__.strip())
        return 2
    for name in argv:
        bench(Path(name), repeat)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
