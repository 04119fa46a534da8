"""Hostile PDFs against ingest: time and peak memory of each, in fresh processes.

    python bench/hostile_pdfs.py [--runs 3]

Each PDF (built by tests/reliability/pdfs.py: nested Form XObjects, a flate bomb inside a form, a
huge content stream, shared page-tree kids, a deep page tree, a lying page count, 200,000 page
objects, a 14,400 pt page) is ingested through ``engine.ingest`` into an empty library in a fresh
Python process. Printed per PDF: its size, the outcome (the error class, or "ingested"), and min /
median over the runs of the wall time and of the peak resident memory of the process and of the
PDF worker it forks (``ru_maxrss`` of self and children). The last line names the worst PDF.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.reliability import pdfs  # noqa: E402  (the repository root is put on the path above)


def _huge_page() -> bytes:
    import pymupdf

    doc = pymupdf.open()
    page = doc.new_page(width=14400, height=14400)
    page.insert_text((72, 72), "A page of 200 by 200 inches with one line of text on it.")
    return pdfs.save(doc)


MAKERS: dict[str, Callable[[], bytes]] = {
    "nested forms (depth 9, fan 10)": lambda: pdfs.nested_forms_pdf(depth=9, fan=10),
    "flate bomb in a form (200 MB)": lambda: pdfs.form_flate_bomb_pdf(200),
    "huge content stream (200 MB)": lambda: pdfs.huge_content_stream_pdf(200),
    "shared page-tree kids": lambda: pdfs.shared_kids_bomb_pdf(),
    "deep page tree (3,000 levels)": lambda: pdfs.deep_tree_pdf(),
    "lying page count (50 million)": lambda: pdfs.lying_page_count_pdf(),
    "200,000 page objects": lambda: pdfs.many_page_objects_pdf(),
    "14,400 pt page": _huge_page,
}

CHILD = """
import json, resource, sys, time
import engine
from engine.config import EngineConfig, LibraryConfig
data = open(sys.argv[1], "rb").read()
config = EngineConfig(library=LibraryConfig(path=sys.argv[2]))
started = time.perf_counter()
try:
    engine.ingest(data, "hostile.pdf", config=config)
    outcome = "ingested"
except Exception as error:  # the outcome is what the bench reports
    outcome = type(error).__name__
seconds = time.perf_counter() - started
own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(json.dumps({"outcome": outcome, "seconds": seconds, "peak_mb": max(own, children)}))
"""


def run_once(pdf: Path) -> dict:
    with tempfile.TemporaryDirectory() as library:
        done = subprocess.run(
            [sys.executable, "-c", CHILD, str(pdf), library], capture_output=True, text=True, cwd=ROOT, timeout=900
        )
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if not lines:
        return {"outcome": f"crashed (exit {done.returncode})", "seconds": float("nan"), "peak_mb": float("nan")}
    return json.loads(lines[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    worst = ("", 0.0, 0.0)
    print(f"{'PDF':34} {'size':>9}  {'outcome':24} {'s min':>7} {'s med':>7} {'MB min':>8} {'MB med':>8}")
    with tempfile.TemporaryDirectory() as folder:
        for name, maker in MAKERS.items():
            pdf = Path(folder) / "hostile.pdf"
            pdf.write_bytes(maker())
            runs = [run_once(pdf) for _ in range(args.runs)]
            seconds = [r["seconds"] for r in runs]
            peaks = [r["peak_mb"] for r in runs]
            outcome = runs[-1]["outcome"]
            print(
                f"{name:34} {pdf.stat().st_size / 1024:7.1f}KB  {outcome:24} {min(seconds):7.2f} "
                f"{statistics.median(seconds):7.2f} {min(peaks):8.0f} {statistics.median(peaks):8.0f}"
            )
            if max(peaks) > worst[2]:
                worst = (name, max(seconds), max(peaks))
    print(f"worst hostile PDF by memory: {worst[0]} ({worst[2]:.0f} MB peak, {worst[1]:.2f} s)")


if __name__ == "__main__":
    main()
