"""Plain-text tables and JSON files of an ``EvalReport``."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from engine.config import REPO_ROOT
from engine.errors import LoupeError
from engine.eval.metrics import Summary
from engine.eval.reliability import format_calibration, format_reliability, reliability, summarize_calibration
from engine.eval.runner import EvalReport

REPORT_DIR = REPO_ROOT / "bench" / "out"

COLUMNS: tuple[tuple[str, str, str], ...] = (
    # (header, Summary field, format)
    ("n", "n", "d"),
    ("err", "errors", "d"),
    ("recall", "recall", ".3f"),
    ("prec", "precision", ".3f"),
    ("r_retr", "retrieved_recall", ".3f"),
    ("full", "full_recall_rate", ".2f"),
    ("sides", "side_coverage", ".2f"),
    ("match", "answer_match", ".3f"),
    ("declined", "declined", ".2f"),
    ("unans", "unanswerable_accuracy", ".2f"),
    ("n_conf", "n_confident", "d"),
    ("wrong@conf", "wrong_confident", ".2f"),
    ("pages", "mean_cited_pages", ".2f"),
    ("llm", "llm_calls", ".2f"),
    ("retr", "retrieval_calls", ".1f"),
    ("uq", "unique_queries", ".1f"),
    ("ctx_tok", "context_tokens", ".0f"),
    ("exh", "exhaustion_rate", ".2f"),
    ("p50ms", "latency_p50_ms", ".0f"),
    ("p95ms", "latency_p95_ms", ".0f"),
    ("$/ok", "cost_per_correct", ".4f"),
    ("llm/ok", "llm_calls_per_correct", ".1f"),
)


def _cell(value: object, fmt: str) -> str:
    if value is None:
        return "-"
    return format(value, fmt)


def summary_rows(summaries: Sequence[Summary]) -> list[dict[str, object]]:
    """Summaries as flat records (for a dataframe): strategy, slice and every column."""
    return [{"strategy": s.strategy, "slice": s.slice, **{h: getattr(s, f) for h, f, _ in COLUMNS}} for s in summaries]


def format_table(summaries: Sequence[Summary], first: str = "strategy") -> str:
    """A fixed-width table, one line per summary; ``first`` is "strategy" or "slice"."""
    other = "slice" if first == "strategy" else "strategy"
    head = [first, other, *(h for h, _, _ in COLUMNS)]
    body = [
        [getattr(s, first), getattr(s, other), *(_cell(getattr(s, f), fmt) for _, f, fmt in COLUMNS)] for s in summaries
    ]
    widths = [max(len(str(row[i])) for row in [head, *body]) for i in range(len(head))]
    lines = [
        "  ".join(
            str(c).ljust(w) if i < 2 else str(c).rjust(w) for i, (c, w) in enumerate(zip(row, widths, strict=False))
        )
        for row in [head, *body]
    ]
    return "\n".join(lines)


def format_report(report: EvalReport) -> str:
    """The human-readable report: settings, a table per strategy (all slices) and one per type."""
    lines = [
        f"set {report.set_name} ({report.questions} questions, {report.set_path}); backend {report.backend}; "
        f"strategies {', '.join(report.strategies)}; {report.seconds:.1f} s; config {report.config_fingerprint}",
    ]
    lines += [f"ingest failed: {failure}" for failure in report.ingest_failures]
    overall = [s for s in report.summaries if s.slice in ("all", "multi_page", "single_page")]
    lines += ["", "== per strategy", format_table(overall)]
    by_type = sorted((s for s in report.summaries if s.slice.startswith("type:")), key=lambda s: s.slice)
    if by_type:
        lines += ["", "== per question type", format_table(by_type, first="slice")]
    lines += ["", "recall/prec: cited evidence pages; r_retr: gold pages among all retrieved pages; full: share with every gold page cited;"
              " sides: share of a multi-document question's documents cited; match: answer match;"
              " n_conf / wrong@conf: answers marked complete at confidence >= 0.6 and the share of them that are wrong;"
              " unans: unanswerable accuracy; $/ok: token cost per correct answer"
              f" at {report.price_per_1k_tokens} per 1k tokens"]  # fmt: skip
    lines += ["", "== reliability (confidence against the share right: gold value stated and a gold page cited, or an unanswerable one declined)",
              format_reliability(reliability(report.rows))]  # fmt: skip
    lines += ["", "== selective accuracy (answers at or above a confidence: share kept, share right of those)",
              format_calibration(report.calibration or summarize_calibration(report.rows))]  # fmt: skip
    errors = [r for r in report.rows if r.error]
    if errors:
        lines += [
            "",
            f"{len(errors)} failed run(s), e.g. {errors[0].question_id} [{errors[0].strategy}]: {errors[0].error}",
        ]
    return "\n".join(lines)


def default_report_path(set_name: str, now: datetime | None = None) -> Path:
    """bench/out/eval-<set>-<UTC timestamp>.json."""
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%dT%H%M%SZ")
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", set_name) or "set"
    return REPORT_DIR / f"eval-{safe}-{stamp}.json"


def write_report(report: EvalReport, path: Path | None = None) -> Path:
    """Write the report JSON (default ``default_report_path``); returns the path written."""
    target = Path(path) if path else default_report_path(report.set_name)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(report.model_dump_json(indent=1), encoding="utf-8")
    except OSError as error:
        raise LoupeError(f"{target}: cannot write the report ({error})") from None
    return target
