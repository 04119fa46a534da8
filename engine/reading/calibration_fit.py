"""Fitting the calibration model: the named split, an L2-regularised logistic regression, the claim line.

Everything here is deterministic (Newton's method from zero weights, no random start, rows in the order
given) and pure: records in, a ``CalibrationModel`` out. The records are what
``python -m engine eval SET --dump-features FILE.jsonl`` writes: ``set``, ``id``, ``docs``, ``right``
(true, false, or null when the eval could not judge it) and ``features`` (an ``AnswerFeatures``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from engine.reading.calibration import AnswerFeatures, CalibrationModel, answer_kind, feature_vector

Split = Literal["train", "report"]

MODEL_FEATURES: tuple[str, ...] = (
    "rule_confidence", "rule_complete", "expects_number", "expects_yes_no",
    "type_match", "states_number", "term_coverage", "anchor_coverage", "page_score_share", "top_page_cited",
    "answer_citations", "cited_pages", "table_cited", "sides", "sides_covered", "multi_doc", "intent_listing",
    "intent_comparison", "intent_single_fact", "caveats", "caveat_period", "caveat_terms", "caveat_sides",
    "caveat_count", "caveat_pending", "caveat_type", "caveat_value", "caveat_incomplete", "exhausted",
    "iterations", "answer_words", "answer_term_coverage", "asks_period", "period_match", "answer_numbers",
    "cited_rank", "support_citations", "loop_used", "periods_asked", "asks_difference", "asks_quotient",
    "question_parts",
    "complete_confidence", "complete_value",
    "complete_computed",
)  # fmt: skip
"""The features the stated answers' model reads (declines and closest-passage answers get their kind's
rate). ``backend_openai`` is recorded but left out until the training split
holds openai-backend runs: a weight fitted on offline runs only would say nothing about it."""

DEFAULT_L2 = 3.0
"""Penalty on the squared weights (features standardised) when none is chosen by cross-validation."""
L2_GRID = (0.1, 0.3, 1.0, 3.0, 10.0, 30.0, 100.0)
"""The penalties ``choose_l2`` tries: from nearly free weights to weights held close to zero."""
FOLDS = 5
"""Cross-validation folds of the training split, by document (all answers of one PDF in one fold)."""
CLAIM_PRECISION = 0.9
"""The share right the claim line promises: at least 90 % of the answers claimed complete are right."""
PRIOR_WEIGHT = 2
"""How many answers' weight the split's share right has in a kind's rate (``_rate``)."""
MIN_CLAIMED = 5
"""A claim line must rest on at least this many training answers above it (fewer prove nothing)."""


def document_split(records: Sequence[Mapping]) -> dict[tuple[str, str], Split]:
    """(set, question id) -> split. Per set, its distinct documents (a question by its first document)
    sorted by path alternate: even positions train, odd positions report. A set whose questions all ask
    one document (a multi-hop corpus in one PDF) alternates by question, in the set's order."""
    docs: dict[str, set[str]] = {}
    for record in records:
        docs.setdefault(record["set"], set()).add(_first_doc(record))
    position = {(s, d): i for s, names in docs.items() for i, d in enumerate(sorted(names))}
    order: dict[str, int] = {}
    split: dict[tuple[str, str], Split] = {}
    for r in records:
        key = (r["set"], r["id"])
        if len(docs[r["set"]]) > 1:
            split[key] = "train" if position[(r["set"], _first_doc(r))] % 2 == 0 else "report"
        else:
            index = order[r["set"]] = order.get(r["set"], -1) + 1
            split[key] = "train" if index % 2 == 0 else "report"
    return split


def _first_doc(record: Mapping) -> str:
    docs = record.get("docs") or [""]
    return str(docs[0])


@dataclass(frozen=True)
class Rows:
    """Judged records as arrays."""

    features: list[AnswerFeatures]
    right: np.ndarray


def judged(records: Sequence[Mapping]) -> Rows:
    """The records the eval judged right or wrong."""
    kept = [r for r in records if r.get("right") is not None]
    return Rows(
        features=[AnswerFeatures.model_validate(r["features"]) for r in kept],
        right=np.array([1.0 if r["right"] else 0.0 for r in kept]),
    )


def fit_logistic(
    x: np.ndarray, y: np.ndarray, l2: float = DEFAULT_L2, iterations: int = 50
) -> tuple[np.ndarray, float]:
    """Weights and intercept minimising the log loss plus ``l2`` * |w|^2 / 2 (the intercept unpenalised),
    by Newton's method from zero; ``x`` is already standardised."""
    n, k = x.shape
    design = np.hstack([np.ones((n, 1)), x])
    beta = np.zeros(k + 1)
    penalty = np.full(k + 1, float(l2))
    penalty[0] = 0.0
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-np.clip(design @ beta, -40, 40)))
        gradient = design.T @ (p - y) + penalty * beta
        hessian = design.T @ (design * (p * (1 - p))[:, None]) + np.diag(penalty) + 1e-9 * np.eye(k + 1)
        step = np.linalg.solve(hessian, gradient)
        beta -= step
        if float(np.max(np.abs(step))) < 1e-10:
            break
    return beta[1:], float(beta[0])


def choose_claim_line(
    confidence: np.ndarray, right: np.ndarray, claimable: np.ndarray, precision: float = CLAIM_PRECISION
) -> float:
    """The lowest confidence at which at least ``precision`` of the claimable answers at or above it are
    right (resting on ``MIN_CLAIMED`` answers at least); 1.0 (claim nothing) when no line qualifies."""
    for line in sorted({float(c) for c, ok in zip(confidence, claimable, strict=True) if ok}):
        above = claimable & (confidence >= line)
        if above.sum() >= MIN_CLAIMED and right[above].mean() >= precision:
            return round(line, 3)
    return 1.0


def claimable_mask(features: Sequence[AnswerFeatures]) -> np.ndarray:
    """Answers that may be claimed at all: stated, and complete by the rule checks."""
    return np.array([f.rule_complete and answer_kind(f) == "stated" for f in features], dtype=bool)


def fit_model(
    records: Sequence[Mapping],
    names: Sequence[str] = MODEL_FEATURES,
    l2: float = DEFAULT_L2,
    trained_on: str = "",
    recalibrate: bool = True,
) -> CalibrationModel:
    """A model fitted on ``records`` (the training split) with its claim line.

    With ``recalibrate``, the penalty's shrinking of the logits (a penalised model says 0.3 where it
    means 0.1) is undone by a one-feature logistic fit of the labels on out-of-fold logits: the slope
    and shift that make held-out predictions match held-out outcomes."""
    every = judged(records)
    rates = {kind: _rate(every, kind) for kind in ("declined", "closest")}
    records = [r for r in records if answer_kind(AnswerFeatures.model_validate(r["features"])) == "stated"]
    rows = judged(records)
    if len(rows.features) < 2 or len(set(rows.right.tolist())) < 2:
        raise ValueError("the training records need both right and wrong stated answers")
    raw = np.array([feature_vector(f, names) for f in rows.features])
    means = raw.mean(axis=0)
    scales = raw.std(axis=0)
    scales[scales < 1e-9] = 1.0  # a constant feature: left unscaled, its weight stays at zero
    weights, intercept = fit_logistic((raw - means) / scales, rows.right, l2)
    model = CalibrationModel(
        features=tuple(names), weights=tuple(round(float(w), 6) for w in weights), intercept=round(intercept, 6),
        means=tuple(round(float(m), 6) for m in means), scales=tuple(round(float(s), 6) for s in scales),
        claim_threshold=1.0, l2=l2, trained_on=trained_on, train_rows=len(every.features),
        declined_rate=rates["declined"], closest_rate=rates["closest"],
    )  # fmt: skip
    if recalibrate:
        logits, labels = out_of_fold(records, names, l2)
        if len(set(labels.tolist())) == 2:
            (slope,), shift = fit_logistic(logits[:, None], labels, l2=0.0)
            model = model.model_copy(update={"slope": round(float(slope), 6), "shift": round(shift, 6)})
    confidence = np.array([model.probability(f) for f in rows.features])
    line = choose_claim_line(np.round(confidence, 3), rows.right, claimable_mask(rows.features))
    return model.model_copy(update={"claim_threshold": line})


def _rate(rows: Rows, kind: str) -> float:
    """The share right among the training answers of one kind, drawn towards the training split's share
    right by two answers' weight: a kind seen a few times is not called certain, and a kind never seen
    (no declines once weak readings are stated) gets the split's share right, not an even chance."""
    overall = float(np.mean(rows.right)) if len(rows.right) else 0.5
    inside = [bool(y) for f, y in zip(rows.features, rows.right, strict=True) if answer_kind(f) == kind]
    return round((sum(inside) + PRIOR_WEIGHT * overall) / (len(inside) + PRIOR_WEIGHT), 4)


def _folds(records: Sequence[Mapping]) -> list[int]:
    """The fold of each record: by document (sorted, dealt in turns), or by question when a set has one
    document only."""
    split_docs: dict[str, set[str]] = {r["set"]: set() for r in records}
    for r in records:
        split_docs[r["set"]].add(_first_doc(r))
    keys = [
        f"{r['set']}/{_first_doc(r)}" if len(split_docs[r["set"]]) > 1 else f"{r['set']}#{r['id']}" for r in records
    ]
    fold = {key: i % FOLDS for i, key in enumerate(sorted(set(keys)))}
    return [fold[key] for key in keys]


def out_of_fold(records: Sequence[Mapping], names: Sequence[str], l2: float) -> tuple[np.ndarray, np.ndarray]:
    """(logit, right) of every judged stated answer, each predicted by a model fitted on the other folds."""
    kept = [
        r for r in records
        if r.get("right") is not None and answer_kind(AnswerFeatures.model_validate(r["features"])) == "stated"
    ]  # fmt: skip
    folds = _folds(kept)
    logits, labels = [], []
    for k in range(FOLDS):
        train = [r for r, f in zip(kept, folds, strict=True) if f != k]
        test = [r for r, f in zip(kept, folds, strict=True) if f == k]
        if not test or len({bool(r["right"]) for r in train}) < 2:
            continue
        model = fit_model(train, names, l2, recalibrate=False)
        rows = judged(test)
        logits += [model.logit(f) for f in rows.features]
        labels += rows.right.tolist()
    return np.array(logits), np.array(labels)


def log_loss(logits: np.ndarray, labels: np.ndarray) -> float:
    p = np.clip(1.0 / (1.0 + np.exp(-logits)), 1e-6, 1 - 1e-6)
    return float(-np.mean(labels * np.log(p) + (1 - labels) * np.log(1 - p)))


def choose_l2(
    records: Sequence[Mapping], names: Sequence[str] = MODEL_FEATURES, grid: Sequence[float] = L2_GRID
) -> float:
    """The penalty of ``grid`` with the lowest out-of-fold log loss on ``records`` (the training split
    only; folds by document, so each fold is scored on PDFs its model never saw)."""
    best, best_loss = DEFAULT_L2, math.inf
    for l2 in grid:
        logits, labels = out_of_fold(records, names, l2)
        if len(labels) and len(set(labels.tolist())) == 2 and (loss := log_loss(logits, labels)) < best_loss - 1e-12:
            best, best_loss = l2, loss
    return best


def predictions(model: CalibrationModel, records: Sequence[Mapping]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(calibrated confidence, right, claimed) of the judged records."""
    rows = judged(records)
    confidence = np.array([round(model.probability(f), 3) for f in rows.features])
    claimed = claimable_mask(rows.features) & (confidence >= model.claim_threshold)
    return confidence, rows.right, claimed
