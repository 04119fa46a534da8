"""Evaluation harness: question sets -> runs -> metrics per strategy and question type.

Public functions (the Evaluate page and the CLI use only these):
``load_eval_set``, ``parse_eval_lines``, ``run_eval``, ``format_report``, ``summary_rows``,
``write_report``, ``bundled_sets``, ``corpus_folders`` and the models ``EvalSet``, ``EvalQuestion``, ``EvalReport``,
``EvalProgress``, ``Summary``, ``QuestionScore``.
"""

from __future__ import annotations

from engine.eval.dataset import (
    DEFAULT_CORPUS,
    SETS_DIR,
    EvalQuestion,
    EvalSet,
    corpus_folders,
    load_eval_set,
    parse_eval_lines,
)
from engine.eval.metrics import DEFAULT_PRICE_PER_1K, QuestionScore, Summary
from engine.eval.report import format_report, summary_rows, write_report
from engine.eval.runner import BASELINE_TOP5, EVAL_STRATEGIES, EvalProgress, EvalReport, parse_strategies, run_eval


def bundled_sets() -> tuple[str, ...]:
    """Names of the question sets shipped with the engine (``sample`` ...)."""
    return tuple(sorted(p.stem for p in SETS_DIR.glob("*.jsonl")))


__all__ = [
    "BASELINE_TOP5",
    "DEFAULT_CORPUS",
    "DEFAULT_PRICE_PER_1K",
    "EVAL_STRATEGIES",
    "EvalProgress",
    "EvalQuestion",
    "EvalReport",
    "EvalSet",
    "QuestionScore",
    "Summary",
    "bundled_sets",
    "corpus_folders",
    "format_report",
    "load_eval_set",
    "parse_eval_lines",
    "parse_strategies",
    "run_eval",
    "summary_rows",
    "write_report",
]
