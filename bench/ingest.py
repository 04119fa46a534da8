"""Ingest and answer benchmark, against raw PyMuPDF in the same process.

    python bench/ingest.py [--runs 3] [--questions 9] [FILE.pdf ...]

Defaults to the 3M 2018 10-K and the mmdetection manual from ../shared/corpus. Each run is a fresh
Python process that, in this order: times the reference ``get_text("dict")`` over every page (raw);
ingests the PDF into an empty library through the public API (``engine.ingest``: returns once the
document is read and stored; indexes build in the background); answers a first question with
``engine.answer(..., strategy="dispatched")`` (time to first answer = ingest + that answer); then
answers the other questions (different ones: the eval sets' questions about the PDF, then outline
questions), whose p95 is reported. Each run also times ``python -m engine ingest FILE`` (a fresh
interpreter that waits for the document's keyword index and LSA before it exits) into an empty library,
against raw PyMuPDF measured by a fresh process of the same run. Printed per document: min / median over
the runs of ingest/raw, (ingest + first answer)/raw, the later answers' p95 and the CLI ingest/raw,
beside the goals (issue 28's table).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import CORPUS, REPO, min_median, peak_rss_mb, percentile, questions_for, raw_dict_seconds, run_child

DEFAULTS = (CORPUS / "filings" / "3M_2018_10K.pdf", CORPUS / "manuals" / "mmdetection-readthedocs-io-en-v2.18.0.pdf")
GOALS = {"ingest": 1.5, "first": 2.0, "cli": 2.0}
LATER_GOAL_S = 0.25


def child_raw(pdf: Path) -> None:
    """Raw PyMuPDF alone in a fresh process (the reference of the CLI timing)."""
    cpu = time.process_time()
    pages, raw = raw_dict_seconds(pdf.read_bytes())
    print(json.dumps({"pages": pages, "raw": raw, "raw_cpu": time.process_time() - cpu}))


def cli_run(pdf: Path) -> dict:
    """Seconds of ``python -m engine ingest FILE`` into an empty library, and raw PyMuPDF just before it."""
    reference = run_child(Path(__file__), ["--raw", str(pdf)])
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "PYTHONPATH": str(REPO), "LOUPE_LIBRARY": folder, "LOUPE_NO_NETWORK": "1"}
        started = time.perf_counter()
        proc = subprocess.run([sys.executable, "-m", "engine", "ingest", str(pdf)], capture_output=True, env=env,
                              cwd=REPO, timeout=1800)  # fmt: skip
        seconds = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        built = all((entry / "index" / "loupe-index.json").is_file() and (entry / "dense.npz").is_file()
                    for entry in Path(folder).iterdir() if not entry.name.startswith("."))  # fmt: skip
    if proc.returncode != 0 or not built:
        raise RuntimeError(f"engine ingest {pdf.name} failed or left no indexes: {proc.stderr[-2000:]!r}")
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return {"raw": reference["raw"], "cli": seconds, "cli_cpu": cpu, "raw_cpu": reference["raw_cpu"]}


def child(pdf: Path, questions_file: Path) -> None:
    """One measured run (in a fresh process); prints one JSON line. Beside each wall time, the CPU seconds of
    this process (all its threads: the background index build included; the PDF worker excluded), which a
    machine shared with other work disturbs far less."""
    import engine
    from engine.config import LibraryConfig

    questions = json.loads(questions_file.read_text(encoding="utf-8"))
    data = pdf.read_bytes()
    cpu = time.process_time()
    pages, raw = raw_dict_seconds(data)
    raw_cpu = time.process_time() - cpu
    with tempfile.TemporaryDirectory() as folder:
        config = engine.EngineConfig(library=LibraryConfig(path=folder))
        cpu, started = time.process_time(), time.perf_counter()
        entry = engine.ingest(data, pdf.name, config=config)
        ingest = time.perf_counter() - started
        t0 = time.perf_counter()
        engine.answer(questions[0], [entry.doc_id], config=config, strategy="dispatched")
        first = time.perf_counter() - t0
        first_cpu = time.process_time() - cpu
        later, later_cpu = [], []
        for question in questions[1:]:
            cpu, t0 = time.process_time(), time.perf_counter()
            engine.answer(question, [entry.doc_id], config=config, strategy="dispatched")
            later.append(time.perf_counter() - t0)
            later_cpu.append(time.process_time() - cpu)
    out = {"pages": pages, "raw": raw, "ingest": ingest, "first": first, "later": later, "rss_mb": peak_rss_mb(),
           "raw_cpu": raw_cpu, "first_cpu": first_cpu, "later_cpu": later_cpu}  # fmt: skip
    print(json.dumps(out))


def bench(pdf: Path, runs: int, count: int) -> list[str]:
    from engine.config import EngineConfig
    from engine.documents.parsing import parse_pdf

    questions = questions_for(pdf, parse_pdf(pdf.read_bytes(), pdf.name, EngineConfig()), count)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(questions, handle)
    results = []
    for _ in range(runs):  # each run: the API child, then the CLI (both against their own raw reference)
        results.append({**run_child(Path(__file__), ["--child", str(pdf), handle.name]), "cli_run": cli_run(pdf)})
    Path(handle.name).unlink()
    cli = [r["cli_run"]["cli"] / r["cli_run"]["raw"] for r in results]
    ingest = [r["ingest"] / r["raw"] for r in results]
    first = [(r["ingest"] + r["first"]) / r["raw"] for r in results]
    p95 = [percentile(r["later"], 95) for r in results]
    goal_later = LATER_GOAL_S
    verdict = lambda values, goal: "PASS" if statistics.median(values) <= goal else "FAIL"  # noqa: E731
    raw = [r["raw"] for r in results]
    lines = [
        f"{pdf.name}: {results[0]['pages']} pages, {runs} fresh-process runs, {len(questions) - 1} later questions",
        f"  raw get_text('dict')        s  {min_median(raw)}",
        f"  ingest                      s  {min_median([r['ingest'] for r in results])}",
        f"  first dispatched answer     s  {min_median([r['first'] for r in results])}",
        f"  ingest / raw                   {min_median(ingest)}   goal <= {GOALS['ingest']}: {verdict(ingest, GOALS['ingest'])}",
        f"  (ingest + first answer)/raw    {min_median(first)}   goal <= {GOALS['first']}: {verdict(first, GOALS['first'])}",
        f"  later answers p95           s  {min_median(p95)}   goal <= {goal_later}: {verdict(p95, goal_later)}",
        f"  later answers p50           s  {min_median([percentile(r['later'], 50) for r in results])}",
        f"  later answers p95 (CPU)     s  {min_median([percentile(r['later_cpu'], 95) for r in results])}",
        f"  ingest + first answer, CPU of the main process / raw CPU  "
        f"{min_median([r['first_cpu'] / r['raw_cpu'] for r in results])}",
        f"  engine ingest CLI           s  {min_median([r['cli_run']['cli'] for r in results])}",
        f"  engine ingest CLI / raw        {min_median(cli)}   goal <= {GOALS['cli']}: {verdict(cli, GOALS['cli'])}",
        f"  engine ingest CLI, CPU of all its processes / raw CPU  "
        f"{min_median([r['cli_run']['cli_cpu'] / r['cli_run']['raw_cpu'] for r in results])}",
        f"  peak RSS                   MB  {min_median([r['rss_mb'] for r in results])}",
    ]
    return lines


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["--raw"]:
        child_raw(Path(args[1]))
        return 0
    if args[:1] == ["--child"]:
        child(Path(args[1]), Path(args[2]))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pdfs", nargs="*", type=Path)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--questions", type=int, default=9, help="first question + later ones")
    options = parser.parse_args(args)
    pdfs = options.pdfs or [p for p in DEFAULTS if p.is_file()]
    if not pdfs:
        print("skipped: no PDF given and ../shared/corpus is absent")
        return 0
    for pdf in pdfs:
        print("\n".join(bench(pdf, max(1, options.runs), max(2, options.questions))), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
