"""How far an answer's confidence can be trusted: confidence bins against the share of answers right.

A run is right when it states the gold value (where one can be scored) and cites a gold page (where
gold pages exist); wrong otherwise. For a calibrated engine the share right in each bin is close to
the bin's confidence. Pure: reads scored rows only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from engine.eval.metrics import QuestionScore

EDGES = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0001)
"""Bin edges: [0, 0.2), [0.2, 0.4), ... [0.8, 1.0]."""


@dataclass(frozen=True)
class ReliabilityBin:
    """One confidence bin of one strategy."""

    strategy: str
    low: float
    high: float
    n: int
    right: int
    complete: int
    """Answers in the bin marked complete."""

    @property
    def share_right(self) -> float | None:
        return self.right / self.n if self.n else None


def reliability(rows: Sequence[QuestionScore]) -> list[ReliabilityBin]:
    """One bin per (strategy, confidence range) over the rows that can be judged right or wrong."""
    bins: list[ReliabilityBin] = []
    for strategy in dict.fromkeys(r.strategy for r in rows):
        judged = [r for r in rows if r.strategy == strategy and r.error is None and r.wrong is not None]
        for low, high in pairwise(EDGES):
            inside = [r for r in judged if low <= r.confidence < high]
            bins.append(
                ReliabilityBin(
                    strategy=strategy, low=low, high=min(high, 1.0), n=len(inside),
                    right=sum(1 for r in inside if not r.wrong), complete=sum(1 for r in inside if r.complete),
                )
            )  # fmt: skip
    return bins


def format_reliability(bins: Sequence[ReliabilityBin]) -> str:
    """A table: strategy, confidence range, answers, share right, answers marked complete."""
    lines = [f"{'strategy':<14}{'confidence':<12}{'n':>5}{'right':>8}{'complete':>10}"]
    for b in bins:
        share = "-" if b.share_right is None else f"{b.share_right:.2f}"
        lines.append(f"{b.strategy:<14}{f'{b.low:.1f}-{b.high:.1f}':<12}{b.n:>5}{share:>8}{b.complete:>10}")
    return "\n".join(lines)


def feature_rows(report_rows: Sequence[QuestionScore], set_name: str, docs: dict[str, tuple[str, ...]]) -> list[dict]:
    """One record per judged run with features: set, question id, documents, strategy, right, features
    (what ``python -m engine calibrate`` fits on)."""
    return [
        {
            "set": set_name, "id": r.question_id, "docs": list(docs.get(r.question_id, ())), "strategy": r.strategy,
            "right": None if r.wrong is None else not r.wrong, "features": r.features.model_dump(),
        }
        for r in report_rows if r.features is not None and r.error is None
    ]  # fmt: skip
