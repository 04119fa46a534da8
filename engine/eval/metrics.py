"""Pure scoring: evidence-page recall/precision, answer match, and aggregation per strategy and slice.

Nothing here does I/O or calls the engine; ``score_run`` reads a ``RunResult`` and the gold data.
"""

from __future__ import annotations

import ast
import math
import re
from collections.abc import Iterable, Mapping, Sequence

from pydantic import BaseModel, ConfigDict, Field

from engine.contracts import RunResult
from engine.eval.dataset import EvalQuestion, GoldPage

NUMERIC_TOLERANCE = 0.01
"""Relative tolerance of a numeric answer match."""
MAX_SHORT_WORDS = 12
"""Gold strings with more words than this are not scored for answer match (free-form answers)."""
DEFAULT_PRICE_PER_1K = 0.001
"""Default price (currency units) per 1000 prompt+completion tokens."""

_SCALES = {"thousand": 1e3, "k": 1e3, "million": 1e6, "mn": 1e6, "m": 1e6, "billion": 1e9, "bn": 1e9, "b": 1e9,
           "trillion": 1e12, "tn": 1e12}  # fmt: skip
_CURRENCY = re.compile(r"[$€£¥₹]|\b(?:usd|eur|gbp|us\$)\b", re.I)
_NUMBER = re.compile(
    r"(?<![\w.])(?P<neg>[-−–(])?\s?(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"
    r"\s?(?P<unit>%|percent\b|per cent\b|thousand\b|million\b|billion\b|trillion\b|mn\b|bn\b|tn\b|[kmb]\b)?",
    re.I,
)
_PUNCT = re.compile(r"[^\w%.\s]|(?<!\d)\.|\.(?!\d)")


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# ------------------------------------------------------------------------------------------
# Answer normalisation and matching
# ------------------------------------------------------------------------------------------


def normalize_answer(text: str) -> str:
    """Lower case, no currency symbols, no thousands separators, "percent" as "%", single spaces."""
    text = text.lower().replace("−", "-").replace("–", "-").replace("—", "-")
    text = _CURRENCY.sub(" ", text)
    text = re.sub(r"(?<=\d),(?=\d{3}\b)", "", text)
    text = re.sub(r"\s*(?:per cent|percent)\b", "%", text)
    text = re.sub(r"(\d+\.\d*?)0+\b", r"\1", text)  # trailing zeros: 1577.00 -> 1577.
    text = re.sub(r"(\d)\.(?!\d)", r"\1", text)
    text = _PUNCT.sub(" ", text)
    text = re.sub(r"(?<=\d)(?=[a-z])", " ", text)  # 3cm -> 3 cm
    return " ".join(text.split())


def _value(match: re.Match[str]) -> tuple[float, float]:
    """(mantissa, scaled value) of a number match."""
    number = float(match.group("num").replace(",", ""))
    if match.group("neg") in ("-", "−", "–", "("):
        number = -number
    unit = (match.group("unit") or "").lower()
    return number, number * _SCALES.get(unit, 1.0)


def numbers_in(text: str) -> list[tuple[float, float]]:
    """Every number in ``text`` as (mantissa, value with its scale word applied)."""
    return [_value(m) for m in _NUMBER.finditer(text.replace("−", "-"))]


def gold_number(gold: str) -> tuple[float, float] | None:
    """The value of a gold answer that is a single number (with currency, unit or %), else None."""
    stripped = _CURRENCY.sub(" ", gold).strip().rstrip(".")
    match = _NUMBER.fullmatch(stripped) or _NUMBER.fullmatch(stripped.replace(" ", ""))
    return _value(match) if match else None


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=NUMERIC_TOLERANCE, abs_tol=1e-9)


def _number_match(gold: tuple[float, float], answer: str) -> bool:
    g_raw, g_scaled = gold
    return any(_close(abs(raw), abs(g_raw)) or _close(abs(scaled), abs(g_scaled)) for raw, scaled in numbers_in(answer))


def _string_match(gold: str, answer: str) -> bool:
    g, a = normalize_answer(gold), normalize_answer(answer)
    if not g:
        return False
    return f" {g} " in f" {a} "


def _list_items(gold: str) -> list[str] | None:
    text = gold.strip()
    if not (text.startswith("[") and text.endswith("]")):
        return None
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return None
    if not isinstance(value, list | tuple):
        return None
    return [str(v) for v in value]


def is_scorable(gold: str) -> bool:
    """Whether a gold answer is a number, a short string or a list of those."""
    items = _list_items(gold)
    if items is not None:
        return bool(items) and all(is_scorable(i) for i in items)
    if gold_number(gold) is not None:
        return True
    words = normalize_answer(gold).split()
    return 0 < len(words) <= MAX_SHORT_WORDS


def single_match(gold: str, answer: str) -> bool | None:
    """Whether ``answer`` contains the gold answer (None when the gold is not scorable).

    A number matches within 1 % relative (thousands separators, currency, units and % ignored); a
    short string matches when it appears in the answer after normalisation; a list literal
    ("['a', 'b']") matches when every item does.
    """
    if not is_scorable(gold):
        return None
    items = _list_items(gold)
    if items is not None:
        return all(single_match(item, answer) for item in items)
    number = gold_number(gold)
    if number is not None:
        return _number_match(number, answer) or _string_match(gold, answer)
    return _string_match(gold, answer)


def answer_match(golds: Sequence[str], answer: str) -> bool | None:
    """Any scorable alternative matches; None when no alternative is scorable."""
    results = [single_match(g, answer) for g in golds]
    scored = [r for r in results if r is not None]
    return any(scored) if scored else None


# ------------------------------------------------------------------------------------------
# Evidence pages
# ------------------------------------------------------------------------------------------


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
    answer_match: bool | None = None
    unanswerable_correct: bool | None = None
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

    @property
    def correct(self) -> bool | None:
        """Answer match, or for unanswerable questions whether the run declined; None when not scored."""
        if self.unanswerable:
            return self.unanswerable_correct
        return self.answer_match


def score_run(question: EvalQuestion, strategy: str, result: RunResult, doc_ids: Mapping[str, str]) -> QuestionScore:
    """Score one run against its question's gold data."""
    cited = [(p.doc_id, p.page) for p in result.evidence_pages]
    recall, precision = (
        (None, None) if question.unanswerable else page_recall_precision(question.gold_pages, cited, doc_ids)
    )
    retrieved = {(p.doc_id, p.page) for p in result.page_scores} | set(cited)
    retrieved_recall = None if recall is None else page_recall_precision(question.gold_pages, retrieved, doc_ids)[0]
    text = result.answer.text
    usage = result.usage
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
        answer_match=None if question.unanswerable else answer_match(question.answers, text),
        unanswerable_correct=(not result.answer.answer_found) if question.unanswerable else None,
        llm_calls=usage.llm_calls,
        retrieval_calls=usage.retrieval_calls,
        unique_queries=usage.unique_queries,
        context_tokens=usage.context_tokens,
        tokens=usage.prompt_tokens + usage.completion_tokens,
        latency_ms=usage.latency_ms,
        exhausted=result.exhausted,
        stop_reason=result.stop_reason,
        answer=text[:400],
    )


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
    n_answer: int = Field(0, description="Questions with a scorable gold answer.")
    answer_match: float | None = None
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
        n_answer=len(answered),
        answer_match=_mean([float(bool(r.answer_match)) for r in answered]),
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
