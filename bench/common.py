"""Shared helpers of the benchmarks: fresh child processes, statistics, questions about a document.

Every measured run happens in a new Python process (``run_child``), so no run profits from the
caches of an earlier one; a child prints one JSON object as its last stdout line.
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from engine.config import REPO_ROOT  # noqa: E402

SHARED = REPO_ROOT.parent / "shared"
CORPUS = SHARED / "corpus"
EVAL = SHARED / "eval"
TEMPLATES = (
    "What does the section on {t} describe?",
    "How is {t} defined or used?",
    "What are the main points about {t}?",
)


def run_child(script: Path, args: Sequence[str], timeout: float = 1800) -> dict:
    """Run ``python script args`` in a fresh process; its last stdout line parsed as JSON."""
    env = {**os.environ, "PYTHONPATH": str(REPO), "LOUPE_NO_NETWORK": "1", "PYMUPDF_SUGGEST_LAYOUT_ANALYZER": "0"}
    proc = subprocess.run(
        [sys.executable, str(script), *args], capture_output=True, text=True, timeout=timeout, env=env, cwd=REPO
    )
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    if proc.returncode != 0 or not lines:
        raise RuntimeError(
            f"child {script.name} {' '.join(args)} failed (rc {proc.returncode}):\n{proc.stderr[-3000:]}"
        )
    return json.loads(lines[-1])


def percentile(values: Sequence[float], q: float) -> float:
    """Linear-interpolated percentile (q in 0..100)."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    position = (len(ordered) - 1) * q / 100
    low, high = int(position), min(int(position) + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def min_median(values: Sequence[float]) -> str:
    """``min / median`` of several runs, two decimals."""
    return f"{min(values):.2f} / {statistics.median(values):.2f}"


def peak_rss_mb() -> float:
    """Peak resident memory of this process so far, in MB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def current_rss_mb() -> float:
    """Resident memory of this process now, in MB."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return peak_rss_mb()


def raw_dict_seconds(data: bytes) -> tuple[int, float]:
    """Pages and seconds of the reference: open the PDF and ``page.get_text("dict")`` on every page."""
    import pymupdf

    started = time.perf_counter()
    doc = pymupdf.open(stream=data, filetype="pdf")
    for page in doc:
        page.get_text("dict")
    pages = doc.page_count
    doc.close()
    return pages, time.perf_counter() - started


def eval_questions(path: Path) -> list[str]:
    """Questions the shared eval sets ask about this PDF (any set, in file order)."""
    try:
        relative = str(path.resolve().relative_to(CORPUS.resolve()))
    except ValueError:
        return []
    found: list[str] = []
    for set_file in sorted(EVAL.glob("*.jsonl")) if EVAL.is_dir() else []:
        for line in set_file.read_text(encoding="utf-8").splitlines():
            try:
                row = json.loads(line)
            except ValueError:
                continue
            docs = row.get("docs") or [row.get("doc")]
            if docs == [relative] and isinstance(row.get("question"), str):
                found.append(" ".join(row["question"].split()))
    return list(dict.fromkeys(found))


def heading_questions(parsed, count: int) -> list[str]:
    """Generic questions from the document's outline (or heading chunks), spread over the document."""
    titles = [e.title for e in parsed.toc if 3 <= len(e.title) <= 80]
    if not titles:
        titles = [c.text for c in parsed.chunks if c.kind == "heading" and 3 <= len(c.text) <= 80]
    if not titles:
        titles = [" ".join(c.text.split()[:6]) for c in parsed.chunks[:: max(1, len(parsed.chunks) // count)]]
    step = max(1, len(titles) // max(count, 1))
    picked = titles[::step][:count]
    return [TEMPLATES[i % len(TEMPLATES)].format(t=t.strip().rstrip(".")) for i, t in enumerate(picked)]


def questions_for(path: Path, parsed, count: int) -> list[str]:
    """``count`` different questions: the eval sets' questions about the PDF, then outline questions."""
    chosen = eval_questions(path)[:count]
    for question in heading_questions(parsed, count * 2):
        if len(chosen) >= count:
            break
        if question not in chosen:
            chosen.append(question)
    return chosen
