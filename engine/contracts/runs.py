"""Budgets, usage, iteration records and the result of a run."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from engine.contracts.answers import AnswerWithEvidence
from engine.contracts.backend import BackendFallback, BackendName
from engine.contracts.base import Contract, EffectiveStrategy, StrategyName
from engine.contracts.documents import Chunk, DocumentProfile, PageRef
from engine.contracts.questions import ParsedQuestion
from engine.contracts.retrieval import Activations, RetrieverName


class Budget(Contract):
    """Per-question limits. Zero is allowed and means "none of this may be spent"."""

    max_iterations: int = Field(3, ge=0, le=4, description="Feedback passes after the first answer (hard cap 4).")
    max_llm_calls: int = Field(8, ge=0, description="Backend calls (parse, plan, judge, answer).")
    max_retrieval_calls: int = Field(24, ge=0, description="Retriever invocations.")
    max_unique_queries: int = Field(16, ge=0, description="Distinct normalised queries.")
    max_context_tokens: int = Field(6000, ge=0, description="Tokens of evidence sent to answer calls, summed.")
    max_seconds: float = Field(30.0, ge=0.0, description="Wall-clock seconds for the whole question.")


class BudgetOverride(Contract):
    """Some budget fields set by a caller; the rest come from the per-complexity default."""

    max_iterations: int | None = Field(None, ge=0, le=4)
    max_llm_calls: int | None = Field(None, ge=0)
    max_retrieval_calls: int | None = Field(None, ge=0)
    max_unique_queries: int | None = Field(None, ge=0)
    max_context_tokens: int | None = Field(None, ge=0)
    max_seconds: float | None = Field(None, ge=0.0)

    def apply(self, budget: Budget) -> Budget:
        """``budget`` with every field this override sets replaced."""
        return budget.model_copy(update=self.model_dump(exclude_none=True))


class Usage(Contract):
    """What a run spent."""

    iterations: int = 0
    llm_calls: int = 0
    retrieval_calls: int = 0
    cached_retrievals: int = Field(0, description="Retrievals the cache answered (they cost no retrieval call).")
    unique_queries: int = 0
    context_tokens: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_ms: float = 0.0


Trigger = Literal[
    "initial",
    "incomplete_answer",
    "discovered_vocabulary",
    "pending_references",
    "cardinality_mismatch",
    "garbled_context",
    "validation_failure",
    "side_missing",
    "missing_value",
    "insufficient_evidence",
    "passage_continues",
    "plan_layer",
]
Action = Literal[
    "retrieve",
    "widen_scope",
    "enable_dense",
    "expand_keywords",
    "two_hop",
    "broaden_section",
    "adaptive_parse",
    "retry_answer",
    "side_quota_retrieve",
    "retrieve_inputs",
    "read_continuation",
    "re_plan",
    "execute_steps",
]
BudgetStopReason = Literal[
    "budget_iterations",
    "budget_llm_calls",
    "budget_retrieval_calls",
    "budget_unique_queries",
    "budget_context_tokens",
    "budget_seconds",
]
"""A budget ran out (the run is flagged ``exhausted``)."""
StopReason = Literal[
    "complete",
    "single_pass",
    "iteration_cap",
    "no_new_candidates",
    "repeated_trigger_action",
    "repeated_queries",
    "confidence_drop",
    "drift",
    "no_improvement",
    "no_trigger",
    BudgetStopReason,
    "partial_answer",
    "plan_complete",
]


class IterationRecord(Contract):
    """One pass of a strategy, for the audit trail."""

    iteration: int = Field(ge=0, description="0 is the first pass; 1.. are feedback passes.")
    trigger: Trigger
    action_taken: Action
    queries: tuple[str, ...] = ()
    pages_added: tuple[PageRef, ...] = ()
    candidates_added: tuple[str, ...] = Field(default=(), description="Chunk ids new in this pass.")
    confidence_before: float = 0.0
    confidence_after: float = 0.0
    budget_spent: Usage = Usage()
    narration: str


class PageScore(Contract):
    """The best score a retriever gave a page during a run (for the Inspect charts)."""

    doc_id: str
    page: int = Field(ge=1)
    retriever: RetrieverName
    score: float


class RunResult(Contract):
    """Everything a run produced: the answer, how it was reached, and what it cost."""

    run_id: str = Field("", description="The run's id in the history (empty until ``answer`` assigns one).")
    created_at: str = Field("", description="ISO-8601 UTC time the run started.")
    follow_up_of: str | None = Field(None, description="run_id of the turn this follow-up continues.")
    asked: str | None = Field(
        None, description="The user's own words when ``question`` is a rewritten follow-up (else None)."
    )
    question: str
    docs: tuple[PageRef, ...] = Field(description="One entry per document asked (page = 1).")
    picked_by: str | None = Field(
        None, description="How the documents were picked when the question was asked of the whole library (else None)."
    )
    strategy_requested: StrategyName
    strategy_effective: EffectiveStrategy
    strategy_reason: str
    backend: BackendName
    parsed_question: ParsedQuestion
    profiles: tuple[DocumentProfile, ...]
    activations: Activations
    answer: AnswerWithEvidence
    history: tuple[IterationRecord, ...]
    stop_reason: StopReason
    exhausted: bool
    evidence_pages: tuple[PageRef, ...] = Field(description="Cited pages in order of first citation.")
    evidence_chunks: tuple[Chunk, ...] = Field(default=(), description="The cited chunks (for highlighting).")
    page_added_in: tuple[int, ...] = Field(
        default=(), description="For each evidence page, the iteration that first retrieved it."
    )
    page_scores: tuple[PageScore, ...] = ()
    fallbacks: tuple[BackendFallback, ...] = ()
    budget: Budget
    usage: Usage
    config_fingerprint: str


class ProgressEvent(Contract):
    """A progress notice for a UI (``st.status``) or a CLI."""

    stage: Literal["parse", "understand", "dispatch", "retrieve", "pass", "answer", "done"]
    message: str
    iteration: int | None = None
