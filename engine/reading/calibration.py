"""Calibrated confidence: the probability that a run's answer is right, from features code computes.

The rule engine's own confidence (``extractive``, the value reader) is a score built by hand; it ranks
answers poorly. Here a small logistic regression maps checked features of the final answer (what kind
of answer it is, how much of the question its cited passages name, whether two retrievers agree on the
cited page, which caveats it carries, ...) to the probability of being right. Its weights, intercept and
feature scaling live in ``calibration_weights.json`` beside this module, fitted by
``python -m engine calibrate`` (``engine.reading.calibration_fit``) on a named training split and
reported on a split the fit never saw:

- the question sets: ``financebench.jsonl``, ``mmlongbench.jsonl`` (unanswerable questions included),
  ``hotpotqa40.jsonl`` and ``uda.jsonl`` of ``../shared/eval``, run with the auto strategy and the offline
  backend (``engine.cli.calibrate.TRAINING_SETS``); ``crossdoc_dev.jsonl`` is left out, as none of its gold
  answers can be scored;
- the split is by document: the distinct documents of each set (a multi-document question by its first
  document), sorted by path, alternate: even positions train, odd positions report. All questions about
  one PDF fall on one side, so the report measures answers over documents the fit never saw. A set whose
  questions all ask one PDF (hotpotqa40) alternates by question instead
  (``engine.reading.calibration_fit.document_split``).

"Right" is ``engine.eval.metrics.QuestionScore.answer_right``: the gold value is stated and a gold page
is cited; for an unanswerable question, the run declined. Answers whose gold cannot be scored (a
free-form paragraph) are left out of the fit.

The claim line (``CLAIM_THRESHOLD``) is chosen on the training split: the lowest confidence at which
at least 90 % of the answers at or above it are right. An answer under it is never claimed complete; it
keeps its text (the best-supported reading) and carries a caveat saying it is not verified.

Pure: no I/O beyond reading the weights file once.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.contracts import AnswerWithEvidence, Caveat, CaveatKind, RunResult, caveat
from engine.documents.text import stems
from engine.reading.answer_type import asks_difference, asks_quotient, expected_type, states_type
from engine.reading.passages import coverage, term_stems
from engine.reading.periods import periods_in

WEIGHTS_PATH = Path(__file__).with_name("calibration_weights.json")


class AnswerFeatures(BaseModel):
    """What the calibration model reads of one final answer. Every field is computed by code from the
    answer, the parsed question, the cited chunks and the retrievers' page scores; none reads the
    question's wording beyond the parse every answer already gets."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    declined: bool = Field(False, description="The answer says the evidence holds no answer (answer_found false).")
    not_established: bool = Field(
        False, description="The run stated its passages as the closest found, not as an answer (under the rule line)."
    )
    rule_confidence: float = Field(0.0, description="The rule engine's own confidence, before calibration.")
    rule_complete: bool = Field(False, description="The rule engine's checks called the answer complete.")
    expects_number: bool = Field(False, description="The question asks for a number, an amount or a count.")
    expects_yes_no: bool = Field(False, description="The question asks for a yes or a no.")
    type_match: bool = Field(
        False, description="The answer states the kind of answer asked (a number, a date, yes/no)."
    )
    states_number: bool = Field(False, description="The answer's text states a number.")
    term_coverage: float = Field(
        0.0, description="Share of the question's keywords named in the answer's cited passages."
    )
    anchor_coverage: float = Field(0.0, description="Share of the question's anchor keywords named there.")
    answer_term_coverage: float = Field(
        0.0, description="Share of the question's keywords the answer's own text names."
    )
    asks_period: bool = Field(False, description="The question names a year or quarter.")
    periods_asked: int = Field(0, description="Distinct years and quarters the question names.")
    asks_difference: bool = Field(False, description="The question asks for a change or difference (two values read).")
    asks_quotient: bool = Field(False, description="The question asks for a ratio of two values.")
    question_parts: int = Field(0, description="Parts of a multi-part question (0 or 1 for a single question).")
    period_match: float = Field(
        1.0,
        description="Share of the question's years and quarters the answer's text or cited passages name (1 without any).",
    )
    answer_numbers: float = Field(0.0, description="log(1 + distinct numbers the answer's text states).")
    cited_rank: float = Field(
        0.0,
        description="1 / the rank, by retrieval score, of the best-ranked page the answer cites (0 when it cites none).",
    )
    support_citations: int = Field(0, description="Supporting passages listed beside the answer (role support).")
    loop_used: bool = Field(False, description="The run went through a feedback loop or a plan (not a single pass).")
    page_score_share: float = Field(
        0.0, description="The best retrieval score (fused) of the answer's pages over the best of every retrieved page."
    )
    top_page_cited: bool = Field(
        False, description="The page with the best retrieval score is among the answer's pages."
    )
    answer_citations: int = Field(0, description="Citations the answer is built on (role answer).")
    cited_pages: int = Field(0, description="Distinct pages cited, supporting passages included.")
    table_cited: bool = Field(False, description="An answer citation quotes a table chunk.")
    sides: int = Field(0, description="Comparison sides of the question (0 when it compares nothing).")
    sides_covered: float = Field(1.0, description="Share of the sides the answer covers (1 without sides).")
    multi_doc: bool = Field(False, description="The question was asked over several documents.")
    intent_listing: bool = False
    intent_comparison: bool = False
    intent_single_fact: bool = False
    caveats: int = Field(0, description="Caveats of the answer, every kind.")
    caveat_period: bool = Field(False, description="A value's row or sentence names no period, or not the one asked.")
    caveat_terms: bool = Field(False, description="The cited passages miss some of the question's key terms.")
    caveat_sides: bool = Field(False, description="A side or part of the question is not covered.")
    caveat_count: bool = Field(False, description="Fewer items were found than the document announces.")
    caveat_pending: bool = Field(False, description="The evidence refers to a table or section that was not retrieved.")
    caveat_type: bool = Field(False, description="The cited passages state no answer of the kind asked.")
    caveat_value: bool = Field(
        False, description="A value read may not be the one asked (narrower row, amount for a ratio)."
    )
    caveat_incomplete: bool = Field(False, description="The run stopped before it could complete the answer.")
    exhausted: bool = Field(False, description="A budget ran out.")
    iterations: int = Field(0, description="Feedback passes after the first answer.")
    answer_words: float = Field(0.0, description="log(1 + words of the answer's text).")
    backend_openai: bool = Field(False, description="An OpenAI-compatible backend answered (else the offline rules).")


K = CaveatKind
CAVEAT_KINDS: tuple[tuple[str, frozenset[CaveatKind]], ...] = (
    # (feature, the caveat kinds it stands for); kinds not named here count in ``caveats`` only
    ("caveat_period", frozenset({K.VALUE_NO_PERIOD})),
    ("caveat_terms", frozenset({K.UNMATCHED, K.PARTIAL_MATCH, K.TERM_UNNAMED})),
    ("caveat_sides", frozenset({K.SIDE_NOT_FOUND, K.SIDE_UNCITED, K.PARTS_UNCOVERED})),
    ("caveat_count", frozenset({K.COUNT_SHORT})),
    ("caveat_pending", frozenset({K.PENDING_REFERENCE})),
    ("caveat_type", frozenset({K.TYPE_NOT_STATED})),
    (
        "caveat_value",
        frozenset(
            {
                K.VALUE_NOT_COUNT,
                K.VALUE_NOT_RATIO,
                K.VALUE_NARROWER,
                K.VALUE_DOUBTFUL,
                K.VALUES_MISSING,
                K.ONE_OF_TWO_VALUES,
                K.ONE_OF_TWO_TERMS,
            }
        ),
    ),
    ("caveat_incomplete", frozenset({K.STOPPED_EARLY, K.UNCLAIMED})),
)


def caveat_flags(caveats: Sequence[Caveat]) -> dict[str, bool]:
    """Which kinds of caveat an answer carries."""
    kinds = {c.kind for c in caveats}
    return {name: bool(kinds & group) for name, group in CAVEAT_KINDS}


_NUMBER = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?")
NOT_ESTABLISHED_LEAD = "The evidence does not establish an answer."


def features_of(result: RunResult) -> AnswerFeatures:
    """The features of ``result``'s answer (call it on the run before calibration: the rule confidence
    is one of them)."""
    answer, parsed = result.answer, result.parsed_question
    by_id = {c.chunk_id: c for c in result.evidence_chunks}
    own = [c for c in answer.citations if c.role == "answer"]
    texts = [
        f"{c.quote} {by_id[c.chunk_id].text if c.chunk_id in by_id else ''}"
        f" {' '.join(by_id[c.chunk_id].section_path[-1:]) if c.chunk_id in by_id else ''}"
        for c in own
    ]
    cited_stems = stems(" ".join(texts))
    keywords = term_stems(list(parsed.keywords))
    anchors = term_stems(list(parsed.retrieval.anchor_keywords) or list(parsed.keywords))
    pages = {(c.doc_id, c.page) for c in own}
    scores: dict[tuple[str, int], float] = {}
    for score in result.page_scores:
        scores[(score.doc_id, score.page)] = max(scores.get((score.doc_id, score.page), 0.0), score.score)
    top = max(scores.values(), default=0.0)
    best = max(scores, key=lambda page: scores[page], default=None)
    kind = expected_type(parsed.original_question)
    declined = not answer.answer_found
    ranked = sorted(scores, key=lambda page: -scores[page])
    cited_ranks = [ranked.index(p) + 1 for p in pages if p in scores]
    asked = set(periods_in(parsed.original_question))
    named = set(periods_in(" ".join([answer.text, *texts])))
    flags = caveat_flags(answer.caveats)
    return AnswerFeatures(
        declined=declined,
        not_established=answer.text.startswith(NOT_ESTABLISHED_LEAD),
        rule_confidence=answer.confidence,
        rule_complete=answer.complete_answer_found,
        expects_number=kind == "number" or parsed.asks_for_value,
        expects_yes_no=kind == "yes_no",
        type_match=kind is not None and not declined and states_type(answer.text, kind, parsed.original_question),
        states_number=not declined and bool(_NUMBER.search(answer.text)),
        term_coverage=round(coverage(keywords, cited_stems), 4) if own else 0.0,
        anchor_coverage=round(coverage(anchors, cited_stems), 4) if own else 0.0,
        answer_term_coverage=round(coverage(keywords, stems(answer.text)), 4) if not declined else 0.0,
        asks_period=bool(asked),
        periods_asked=len(asked),
        asks_difference=asks_difference(parsed.original_question),
        asks_quotient=asks_quotient(parsed.original_question),
        question_parts=len(parsed.parts),
        period_match=round(len(asked & named) / len(asked), 4) if asked else 1.0,
        answer_numbers=round(math.log1p(len(set(_NUMBER.findall(answer.text)))), 4) if not declined else 0.0,
        cited_rank=round(1 / min(cited_ranks), 4) if cited_ranks else 0.0,
        support_citations=sum(1 for c in answer.citations if c.role == "support"),
        loop_used=result.strategy_effective != "single_pass",
        page_score_share=round(max((scores.get(p, 0.0) for p in pages), default=0.0) / top, 4) if top > 0 else 0.0,
        top_page_cited=best is not None and best in pages,
        answer_citations=len(own),
        cited_pages=len({(c.doc_id, c.page) for c in answer.citations}),
        table_cited=any(by_id[c.chunk_id].kind == "table" for c in own if c.chunk_id in by_id),
        sides=len(parsed.sides),
        sides_covered=1.0 - len(set(answer.uncovered_sides)) / len(parsed.sides) if parsed.sides else 1.0,
        multi_doc=len(result.docs) > 1,
        intent_listing=parsed.intent == "listing",
        intent_comparison=parsed.intent == "comparison",
        intent_single_fact=parsed.intent == "single_fact",
        caveats=len(answer.caveats),
        **flags,
        exhausted=result.exhausted,
        iterations=max(0, len(result.history) - 1),
        answer_words=round(math.log1p(len(answer.text.split())), 4),
        backend_openai=result.backend == "openai",
    )


AnswerKind = Literal["declined", "closest", "stated"]


def answer_kind(f: AnswerFeatures) -> AnswerKind:
    """declined (no answer), closest (passages offered as the closest found, under the rule line) or
    stated (an answer stated as such): the model reads only stated answers; the other two kinds get the
    share right of their kind in the training split."""
    if f.declined:
        return "declined"
    return "closest" if f.not_established else "stated"


DERIVED: dict[str, Callable[[AnswerFeatures], float]] = {
    # products of two features: a linear model cannot tell on its own that a rule score means more for a
    # checked answer, or that a checked value is a different thing from a checked passage
    "complete_confidence": lambda f: f.rule_confidence if f.rule_complete else 0.0,
    "complete_value": lambda f: float(f.rule_complete and f.expects_number and f.states_number),
    "complete_computed": lambda f: float(f.rule_complete and (f.asks_difference or f.asks_quotient)),
}
"""Features the model may read that are computed from the recorded ones (named in the weights file)."""


def feature_vector(features: AnswerFeatures, names: Sequence[str]) -> list[float]:
    """The named features as numbers (a bool as 0 or 1; a ``DERIVED`` name computed)."""
    values = features.model_dump()
    return [DERIVED[name](features) if name in DERIVED else float(values[name]) for name in names]


class CalibrationModel(BaseModel):
    """For a stated answer, a fitted logistic regression: z = intercept + sum(w_i * (x_i - mean_i) /
    scale_i), and p = sigmoid(slope * z + shift); for a decline or a closest-passage answer, its kind's
    share right in the training split."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    features: tuple[str, ...]
    weights: tuple[float, ...]
    intercept: float
    means: tuple[float, ...]
    scales: tuple[float, ...]
    claim_threshold: float = Field(ge=0.0, le=1.0, description="The claim line chosen on the training split.")
    declined_rate: float = Field(0.5, description="Share right of the training split's declines.")
    closest_rate: float = Field(0.5, description="Share right of its closest-passage answers.")
    slope: float = Field(1.0, description="Recalibration of the logit, fitted on out-of-fold predictions.")
    shift: float = 0.0
    l2: float = Field(0.0, description="The L2 penalty the weights were fitted with.")
    trained_on: str = Field("", description="The training split, named.")
    train_rows: int = 0
    notes: str = ""

    def logit(self, features: AnswerFeatures) -> float:
        """The linear score before recalibration."""
        x = feature_vector(features, self.features)
        return self.intercept + sum(
            w * (v - m) / s for w, v, m, s in zip(self.weights, x, self.means, self.scales, strict=True)
        )

    def probability(self, features: AnswerFeatures) -> float:
        kind = answer_kind(features)
        if kind != "stated":
            return self.declined_rate if kind == "declined" else self.closest_rate
        z = self.slope * self.logit(features) + self.shift
        return 1.0 / (1.0 + math.exp(-max(-40.0, min(40.0, z))))


@lru_cache(maxsize=4)
def load_model(path: Path = WEIGHTS_PATH) -> CalibrationModel | None:
    """The shipped model, or None when no weights file is there (the rule confidence then stays)."""
    if not path.is_file():
        return None
    return CalibrationModel.model_validate(json.loads(path.read_text(encoding="utf-8")))


def calibrated(features: AnswerFeatures, model: CalibrationModel | None = None) -> float:
    """The probability that the answer is right (the rule confidence when no model is shipped)."""
    model = model or load_model()
    if model is None:
        return features.rule_confidence
    return round(model.probability(features), 3)


def claim_threshold(model: CalibrationModel | None = None) -> float | None:
    """The confidence at which an answer may be claimed complete (None without a model)."""
    model = model or load_model()
    return None if model is None else model.claim_threshold


def calibrate_answer(
    answer: AnswerWithEvidence, features: AnswerFeatures, model: CalibrationModel | None = None
) -> AnswerWithEvidence:
    """``answer`` with its calibrated confidence. It stays complete only at or above the claim line (and
    only when the rule checks called it complete); a stated answer under the line keeps its text and says
    it is not verified."""
    model = model or load_model()
    if model is None:
        return answer
    confidence = calibrated(features, model)
    claimed = answer.complete_answer_found and confidence >= model.claim_threshold
    caveats = answer.caveats
    if answer.answer_found and not claimed and not features.not_established:
        # stated but not verified: the best-supported reading, under the claim line (one such caveat, with
        # the calibrated figures: the rule engine's own one carried the rule confidence)
        caveats = (*(c for c in caveats if c.kind != K.UNCLAIMED), not_verified(confidence, model.claim_threshold))
    return answer.model_copy(
        update={"confidence": confidence, "complete_answer_found": claimed, "caveats": tuple(dict.fromkeys(caveats))}
    )


def not_verified(confidence: float, line: float) -> Caveat:
    """The caveat of a stated answer under the claim line (worded by ``engine.present.caveats``)."""
    return caveat(K.UNCLAIMED, figures=(confidence, line))


def calibrate_result(result: RunResult, model: CalibrationModel | None = None) -> RunResult:
    """``result`` with its answer calibrated (the one call the API makes on every finished run)."""
    answer = calibrate_answer(result.answer, features_of(result), model)
    return result if answer is result.answer else result.model_copy(update={"answer": answer})
