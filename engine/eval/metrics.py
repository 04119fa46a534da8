"""Pure scoring: evidence-page recall/precision, answer match, and aggregation per strategy and slice.

Nothing here does I/O or calls the engine; ``score_run`` reads a ``RunResult`` and the gold data.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

from pydantic import BaseModel, ConfigDict, Field

from engine.contracts import RunResult
from engine.eval.dataset import EvalQuestion, GoldPage
from engine.eval.matching import answer_match
from engine.reading.calibration import AnswerFeatures, calibrate_result, features_of

DEFAULT_PRICE_PER_1K = 0.001
"""Default price (currency units) per 1000 prompt+completion tokens."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


def page_recall_precision(
    gold: Iterable[GoldPage], cited: Iterable[tuple[str, int]], doc_ids: Mapping[str, str]
) -> tuple[float | None, float | None]:
    """Recall (gold pages cited) and precision (cited pages that are gold).

    Args:
        gold: Gold pages; ``doc`` is a set reference (or None for "any document").
        cited: (doc_id, page) pairs the run cited.
        doc_ids: Set reference -> library doc_id.

    Returns:
        (recall, precision); recall None without gold pages; precision 0.0 when nothing was cited.
    """
    cited_set = set(cited)
    gold_list = list(gold)
    if not gold_list:
        return None, None

    def hit(g: GoldPage) -> bool:
        if g.doc is None:
            return any(page == g.page for _, page in cited_set)
        return (doc_ids.get(g.doc, g.doc), g.page) in cited_set

    found = sum(hit(g) for g in gold_list)
    recall = found / len(gold_list)
    if not cited_set:
        return recall, 0.0
    relevant = sum(
        any(
            (g.doc is None and g.page == page)
            or (g.doc is not None and doc_ids.get(g.doc, g.doc) == doc and g.page == page)
            for g in gold_list
        )
        for doc, page in cited_set
    )
    return recall, relevant / len(cited_set)


# ------------------------------------------------------------------------------------------
# Per-question scores and aggregation
# ------------------------------------------------------------------------------------------


class QuestionScore(_Frozen):
    """One (question, strategy) run, scored."""

    question_id: str
    type: str
    strategy: str
    strategy_effective: str | None = None
    multi_page: bool = False
    unanswerable: bool = False
    gold_pages: tuple[int, ...] = ()
    cited_pages: tuple[int, ...] = ()
    recall: float | None = None
    precision: float | None = None
    retrieved_recall: float | None = Field(None, description="Gold pages among every page retrieved in the run.")
    retrieved_pages: int = 0
    side_coverage: float | None = Field(
        None, description="Share of the question's documents with one of their gold or also pages cited."
    )
    complete: bool = Field(False, description="The run marked its answer complete.")
    confidence: float = 0.0
    answer_match: bool | None = None
    unanswerable_correct: bool | None = None
    declined: bool = Field(False, description="The run stated no answer (only the closest passages, or none).")
    llm_calls: int = 0
    retrieval_calls: int = 0
    unique_queries: int = 0
    context_tokens: int = 0
    tokens: int = Field(0, description="Prompt plus completion tokens.")
    latency_ms: float = 0.0
    exhausted: bool = False
    stop_reason: str | None = None
    answer: str = ""
    error: str | None = None
    features: AnswerFeatures | None = Field(
        None, description="What the calibration model read of the answer (its rule confidence included)."
    )

    @property
    def wrong(self) -> bool | None:
        """The answer misses its gold value, or cites no gold page; None when neither can be scored."""
        if self.unanswerable:
            return None if self.unanswerable_correct is None else not self.unanswerable_correct
        checks = [self.answer_match is False, self.recall == 0.0]
        if self.answer_match is None and self.recall is None:
            return None
        return any(checks)

    @property
    def answer_right(self) -> bool | None:
        """What the calibrated confidence predicts: the answer states its gold value and cites a gold page
        (where the set has gold pages); for an unanswerable question, the run declined. None when the gold
        answer cannot be scored (a free-form paragraph): a cited page alone does not make an answer right."""
        if self.unanswerable:
            return self.unanswerable_correct
        if self.answer_match is None:
            return None
        return self.answer_match and self.recall != 0.0

    @property
    def correct(self) -> bool | None:
        """Answer match, or for unanswerable questions whether the run declined; None when not scored."""
        if self.unanswerable:
            return self.unanswerable_correct
        return self.answer_match


def side_coverage(question: EvalQuestion, cited: Iterable[tuple[str, int]], doc_ids: Mapping[str, str]) -> float | None:
    """Share of a multi-document question's documents with one of their gold or ``also_pages`` cited
    (None for a question over one document)."""
    if len(question.docs) < 2:
        return None
    pages = [*question.gold_pages, *question.also_pages]
    sides = [doc for doc in question.docs if any(g.doc == doc for g in pages)]
    if not sides:
        return None
    cited_set = set(cited)
    covered = sum(any(g.doc == doc and (doc_ids.get(doc, doc), g.page) in cited_set for g in pages) for doc in sides)
    return covered / len(sides)


CONFIDENT = 0.6
"""An answer marked complete at this confidence or above is a promise: the share of such answers that
are wrong is reported."""


def score_run(
    question: EvalQuestion, strategy: str, result: RunResult, doc_ids: Mapping[str, str], *, calibrate: bool = False
) -> QuestionScore:
    """Score one run against its question's gold data. With ``calibrate`` the run is one the API did not
    calibrate (the eval asks it not to, to read its features first): it is calibrated here, as the API
    would have; its features are recorded either way."""
    features = features_of(result)
    result = calibrate_result(result) if calibrate else result
    cited = [(p.doc_id, p.page) for p in result.evidence_pages]
    recall, precision = (
        (None, None) if question.unanswerable else page_recall_precision(question.gold_pages, cited, doc_ids)
    )
    retrieved = {(p.doc_id, p.page) for p in result.page_scores} | set(cited)
    sides = None if question.unanswerable else side_coverage(question, cited, doc_ids)
    retrieved_recall = None if recall is None else page_recall_precision(question.gold_pages, retrieved, doc_ids)[0]
    text = result.answer.text
    usage = result.usage
    declined = not states_answer(result)
    return QuestionScore(
        question_id=question.id,
        type=question.type,
        strategy=strategy,
        strategy_effective=result.strategy_effective,
        multi_page=question.multi_page,
        unanswerable=question.unanswerable,
        gold_pages=tuple(g.page for g in question.gold_pages),
        cited_pages=tuple(p for _, p in cited),
        recall=recall,
        precision=precision,
        retrieved_recall=retrieved_recall,
        retrieved_pages=len(retrieved),
        side_coverage=sides,
        complete=result.answer.complete_answer_found,
        confidence=result.answer.confidence,
        # a decline states no value: its closest passages may quote the gold one, which is not an answer
        answer_match=None
        if question.unanswerable
        else _unless_declined(answer_match(question.answers, text, question.question), declined),
        unanswerable_correct=declined if question.unanswerable else None,
        declined=declined,
        llm_calls=usage.llm_calls,
        retrieval_calls=usage.retrieval_calls,
        unique_queries=usage.unique_queries,
        context_tokens=usage.context_tokens,
        tokens=usage.prompt_tokens + usage.completion_tokens,
        latency_ms=usage.latency_ms,
        exhausted=result.exhausted,
        stop_reason=result.stop_reason,
        answer=text[:400],
        features=features,
    )


def states_answer(result: RunResult) -> bool:
    """Whether the run states an answer: found, and built on at least one quote (an answer under the claim
    line that only offers its closest passages, as support, states none)."""
    answer = result.answer
    return answer.answer_found and (not answer.citations or any(c.role == "answer" for c in answer.citations))


def _unless_declined(match: bool | None, declined: bool) -> bool | None:
    return False if declined and match is not None else match


def failure_score(question: EvalQuestion, strategy: str, error: str) -> QuestionScore:
    """A run that raised: scored as a miss on everything that has gold data."""
    scorable = answer_match(question.answers, "") is not None
    return QuestionScore(
        question_id=question.id,
        type=question.type,
        strategy=strategy,
        multi_page=question.multi_page,
        unanswerable=question.unanswerable,
        gold_pages=tuple(g.page for g in question.gold_pages),
        recall=0.0 if question.gold_pages and not question.unanswerable else None,
        retrieved_recall=0.0 if question.gold_pages and not question.unanswerable else None,
        precision=0.0 if question.gold_pages and not question.unanswerable else None,
        answer_match=False if scorable and not question.unanswerable else None,
        unanswerable_correct=False if question.unanswerable else None,
        error=error,
    )


class Summary(_Frozen):
    """Aggregated metrics of one strategy over one slice of the questions."""

    strategy: str
    slice: str = Field(description='"all", "type:<type>", "multi_page" or "single_page".')
    n: int
    errors: int = 0
    n_recall: int = Field(0, description="Questions with gold pages (recall and precision are over these).")
    recall: float | None = None
    precision: float | None = None
    retrieved_recall: float | None = Field(None, description="Gold pages among all retrieved pages (peer-style).")
    full_recall_rate: float | None = Field(None, description="Share of questions with every gold page cited.")
    side_coverage: float | None = Field(None, description="Mean share of documents covered (multi-document questions).")
    n_confident: int = Field(0, description="Answers marked complete at confidence >= 0.6 that can be scored.")
    wrong_confident: float | None = Field(
        None, description="Share of those that are wrong (value missed or no gold page)."
    )
    n_answer: int = Field(0, description="Questions with a scorable gold answer.")
    answer_match: float | None = None
    declined: float | None = Field(None, description="Share of the answerable questions the run declined.")
    n_unanswerable: int = 0
    unanswerable_accuracy: float | None = None
    mean_cited_pages: float | None = None
    llm_calls: float | None = None
    retrieval_calls: float | None = None
    unique_queries: float | None = None
    context_tokens: float | None = None
    tokens: float | None = None
    exhaustion_rate: float | None = None
    latency_p50_ms: float | None = None
    latency_p95_ms: float | None = None
    correct: int = 0
    cost_per_correct: float | None = Field(None, description="Token cost of the scored questions / correct answers.")
    llm_calls_per_correct: float | None = None


def percentile(values: Sequence[float], q: float) -> float | None:
    """Linear-interpolated percentile (``q`` in 0..100); None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    position = (len(ordered) - 1) * q / 100
    low, high = math.floor(position), math.ceil(position)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def summarize(strategy: str, slice_name: str, rows: Sequence[QuestionScore], price_per_1k: float) -> Summary:
    """Aggregate ``rows`` (one strategy, one slice)."""
    ok = [r for r in rows if r.error is None]
    with_gold = [r for r in rows if r.recall is not None]
    answered = [r for r in rows if r.answer_match is not None]
    unanswerable = [r for r in rows if r.unanswerable_correct is not None]
    scored = [r for r in rows if r.correct is not None]
    confident = [r for r in ok if r.complete and r.confidence >= CONFIDENT and r.wrong is not None]
    correct = sum(bool(r.correct) for r in scored)
    cost = sum(r.tokens for r in scored) * price_per_1k / 1000
    return Summary(
        strategy=strategy,
        slice=slice_name,
        n=len(rows),
        errors=len(rows) - len(ok),
        n_recall=len(with_gold),
        recall=_mean([r.recall for r in with_gold]),  # type: ignore[misc]
        precision=_mean([r.precision for r in with_gold if r.precision is not None]),
        retrieved_recall=_mean([r.retrieved_recall for r in with_gold if r.retrieved_recall is not None]),
        full_recall_rate=_mean([float(r.recall >= 1.0) for r in with_gold]),  # type: ignore[operator]
        side_coverage=_mean([r.side_coverage for r in ok if r.side_coverage is not None]),
        n_confident=len(confident),
        wrong_confident=_mean([float(bool(r.wrong)) for r in confident]),
        n_answer=len(answered),
        answer_match=_mean([float(bool(r.answer_match)) for r in answered]),
        declined=_mean([float(r.declined) for r in ok if not r.unanswerable]),
        n_unanswerable=len(unanswerable),
        unanswerable_accuracy=_mean([float(bool(r.unanswerable_correct)) for r in unanswerable]),
        mean_cited_pages=_mean([len(set(r.cited_pages)) for r in ok]),
        llm_calls=_mean([r.llm_calls for r in ok]),
        retrieval_calls=_mean([r.retrieval_calls for r in ok]),
        unique_queries=_mean([r.unique_queries for r in ok]),
        context_tokens=_mean([r.context_tokens for r in ok]),
        tokens=_mean([r.tokens for r in ok]),
        exhaustion_rate=_mean([float(r.exhausted) for r in ok]),
        latency_p50_ms=percentile([r.latency_ms for r in ok], 50),
        latency_p95_ms=percentile([r.latency_ms for r in ok], 95),
        correct=correct,
        cost_per_correct=(cost / correct) if correct else None,
        llm_calls_per_correct=(sum(r.llm_calls for r in scored) / correct) if correct else None,
    )


def slices_of(row: QuestionScore) -> list[str]:
    """The slice names a row belongs to."""
    names = ["all", f"type:{row.type}"]
    if row.multi_page:
        names.append("multi_page")
    elif not row.unanswerable and len(row.gold_pages) == 1:
        names.append("single_page")
    return names


def aggregate(rows: Sequence[QuestionScore], price_per_1k: float = DEFAULT_PRICE_PER_1K) -> tuple[Summary, ...]:
    """One ``Summary`` per (strategy, slice), strategies in first-seen order, slices all/types/multi/single."""
    groups: dict[tuple[str, str], list[QuestionScore]] = {}
    for row in rows:
        for name in slices_of(row):
            groups.setdefault((row.strategy, name), []).append(row)
    strategies = list(dict.fromkeys(r.strategy for r in rows))

    def order(key: tuple[str, str]) -> tuple[int, int, str]:
        strategy, name = key
        rank = 0 if name == "all" else 1 if name.startswith("type:") else 2
        return strategies.index(strategy), rank, name

    return tuple(summarize(s, n, groups[(s, n)], price_per_1k) for s, n in sorted(groups, key=order))
