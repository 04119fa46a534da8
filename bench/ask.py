"""Offline end-to-end latency and call counts per strategy.

    python bench/ask.py [--docs A.pdf B.pdf] [--strategies single_pass,dispatched,auto] [--limit 15]

1. Latency: each document is ingested (once; the library caches it), a handful of generic questions
   are built from its outline/headings, and every strategy answers each of them; p50/p95 of the
   wall-clock time per question. Goals: dispatched p95 < 300 ms on the 15-page paper, < 1.5 s on the
   468-page manual.
2. Calls: mean LLM calls and retrieval calls per question per strategy on the first ``--limit``
   questions of each ../shared/eval set (offline backend).

Skips cleanly (exit 0) when ../shared is absent.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.config import REPO_ROOT, EngineConfig

SHARED = REPO_ROOT.parent / "shared"
DEFAULT_DOCS = (
    SHARED / "corpus" / "papers" / "attention_is_all_you_need.pdf",
    SHARED / "corpus" / "manuals" / "mmdetection-readthedocs-io-en-v2.18.0.pdf",
)
GOALS_MS = {15: 300.0, 10_000: 1500.0}  # pages up to -> dispatched p95 goal
DEFAULT_SETS = ("mmlongbench.jsonl", "financebench.jsonl", "hotpotqa40.jsonl")
TEMPLATES = (
    "What does the section on {t} describe?",
    "How is {t} defined or used?",
    "What are the main points about {t}?",
)


def heading_questions(parsed, count: int = 6) -> list[str]:
    """Generic questions from the document's outline (or heading chunks), spread over the document."""
    titles = [e.title for e in parsed.toc if 3 <= len(e.title) <= 80]
    if not titles:
        titles = [c.text for c in parsed.chunks if c.kind == "heading" and 3 <= len(c.text) <= 80]
    if not titles:
        titles = [" ".join(c.text.split()[:6]) for c in parsed.chunks[:: max(1, len(parsed.chunks) // count)]]
    step = max(1, len(titles) // count)
    picked = titles[::step][:count]
    return [TEMPLATES[i % len(TEMPLATES)].format(t=t.strip().rstrip(".")) for i, t in enumerate(picked)]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    position = (len(ordered) - 1) * q / 100
    low, high = int(position), min(int(position) + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def latency(docs: list[Path], strategies: list[str], config: EngineConfig) -> list[str]:
    from engine.api import answer
    from engine.library import Library
    from engine.llm import make_backend

    library, backend = Library(config), make_backend(config.backend)
    lines = [
        f"{'document':<44} {'pages':>5} {'strategy':<14} {'n':>3} {'p50 ms':>8} {'p95 ms':>8} {'llm':>5} {'retr':>5}  goal"
    ]
    for path in docs:
        started = time.monotonic()
        entry = library.ingest(path.read_bytes(), path.name)
        ingest_s = time.monotonic() - started
        questions = heading_questions(library.parsed(entry.doc_id))
        answer(questions[0], [entry.doc_id], config=config, library=library, backend=backend, strategy="single_pass")
        for strategy in strategies:
            times, llm, retr = [], [], []
            for question in questions:
                t0 = time.monotonic()
                result = answer(
                    question, [entry.doc_id], config=config, library=library, backend=backend, strategy=strategy
                )
                times.append((time.monotonic() - t0) * 1000)
                llm.append(result.usage.llm_calls)
                retr.append(result.usage.retrieval_calls)
            p95 = percentile(times, 95)
            goal = next(ms for pages, ms in sorted(GOALS_MS.items()) if entry.total_pages <= pages)
            verdict = (f"p95<{goal:.0f}: {'PASS' if p95 < goal else 'FAIL'}") if strategy == "dispatched" else ""
            lines.append(
                f"{path.name[:44]:<44} {entry.total_pages:>5} {strategy:<14} {len(times):>3} {percentile(times, 50):>8.0f} "
                f"{p95:>8.0f} {sum(llm) / len(llm):>5.2f} {sum(retr) / len(retr):>5.1f}  {verdict}"
            )
        lines.append(f"  (ingest/load {ingest_s:.1f} s; questions: {questions[:2]} ...)")
    return lines


def calls(sets: list[str], strategies: list[str], limit: int, config: EngineConfig) -> list[str]:
    from engine.eval import load_eval_set, run_eval

    lines = [
        f"{'set':<20} {'strategy':<14} {'n':>4} {'llm/q':>6} {'retr/q':>7} {'uq/q':>6} {'recall':>7} {'p95 ms':>8}"
    ]
    for name in sets:
        path = SHARED / "eval" / name
        if not path.is_file():
            lines.append(f"{name}: not found, skipped")
            continue
        report = run_eval(load_eval_set(path, limit=limit, answerable_only=True), strategies, config=config)
        for strategy in report.strategies:
            s = report.summary(strategy)
            assert s is not None
            lines.append(
                f"{report.set_name:<20} {strategy:<14} {s.n:>4} {s.llm_calls or 0:>6.2f} {s.retrieval_calls or 0:>7.1f} "
                f"{s.unique_queries or 0:>6.1f} {s.recall if s.recall is not None else float('nan'):>7.3f} "
                f"{s.latency_p95_ms or 0:>8.0f}"
            )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--docs", nargs="*", type=Path, default=list(DEFAULT_DOCS))
    parser.add_argument("--strategies", default="single_pass,dispatched,auto,dynamic,plan_execute")
    parser.add_argument("--sets", default=",".join(DEFAULT_SETS))
    parser.add_argument("--limit", type=int, default=15, help="questions per eval set for the call counts")
    parser.add_argument("--skip-calls", action="store_true")
    args = parser.parse_args(argv)
    if not (SHARED / "corpus").is_dir():
        print("skipped: ../shared/corpus is not available on this machine")
        return 0
    os.environ.setdefault("LOUPE_NO_NETWORK", "1")
    config = EngineConfig()
    strategies = [s.strip() for s in args.strategies.split(",") if s.strip()]
    docs = [d for d in args.docs if d.is_file()]
    missing = [d for d in args.docs if not d.is_file()]
    for d in missing:
        print(f"skipped (not found): {d}")
    print("\n".join(latency(docs, strategies, config)))
    if not args.skip_calls:
        print()
        print("\n".join(calls([s for s in args.sets.split(",") if s], strategies, args.limit, config)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
