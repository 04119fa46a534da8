"""How far an answer's confidence can be trusted: reliability bins, the selective-accuracy curve, AUC.

A run is right when it states the gold value and cites a gold page (where gold pages exist), or, for
an unanswerable question, declines (``QuestionScore.answer_right``); a run whose gold answer cannot be
scored (a free-form paragraph) is left out: citing a gold page does not make an answer right. For a calibrated engine the share right in each bin is close to
the bin's mean confidence. The selective-accuracy curve answers: keep only the answers at or above a
confidence, what share of all answers is kept (coverage) and what share of those is right. The AUC is
the chance that a right stated answer has a higher confidence than a wrong one (0.5 is chance). Pure:
reads scored rows, or (confidence, right) pairs, only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from pydantic import BaseModel, ConfigDict, Field

from engine.eval.metrics import QuestionScore
from engine.reading.calibration import answer_kind

EDGES = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0001)
"""Bin edges: [0, 0.2), [0.2, 0.4), ... [0.8, 1.0]."""
CURVE_POINTS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)
"""The confidence floors of the selective-accuracy curve."""


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
    mean_confidence: float | None = None

    @property
    def share_right(self) -> float | None:
        return self.right / self.n if self.n else None

    @property
    def gap(self) -> float | None:
        """|mean confidence - share right| (None for an empty bin)."""
        if self.share_right is None or self.mean_confidence is None:
            return None
        return abs(self.mean_confidence - self.share_right)


def _judged(rows: Sequence[QuestionScore], strategy: str) -> list[QuestionScore]:
    return [r for r in rows if r.strategy == strategy and r.error is None and r.answer_right is not None]


def bins_of(
    pairs: Sequence[tuple[float, bool]], strategy: str = "", complete: Sequence[bool] | None = None
) -> list[ReliabilityBin]:
    """Reliability bins of (confidence, right) pairs (``complete``: which were marked complete)."""
    marks = list(complete) if complete is not None else [False] * len(pairs)
    bins = []
    for low, high in pairwise(EDGES):
        inside = [(c, ok, m) for (c, ok), m in zip(pairs, marks, strict=True) if low <= c < high]
        mean = sum(c for c, _, _ in inside) / len(inside) if inside else None
        bins.append(
            ReliabilityBin(
                strategy=strategy, low=low, high=min(high, 1.0), n=len(inside), right=sum(ok for _, ok, _ in inside),
                complete=sum(m for _, _, m in inside), mean_confidence=mean,
            )
        )  # fmt: skip
    return bins


def reliability(rows: Sequence[QuestionScore]) -> list[ReliabilityBin]:
    """One bin per (strategy, confidence range) over the rows that can be judged right or wrong."""
    bins: list[ReliabilityBin] = []
    for strategy in dict.fromkeys(r.strategy for r in rows):
        judged = _judged(rows, strategy)
        pairs = [(r.confidence, bool(r.answer_right)) for r in judged]
        bins += bins_of(pairs, strategy, [r.complete for r in judged])
    return bins


def format_reliability(bins: Sequence[ReliabilityBin]) -> str:
    """A table: strategy, confidence range, answers, mean confidence, share right, |gap|, marked complete."""
    lines = [f"{'strategy':<14}{'confidence':<12}{'n':>5}{'mean':>7}{'right':>8}{'|gap|':>7}{'complete':>10}"]
    for b in bins:
        share = "-" if b.share_right is None else f"{b.share_right:.2f}"
        mean = "-" if b.mean_confidence is None else f"{b.mean_confidence:.2f}"
        gap = "-" if b.gap is None else f"{b.gap:.2f}"
        lines.append(
            f"{b.strategy:<14}{f'{b.low:.1f}-{b.high:.1f}':<12}{b.n:>5}{mean:>7}{share:>8}{gap:>7}{b.complete:>10}"
        )
    return "\n".join(lines)


class CurvePoint(BaseModel):
    """One point of the selective-accuracy curve: answers at or above ``floor``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    floor: float
    coverage: float = Field(description="Share of the judged answers at or above the floor.")
    kept: int
    share_right: float | None = Field(None, description="Share of the kept answers that are right.")


class BinFigure(BaseModel):
    """One reliability bin as the JSON report carries it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    low: float
    high: float
    n: int
    mean_confidence: float | None = None
    share_right: float | None = None
    complete: int = 0


class CalibrationSummary(BaseModel):
    """The calibration figures of one strategy: the selective-accuracy curve, AUC and claims."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    strategy: str
    judged: int
    bins: tuple[BinFigure, ...] = ()
    curve: tuple[CurvePoint, ...] = ()
    stated: int = Field(0, description="Judged answers that state an answer (not declined).")
    auc: float | None = Field(
        None, description="AUC of confidence, right against wrong, among stated answers (not declines, not answers "
        "that only offer the closest passages)."
    )  # fmt: skip
    claimed: int = Field(0, description="Judged answers marked complete.")
    claimed_right: float | None = Field(None, description="Share of the claimed answers that are right.")
    max_gap: float | None = Field(None, description="Largest |mean confidence - share right| of a non-empty bin.")


def selective_curve(pairs: Sequence[tuple[float, bool]], floors: Sequence[float] = CURVE_POINTS) -> list[CurvePoint]:
    """Coverage and share right of the answers at or above each confidence floor."""
    points = []
    for floor in floors:
        kept = [ok for c, ok in pairs if c >= floor]
        points.append(
            CurvePoint(
                floor=floor, coverage=round(len(kept) / len(pairs), 4) if pairs else 0.0, kept=len(kept),
                share_right=round(sum(kept) / len(kept), 4) if kept else None,
            )
        )  # fmt: skip
    return points


def auc(pairs: Sequence[tuple[float, bool]]) -> float | None:
    """The chance that a right answer's confidence is above a wrong one's (ties count half); None
    without both kinds."""
    right = [c for c, ok in pairs if ok]
    wrong = [c for c, ok in pairs if not ok]
    if not right or not wrong:
        return None
    wins = sum(1.0 if r > w else 0.5 if r == w else 0.0 for r in right for w in wrong)
    return round(wins / (len(right) * len(wrong)), 4)


def summarize_calibration(rows: Sequence[QuestionScore]) -> tuple[CalibrationSummary, ...]:
    """One ``CalibrationSummary`` per strategy."""
    out = []
    for strategy in dict.fromkeys(r.strategy for r in rows):
        judged = _judged(rows, strategy)
        pairs = [(r.confidence, bool(r.answer_right)) for r in judged]
        stated = [(r.confidence, bool(r.answer_right)) for r in judged if not _declined(r)]
        claimed = [bool(r.answer_right) for r in judged if r.complete]
        bins = bins_of(pairs, strategy, [r.complete for r in judged])
        gaps = [b.gap for b in bins if b.gap is not None]
        figures = tuple(
            BinFigure(
                low=b.low, high=b.high, n=b.n, complete=b.complete,
                mean_confidence=None if b.mean_confidence is None else round(b.mean_confidence, 4),
                share_right=None if b.share_right is None else round(b.share_right, 4),
            )
            for b in bins
        )  # fmt: skip
        out.append(
            CalibrationSummary(
                strategy=strategy, judged=len(judged), bins=figures, curve=tuple(selective_curve(pairs)),
                stated=len(stated),
                auc=auc(stated), claimed=len(claimed),
                claimed_right=round(sum(claimed) / len(claimed), 4) if claimed else None,
                max_gap=round(max(gaps), 4) if gaps else None,
            )
        )  # fmt: skip
    return tuple(out)


def _declined(row: QuestionScore) -> bool:
    """A decline, or passages offered only as the closest found: no answer is stated."""
    return answer_kind(row.features) != "stated" if row.features is not None else False


def format_calibration(summaries: Sequence[CalibrationSummary]) -> str:
    """The selective-accuracy curve (coverage against share right) and AUC, one block per strategy."""
    lines = []
    for s in summaries:
        auc_text = "-" if s.auc is None else f"{s.auc:.3f}"
        claimed = "-" if s.claimed_right is None else f"{s.claimed_right:.2f}"
        lines.append(
            f"{s.strategy}: {s.judged} judged, AUC (stated answers, n={s.stated}) {auc_text}; "
            f"claimed complete {s.claimed}, right among them {claimed}"
        )
        lines.append(f"  {'conf >=':<9}{'kept':>6}{'coverage':>10}{'right':>8}")
        for p in s.curve:
            share = "-" if p.share_right is None else f"{p.share_right:.2f}"
            lines.append(f"  {p.floor:<9.1f}{p.kept:>6}{p.coverage:>10.2f}{share:>8}")
    return "\n".join(lines)


def feature_rows(report_rows: Sequence[QuestionScore], set_name: str, docs: dict[str, tuple[str, ...]]) -> list[dict]:
    """One record per judged run with features: set, question id, documents, strategy, right, features
    (what ``python -m engine calibrate`` fits on)."""
    return [
        {
            "set": set_name, "id": r.question_id, "docs": list(docs.get(r.question_id, ())), "strategy": r.strategy,
            "right": r.answer_right, "features": r.features.model_dump(),
        }
        for r in report_rows if r.features is not None and r.error is None
    ]  # fmt: skip
