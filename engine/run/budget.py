"""LoopGuard: the per-question budget, checked before and charged after every spend.

A guard never lets a limit be exceeded: callers ask ``allows_*`` before they spend, and a spend the
guard does not allow is not made. The first limit that blocks a spend is remembered as the run's
stop reason.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from engine.config import HARD_ITERATION_CAP
from engine.contracts import Budget, LlmUsage, StopReason, Usage
from engine.documents.text import normalize_query
from engine.run.stops import STOP_TEXT


class LoopGuard:
    """Tracks what a run spent against its ``Budget``.

    Args:
        budget: The limits.
        clock: Monotonic seconds source (injectable for tests).
        started: When the run began on ``clock`` (default: now), so a guard built after an early step
            still counts that step's seconds.
    """

    def __init__(
        self, budget: Budget, clock: Callable[[], float] = time.monotonic, started: float | None = None
    ) -> None:
        self.budget = budget.model_copy(update={"max_iterations": min(budget.max_iterations, HARD_ITERATION_CAP)})
        self._clock = clock
        self._started = clock() if started is None else started
        self.iterations = 0
        self.llm_calls = 0
        self.retrieval_calls = 0
        self.cached_retrievals = 0
        self.context_tokens = 0
        self.prompt_tokens = 0
        self.completion_tokens = 0
        self._queries: set[str] = set()
        self.blocked_by: StopReason | None = None

    @property
    def started(self) -> float:
        return self._started

    def rebudget(self, budget: Budget) -> None:
        """Replace the limits (the per-complexity budget, once the question is understood).

        What was spent so far stays charged; what blocked a spend under the old limits is forgotten.
        """
        self.blocked_by = None
        self.budget = budget.model_copy(update={"max_iterations": min(budget.max_iterations, HARD_ITERATION_CAP)})

    # ---- checks -----------------------------------------------------------------------------

    def elapsed(self) -> float:
        return self._clock() - self._started

    def remaining_seconds(self) -> float:
        return max(0.0, self.budget.max_seconds - self.elapsed())

    def _block(self, reason: StopReason) -> bool:
        if self.blocked_by is None:
            self.blocked_by = reason
        return False

    def _time_left(self) -> bool:
        return self.elapsed() < self.budget.max_seconds or self._block("budget_seconds")

    def allows_iteration(self) -> bool:
        """May one more feedback pass start?"""
        if self.iterations >= self.budget.max_iterations:
            return self._block("budget_iterations")
        return self._time_left()

    def spent_reason(self) -> str:
        """Which limit stopped the last spend, in plain words ("the time budget is spent")."""
        return STOP_TEXT.get(self.blocked_by, "a budget is spent") if self.blocked_by else "a budget is spent"

    def allows_llm_call(self) -> bool:
        if self.llm_calls >= self.budget.max_llm_calls:
            return self._block("budget_llm_calls")
        return self._time_left()

    def is_new_query(self, query: str) -> bool:
        return normalize_query(query) not in self._queries

    def allows_retrieval(self, query: str) -> bool:
        """May one retriever invocation of ``query`` be made?"""
        if self.retrieval_calls >= self.budget.max_retrieval_calls:
            return self._block("budget_retrieval_calls")
        if self.is_new_query(query) and len(self._queries) >= self.budget.max_unique_queries:
            return self._block("budget_unique_queries")
        return self._time_left()

    def context_allowance(self, wanted: int) -> int:
        """How many of ``wanted`` context tokens may still be sent (0 blocks with a reason)."""
        left = self.budget.max_context_tokens - self.context_tokens
        if left <= 0:
            self._block("budget_context_tokens")
            return 0
        return min(wanted, left)

    # ---- charges ----------------------------------------------------------------------------

    def charge_iteration(self) -> None:
        self.iterations += 1

    def charge_llm(self, usage: LlmUsage) -> None:
        """Record one backend step (its own corrective retries included) and its tokens."""
        self.llm_calls += 1
        self.prompt_tokens += usage.prompt_tokens
        self.completion_tokens += usage.completion_tokens

    def charge_retrieval(self, query: str, from_cache: bool = False) -> None:
        """Record a retriever invocation; one the cache answered costs no call."""
        self._queries.add(normalize_query(query))
        if from_cache:
            self.cached_retrievals += 1
        else:
            self.retrieval_calls += 1

    def charge_context(self, tokens: int) -> None:
        self.context_tokens += tokens

    # ---- reporting --------------------------------------------------------------------------

    def usage(self) -> Usage:
        return Usage(
            iterations=self.iterations,
            llm_calls=self.llm_calls,
            retrieval_calls=self.retrieval_calls,
            cached_retrievals=self.cached_retrievals,
            unique_queries=len(self._queries),
            context_tokens=self.context_tokens,
            prompt_tokens=self.prompt_tokens,
            completion_tokens=self.completion_tokens,
            latency_ms=round(self.elapsed() * 1000, 1),
        )

    def within_limits(self) -> bool:
        """True when nothing spent is above its limit (the invariant the property tests check)."""
        b = self.budget
        return (
            self.iterations <= b.max_iterations
            and self.llm_calls <= b.max_llm_calls
            and self.retrieval_calls <= b.max_retrieval_calls
            and len(self._queries) <= b.max_unique_queries
            and self.context_tokens <= b.max_context_tokens
        )
