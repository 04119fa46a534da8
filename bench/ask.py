"""Offline end-to-end latency and call counts per strategy, each strategy in fresh processes.

    python bench/ask.py [--docs A.pdf B.pdf] [--strategies single_pass,dispatched,auto] [--runs 3] [--limit 15]

1. Latency: each document is ingested once into a temporary library (indexes built). Then, for every
   strategy and every run, a fresh process loads the library and answers the same questions (the eval
   sets' questions about the document, then outline questions): the first answer (which loads the
   document) and the p50/p95 of the others. Printed: min / median over the runs. Goals for dispatched:
   p95 < 300 ms on the 15-page paper, < 1.5 s on the 468-page manual.
2. Calls: mean LLM and retrieval calls per question per strategy on the first ``--limit`` answerable
   questions of each ../shared/eval set, one fresh process per strategy (no strategy profits from the
   retrieval cache another one filled).

Skips cleanly (exit 0) when ../shared is absent.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import CORPUS, EVAL, min_median, percentile, questions_for, run_child

DEFAULT_DOCS = (
    CORPUS / "papers" / "attention_is_all_you_need.pdf",
    CORPUS / "manuals" / "mmdetection-readthedocs-io-en-v2.18.0.pdf",
)
GOALS_S = {15: 0.3, 10_000: 1.5}  # pages up to -> dispatched p95 goal, seconds
DEFAULT_SETS = ("mmlongbench.jsonl", "financebench.jsonl", "hotpotqa40.jsonl")


def child_latency(library: str, doc_id: str, strategy: str, questions_file: str) -> None:
    from engine.api import answer
    from engine.config import EngineConfig, LibraryConfig

    config = EngineConfig(library=LibraryConfig(path=library))
    times, llm, retrieval = [], [], []
    for question in json.loads(Path(questions_file).read_text(encoding="utf-8")):
        started = time.perf_counter()
        result = answer(question, [doc_id], config=config, strategy=strategy)  # type: ignore[arg-type]
        times.append(time.perf_counter() - started)
        llm.append(result.usage.llm_calls)
        retrieval.append(result.usage.retrieval_calls)
    print(json.dumps({"times": times, "llm": llm, "retrieval": retrieval}))


def child_calls(set_path: str, strategy: str, limit: int) -> None:
    from engine.config import EngineConfig
    from engine.eval import load_eval_set, run_eval

    report = run_eval(
        load_eval_set(Path(set_path), limit=limit, answerable_only=True), [strategy], config=EngineConfig()
    )
    s = report.summary(strategy)
    assert s is not None
    print(json.dumps({"set": report.set_name, "n": s.n, "llm": s.llm_calls or 0, "retrieval": s.retrieval_calls or 0,
                      "queries": s.unique_queries or 0, "recall": s.recall, "p95_ms": s.latency_p95_ms or 0}))  # fmt: skip


def latency(docs: list[Path], strategies: list[str], runs: int, count: int) -> list[str]:
    from engine.config import EngineConfig, LibraryConfig
    from engine.library.local import Library

    header = f"{'document':<40} {'pages':>5} {'strategy':<13} {'first s':>13} {'p50 s':>13} {'p95 s':>13} {'llm':>5} {'retr':>5}  goal"
    lines = [header]
    with tempfile.TemporaryDirectory() as folder:
        library = Library(EngineConfig(library=LibraryConfig(path=folder)))
        for path in docs:
            entry = library.ingest(path.read_bytes(), path.name)
            library.wait_for_background()
            questions = questions_for(path, library.parsed(entry.doc_id), count)
            qfile = Path(folder) / f"{entry.doc_id[:8]}.json"
            qfile.write_text(json.dumps(questions), encoding="utf-8")
            for strategy in strategies:
                results = [
                    run_child(Path(__file__), ["--latency", folder, entry.doc_id, strategy, str(qfile)])
                    for _ in range(runs)
                ]
                first = [r["times"][0] for r in results]
                p50 = [percentile(r["times"][1:], 50) for r in results]
                p95 = [percentile(r["times"][1:], 95) for r in results]
                llm = sum(sum(r["llm"]) for r in results) / sum(len(r["llm"]) for r in results)
                retr = sum(sum(r["retrieval"]) for r in results) / sum(len(r["retrieval"]) for r in results)
                goal = next(s for pages, s in sorted(GOALS_S.items()) if entry.total_pages <= pages)
                verdict = f"p95 < {goal:g} s: {'PASS' if sorted(p95)[len(p95) // 2] < goal else 'FAIL'}"
                lines.append(
                    f"{path.name[:40]:<40} {entry.total_pages:>5} {strategy:<13} {min_median(first):>13} "
                    f"{min_median(p50):>13} {min_median(p95):>13} {llm:>5.2f} {retr:>5.1f}  "
                    + (verdict if strategy == "dispatched" else "")
                )
            lines.append(f"  ({len(questions)} questions, {runs} fresh processes per strategy: min / median)")
    return lines


def calls(sets: list[str], strategies: list[str], limit: int) -> list[str]:
    lines = [
        f"{'set':<20} {'strategy':<14} {'n':>4} {'llm/q':>6} {'retr/q':>7} {'uq/q':>6} {'recall':>7} {'p95 ms':>8}"
    ]
    for name in sets:
        path = EVAL / name
        if not path.is_file():
            lines.append(f"{name}: not found, skipped")
            continue
        for strategy in strategies:
            r = run_child(Path(__file__), ["--calls", str(path), strategy, str(limit)], timeout=3600)
            recall = r["recall"] if r["recall"] is not None else float("nan")
            lines.append(
                f"{r['set']:<20} {strategy:<14} {r['n']:>4} {r['llm']:>6.2f} {r['retrieval']:>7.1f} "
                f"{r['queries']:>6.1f} {recall:>7.3f} {r['p95_ms']:>8.0f}"
            )
    return lines


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["--latency"]:
        child_latency(*args[1:5])
        return 0
    if args[:1] == ["--calls"]:
        child_calls(args[1], args[2], int(args[3]))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--docs", nargs="*", type=Path, default=list(DEFAULT_DOCS))
    parser.add_argument("--strategies", default="single_pass,dispatched,auto,dynamic,plan_execute")
    parser.add_argument("--sets", default=",".join(DEFAULT_SETS))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--questions", type=int, default=9)
    parser.add_argument("--limit", type=int, default=15, help="questions per eval set for the call counts")
    parser.add_argument("--skip-calls", action="store_true")
    options = parser.parse_args(args)
    if not CORPUS.is_dir():
        print("skipped: ../shared/corpus is not available on this machine")
        return 0
    strategies = [s.strip() for s in options.strategies.split(",") if s.strip()]
    docs = [d for d in options.docs if d.is_file()]
    for missing in (d for d in options.docs if not d.is_file()):
        print(f"skipped (not found): {missing}")
    print("\n".join(latency(docs, strategies, max(1, options.runs), max(2, options.questions))), flush=True)
    if not options.skip_calls:
        print()
        print("\n".join(calls([s for s in options.sets.split(",") if s], strategies, options.limit)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
