"""The operator's ceilings: the most a visitor (or a command line) may ask of one question or one question set.

A visitor chooses budgets, a request timeout and question sets below these; nothing above them starts. Each
ceiling is an environment variable the operator sets (``LOUPE_MAX_SECONDS=600``); an unset, empty or unreadable
variable means the default. The defaults sit well above every preset's budget (the thorough preset's largest
budget is 90 s, 16 calls, 40,000 tokens) and well below what would let one visitor hold a worker for long
(a 1,000,000-second budget against a slow endpoint kept a question running for minutes).
"""

from __future__ import annotations

import logging
import math
import os
from dataclasses import dataclass

from engine.contracts import Budget
from engine.errors import LoupeError

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Ceiling:
    """One operator ceiling: the environment variable that sets it, its default and what it bounds."""

    env: str
    default: float
    what: str
    integer: bool = True

    def value(self) -> float:
        """The operator's value (``env``), else the default; a value that is not a positive number is ignored."""
        raw = os.environ.get(self.env, "").strip()
        if not raw:
            return self.default
        try:
            number = float(raw)
        except ValueError:
            number = math.nan
        if not math.isfinite(number) or number <= 0:
            logger.warning("%s=%r is not a positive number; the default %g applies", self.env, raw, self.default)
            return self.default
        return float(math.floor(number)) if self.integer else number


SECONDS = Ceiling("LOUPE_MAX_SECONDS", 300.0, "the seconds budget", integer=False)
"""Five minutes: three times the slowest preset's budget, enough for a slow local model."""
TIMEOUT = Ceiling("LOUPE_MAX_TIMEOUT", 120.0, "the request timeout (seconds)", integer=False)
"""Two minutes per request; the question's seconds budget bounds the whole run anyway."""
ITERATIONS = Ceiling("LOUPE_MAX_ITERATIONS", 4, "the feedback passes budget")
"""The engine's own hard cap (``HARD_ITERATION_CAP``); an operator may lower it."""
LLM_CALLS = Ceiling("LOUPE_MAX_LLM_CALLS", 40, "the LLM calls budget")
"""Two and a half times the thorough preset's 16."""
RETRIEVAL_CALLS = Ceiling("LOUPE_MAX_RETRIEVAL_CALLS", 200, "the retrieval calls budget")
"""Over three times the thorough preset's 60 (retrieval is local and cheap)."""
UNIQUE_QUERIES = Ceiling("LOUPE_MAX_UNIQUE_QUERIES", 100, "the unique queries budget")
"""Three times the thorough preset's 32."""
CONTEXT_TOKENS = Ceiling("LOUPE_MAX_CONTEXT_TOKENS", 100_000, "the context tokens budget")
"""Two and a half times the thorough preset's 40,000 (what a paid endpoint bills)."""
SET_MB = Ceiling("LOUPE_MAX_SET_MB", 5.0, "the question set size (MB)", integer=False)
"""A question set of 5 MB holds some 10,000 questions; a 99.7 MB upload took 42 s and 2.2 GB to parse."""
DOCS_PER_QUESTION = Ceiling("LOUPE_MAX_DOCS_PER_QUESTION", 20, "the documents one question names")
"""A question over more documents than this is not one question (every document is loaded and searched)."""

BUDGET_CEILINGS: dict[str, Ceiling] = {
    "max_iterations": ITERATIONS,
    "max_llm_calls": LLM_CALLS,
    "max_retrieval_calls": RETRIEVAL_CALLS,
    "max_unique_queries": UNIQUE_QUERIES,
    "max_context_tokens": CONTEXT_TOKENS,
    "max_seconds": SECONDS,
}
"""Budget field -> the ceiling that bounds it."""

ALL: tuple[Ceiling, ...] = (*BUDGET_CEILINGS.values(), TIMEOUT, SET_MB, DOCS_PER_QUESTION)
"""Every ceiling (the README's settings table lists the same)."""


def budget_ceiling(field: str) -> float:
    """The ceiling of budget ``field`` (``max_seconds``, ...)."""
    return BUDGET_CEILINGS[field].value()


def over_ceiling(field: str, value: float | None) -> str | None:
    """Why ``value`` of budget ``field`` is refused (``None`` when it is within the operator's ceiling)."""
    if value is None or field not in BUDGET_CEILINGS:
        return None
    ceiling = BUDGET_CEILINGS[field]
    limit = ceiling.value()
    if value > limit:
        return f"{ceiling.what} of {_num(value)} is over this server's ceiling of {_num(limit)} (the operator sets {ceiling.env})"
    return None


def _num(value: float) -> str:
    """A number as a person reads it: ``1,000,000``, ``2.5``."""
    return f"{int(value):,}" if float(value).is_integer() else f"{value:,.1f}"


def check_budget_values(values: dict[str, float | None]) -> None:
    """``LoupeError`` naming the first budget value above its ceiling."""
    for field, value in values.items():
        reason = over_ceiling(field, value)
        if reason is not None:
            raise LoupeError(reason)


def within_ceilings(budget: Budget) -> Budget:
    """``budget`` with every field cut to its ceiling (a preset above a ceiling the operator lowered)."""
    update = {}
    for field, ceiling in BUDGET_CEILINGS.items():
        value, limit = getattr(budget, field), ceiling.value()
        if value > limit:
            update[field] = type(value)(limit)
    return budget.model_copy(update=update) if update else budget


def timeout_ceiling() -> float:
    """The most seconds one model request may be given."""
    return TIMEOUT.value()


def check_timeout(seconds: float | None) -> None:
    """``LoupeError`` when a request timeout is above the ceiling."""
    limit = TIMEOUT.value()
    if seconds is not None and seconds > limit:
        raise LoupeError(
            f"a request timeout of {_num(seconds)} s is over this server's ceiling of {_num(limit)} s "
            f"(the operator sets {TIMEOUT.env})"
        )


def check_question_set(size_bytes: int) -> None:
    """``LoupeError`` when a question set of ``size_bytes`` is over the ceiling (checked before it is read)."""
    limit = SET_MB.value()
    if size_bytes > limit * 1_000_000:
        raise LoupeError(
            f"the question set is {size_bytes / 1_000_000:.1f} MB, over this server's ceiling of {limit:g} MB "
            f"(the operator sets {SET_MB.env}); split it into smaller sets"
        )


def check_documents_per_question(counts: dict[str, int]) -> None:
    """``LoupeError`` naming the first question (id -> documents it names) over the ceiling."""
    limit = int(DOCS_PER_QUESTION.value())
    for question_id, count in counts.items():
        if count > limit:
            raise LoupeError(
                f"question {question_id!r} names {count:,} documents, over this server's ceiling of {limit} "
                f"(the operator sets {DOCS_PER_QUESTION.env})"
            )
