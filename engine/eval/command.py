"""``python -m engine eval SET.jsonl ...``: run, print tables, save the report.

``run_eval_command(args, config)`` is what ``engine/__main__.py`` calls; ``python -m engine.eval.command``
takes the same arguments (``add_eval_arguments``).
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from engine.config import EngineConfig
from engine.errors import LoupeError
from engine.eval.dataset import load_eval_set
from engine.eval.metrics import DEFAULT_PRICE_PER_1K
from engine.eval.reliability import feature_rows
from engine.eval.report import format_report, write_report
from engine.eval.runner import EvalProgress, parse_strategies, run_eval, with_backend
from engine.llm import BACKEND_NAMES

logger = logging.getLogger(__name__)


class StderrProgress:
    """A ``\\r`` counter on a terminal; otherwise one line every ``every`` runs."""

    def __init__(self, stream: TextIO | None = None, every: int = 10) -> None:
        self.stream = stream or sys.stderr
        self.every = every
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())

    def __call__(self, event: EvalProgress) -> None:
        if event.stage == "ingest":
            if event.done < event.total or not self.tty:
                self.stream.write(f"[ingest {event.done}/{event.total}] {event.message}\n")
            return
        line = f"[{event.done}/{event.total}] {event.message}"
        if self.tty:
            self.stream.write("\r" + line[:100].ljust(100) + ("\n" if event.done == event.total else ""))
        elif event.done % self.every == 0 or event.done == event.total:
            self.stream.write(line + "\n")
        self.stream.flush()


def run_eval_command(args: argparse.Namespace, config: EngineConfig) -> None:
    """Run the eval the parsed ``args`` describe; raises ``LoupeError`` on bad input."""
    strategies = parse_strategies(args.strategies)
    answerable_only = bool(getattr(args, "answerable_only", False))
    price = getattr(args, "price_per_1k", None)
    price = DEFAULT_PRICE_PER_1K if price is None else float(price)
    eval_set = load_eval_set(args.set, limit=args.limit, answerable_only=answerable_only)
    corpus = Path(args.corpus) if args.corpus else None
    if corpus is not None and not corpus.is_dir():
        raise LoupeError(f"{args.corpus}: no such corpus folder")
    config = with_backend(config, getattr(args, "backend", None))
    report = run_eval(eval_set, strategies, config=config, corpus=corpus, price_per_1k=price, progress=StderrProgress())
    path = write_report(report, Path(args.report) if args.report else None)
    dump = getattr(args, "dump_features", None)
    if dump:
        docs = {q.id: q.docs for q in eval_set.questions}
        write_feature_rows(Path(dump), feature_rows(report.rows, eval_set.name, docs))
    sys.stdout.write(format_report(report) + f"\nreport: {path}\n")
    if args.json:
        sys.stdout.write(report.model_dump_json() + "\n")
    sys.stdout.flush()


def write_feature_rows(path: Path, rows: Sequence[dict]) -> None:
    """Write feature records as JSON lines; raises ``LoupeError`` when the file cannot be written."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(json.dumps(row, sort_keys=True) + "\n" for row in rows), encoding="utf-8")
    except OSError as error:
        raise LoupeError(f"{path}: cannot write the features ({error})") from None


def add_eval_arguments(parser: argparse.ArgumentParser) -> None:
    """The eval command's arguments (shared by ``python -m engine eval`` and this module)."""
    parser.add_argument("set", help="a JSONL question set, or the name of a bundled one (sample)")
    parser.add_argument("--corpus", default=None, help="folder the set's doc paths are relative to")
    parser.add_argument(
        "--strategies", default="single_pass,auto", help="comma-separated; baseline_top5 is the peer recipe"
    )
    parser.add_argument("--backend", choices=BACKEND_NAMES, default="offline")
    parser.add_argument("--limit", type=int, default=None, help="keep the first N questions (after --answerable-only)")
    parser.add_argument("--answerable-only", action="store_true", help="skip questions marked unanswerable")
    parser.add_argument("--price-per-1k", type=float, default=None, help="price per 1000 tokens")
    parser.add_argument("--report", default=None, help="write the report JSON here")
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--dump-features", default=None, metavar="FILE.jsonl",
        help="write each judged answer's calibration features and whether it was right (one JSON a line)",
    )  # fmt: skip


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m engine.eval.command", description="Evaluate strategies on a JSONL set."
    )
    add_eval_arguments(parser)
    parser.add_argument("-v", "--verbose", action="store_true")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Stand-alone entry point with the extra flags; same exit codes as ``python -m engine``."""
    args = _parser().parse_args(argv)
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING, format="%(levelname)s %(name)s: %(message)s"
    )
    try:
        run_eval_command(args, EngineConfig())
    except (LoupeError, ValueError) as error:
        sys.stderr.write(f"error: {' '.join(str(error).split())}\n")
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
