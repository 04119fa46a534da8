"""Every model that crosses a layer boundary.

All models are frozen pydantic v2 models with ``extra="forbid"``. Closed sets are ``Literal`` types.
Pages are 1-based everywhere. Models here carry data only; behaviour lives in the bricks and the
composition layer.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

BBox = tuple[float, float, float, float]
"""A rectangle on a page in PDF points: (x0, y0, x1, y1), origin top-left (PyMuPDF convention)."""


class Contract(BaseModel):
    """Base of every contract: immutable, no unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")


# --------------------------------------------------------------------------------------------
# Documents
# --------------------------------------------------------------------------------------------

StrategyName = Literal["auto", "single_pass", "dispatched", "dynamic", "plan_execute"]
EffectiveStrategy = Literal["single_pass", "dispatched", "dynamic", "plan_execute"]
ChunkKind = Literal["text", "heading", "table", "caption", "list_item"]
TocSource = Literal["outline", "headings", "none"]


class TocEntry(Contract):
    """One outline entry with the page range its section covers (inclusive, 1-based)."""

    level: int = Field(ge=1, description="Nesting depth, 1 = top level.")
    title: str
    number: str | None = Field(None, description='Section number parsed from the title ("5.4", "7A", "B").')
    start_page: int = Field(ge=1)
    end_page: int = Field(ge=1)


class PageText(Contract):
    """The cleaned text of one page."""

    page: int = Field(ge=1)
    text: str
    width: float
    height: float


class Chunk(Contract):
    """A block/paragraph-level piece of a page with its location.

    ``chunk_id`` is stable: ``{doc_id[:16]}:p{page}:b{index}``.
    """

    chunk_id: str
    doc_id: str
    page: int = Field(ge=1)
    index: int = Field(ge=0, description="Position of the chunk on its page.")
    text: str
    bboxes: tuple[BBox, ...] = Field(description="Line boxes the text came from, for highlighting.")
    section_path: tuple[str, ...] = Field(default=(), description="Outline titles from the top down.")
    kind: ChunkKind = "text"
    bold_terms: tuple[str, ...] = Field(default=(), description="Bold or run-in header phrases in the chunk.")


class ParsedDocument(Contract):
    """The layer-1 parse of a PDF: pages, chunks and the table of contents."""

    doc_id: str = Field(description="sha256 hex digest of the PDF bytes.")
    file_name: str
    total_pages: int = Field(ge=0)
    pages: tuple[PageText, ...]
    chunks: tuple[Chunk, ...]
    toc: tuple[TocEntry, ...] = ()
    toc_source: TocSource = "none"
    repeated_lines: tuple[str, ...] = Field(default=(), description="Recognised running headers/footers.")
    parse_method: Literal["layer1", "adaptive"] = "layer1"
    parser_version: int = Field(
        0, ge=0, description="Version of the parser that produced it (older ones are re-parsed)."
    )
    ocr_pages: tuple[int, ...] = Field(default=(), description="Pages read by OCR (they had no text layer).")


class DocumentProfile(Contract):
    """A cheap probe of a document, read by the dispatcher."""

    doc_id: str
    file_name: str
    total_pages: int = Field(ge=0)
    has_usable_toc: bool
    toc_entries: int = Field(ge=0, description="Number of outline entries (0 when there is no outline).")
    is_likely_scanned: bool
    has_tables: bool
    text_pages: int = Field(ge=0, description="Pages that carry a text layer.")
    suggested_strategy: EffectiveStrategy
    ocr_pages: tuple[int, ...] = Field(default=(), description="Pages whose text was read by OCR.")


class PageRef(Contract):
    """A page a person can open: document and 1-based page number."""

    doc_id: str
    file_name: str
    page: int = Field(ge=1)


class LibraryEntry(Contract):
    """The manifest of one document in the library."""

    doc_id: str
    file_name: str
    size_bytes: int = Field(ge=0)
    total_pages: int = Field(ge=0)
    added_at: str = Field(description="ISO-8601 UTC timestamp.")
    profile: DocumentProfile
    building: tuple[Literal["keyword index", "dense index"], ...] = Field(
        default=(),
        description="Search indexes not yet on disk: being built in the background, or built on the first question.",
    )


# --------------------------------------------------------------------------------------------
# Questions
# --------------------------------------------------------------------------------------------

Intent = Literal[
    "single_fact",
    "comparison",
    "multi_hop",
    "listing",
    "section_retrieval",
    "open_scoped",
    "open_corpus_wide",
    "vague",
]
Complexity = Literal["simple", "moderate", "complex"]
LayoutHint = Literal["table", "figure"]


class RetrievalSpec(Contract):
    """How to look for the evidence of a question."""

    main_query: str
    rewrites: tuple[str, ...] = ()
    anchor_keywords: tuple[str, ...] = Field(default=(), description="Terms the evidence must stay close to.")
    section_hint: str | None = Field(None, description='A section the question names ("5.4", "Item 7").')
    layout_hint: LayoutHint | None = None
    expansions: tuple[str, ...] = Field(
        default=(),
        description='Document words the question\'s terms imply ("capex" -> "purchases of property and equipment"); '
        "appended to the main query, never replacing the question's own words.",
    )


class ComparisonSide(Contract):
    """One side of a comparison question."""

    label: str
    query: str
    keywords: tuple[str, ...] = ()


class ParsedQuestion(Contract):
    """A question turned into retrieval instructions."""

    original_question: str
    intent: Intent
    complexity: Complexity
    keywords: tuple[str, ...]
    retrieval: RetrievalSpec
    sides: tuple[ComparisonSide, ...] = ()
    expected_count: int | None = Field(None, ge=0, description="Cardinality stated in the question.")
    references: tuple[str, ...] = Field(default=(), description='References named in the question ("Table 3").')
    asks_for_value: bool = Field(False, description="The question asks for a number or amount.")
    instructions: tuple[str, ...] = Field(
        default=(), description='Answer-format instructions set aside before searching ("Round to two decimals.").'
    )


# --------------------------------------------------------------------------------------------
# Retrieval
# --------------------------------------------------------------------------------------------

RetrieverName = Literal["keyword", "toc", "dense", "fused", "two_hop", "listing", "adaptive"]


class Hit(Contract):
    """One retrieved chunk."""

    chunk: Chunk
    score: float
    retriever: RetrieverName
    rank: int = Field(ge=1)
    highlight: str | None = None


class RankedList(Contract):
    """Hits of one retriever for one query, best first."""

    query: str
    retriever: RetrieverName
    hits: tuple[Hit, ...] = ()
    from_cache: bool = Field(False, description="Served by the retrieval cache (costs no retrieval call).")


class ListItem(Contract):
    """One enumerated item found by listing aggregation."""

    label: str
    chunk_id: str
    page: int = Field(ge=1)
    marker: Literal["bold_header", "bullet", "ordinal", "numbered", "heading"]


class ListingResult(Contract):
    """Items of an enumeration inside a section, checked against a cardinality cue."""

    items: tuple[ListItem, ...] = ()
    expected_count: int | None = None
    cue: str | None = Field(None, description='The sentence that states the count ("three types of ...").')
    pages: tuple[int, ...] = ()

    @property
    def count_matches(self) -> bool | None:
        """None when no count was announced; else whether the items match it."""
        if self.expected_count is None:
            return None
        return len(self.items) == self.expected_count


# --------------------------------------------------------------------------------------------
# Dispatcher
# --------------------------------------------------------------------------------------------

PatternName = Literal[
    "toc_retrieval",
    "keyword_retrieval",
    "dense_retrieval",
    "two_hop_references",
    "listing_aggregation",
    "adaptive_parsing",
    "iterative_feedback",
]
PATTERN_NAMES: tuple[PatternName, ...] = (
    "toc_retrieval",
    "keyword_retrieval",
    "dense_retrieval",
    "two_hop_references",
    "listing_aggregation",
    "adaptive_parsing",
    "iterative_feedback",
)


class PatternDecision(Contract):
    """One pattern switched on or off, with the reason the rule gave."""

    on: bool
    reason: str


class Activations(Contract):
    """The activation column: the seven patterns, each with its reason."""

    toc_retrieval: PatternDecision
    keyword_retrieval: PatternDecision
    dense_retrieval: PatternDecision
    two_hop_references: PatternDecision
    listing_aggregation: PatternDecision
    adaptive_parsing: PatternDecision
    iterative_feedback: PatternDecision

    def items(self) -> tuple[tuple[PatternName, PatternDecision], ...]:
        """The patterns in display order."""
        return tuple((name, getattr(self, name)) for name in PATTERN_NAMES)

    def is_on(self, name: PatternName) -> bool:
        return getattr(self, name).on


# --------------------------------------------------------------------------------------------
# Generation
# --------------------------------------------------------------------------------------------


class EvidenceItem(Contract):
    """A chunk as it enters a prompt: quoted data with a page label."""

    chunk_id: str
    doc_id: str
    file_name: str
    page: int = Field(ge=1)
    text: str
    score: float = 0.0
    retriever: RetrieverName = "fused"
    section_path: tuple[str, ...] = ()
    kind: ChunkKind = "text"
    bold_terms: tuple[str, ...] = ()


CitationRole = Literal["answer", "support"]


class Citation(Contract):
    """A quote from a retrieved chunk that supports the answer."""

    chunk_id: str
    doc_id: str = ""
    page: int = Field(ge=1)
    quote: str
    role: CitationRole = Field(
        "answer",
        description="answer: the answer is built on this quote; support: the closest passage on another "
        "strongly retrieved page, listed so the reader can check it.",
    )


class PageMark(Contract):
    """A passage to highlight on a rendered page: its quote's own lines when text search finds them,
    else the boxes of its chunk."""

    quote: str = ""
    boxes: tuple[BBox, ...] = ()
    role: CitationRole = "answer"


class AnswerWithEvidence(Contract):
    """An answer plus the feedback signals the loop reads."""

    text: str
    citations: tuple[Citation, ...] = ()
    answer_found: bool = Field(True, description="False when the evidence does not contain an answer.")
    complete_answer_found: bool = False
    confidence: float = Field(0.0, ge=0.0, le=1.0)
    caveats: tuple[str, ...] = ()
    discovered_keywords: tuple[str, ...] = ()
    pending_references: tuple[str, ...] = Field(default=(), description="Referenced targets not in the evidence.")
    context_structured: bool = True
    garbled_pages: tuple[int, ...] = Field(default=(), description="Pages whose text looks garbled.")
    expected_count: int | None = None
    found_count: int | None = None
    uncovered_sides: tuple[str, ...] = Field(default=(), description="Comparison sides with no evidence.")
    validation_failures: tuple[str, ...] = Field(default=(), description="Citations dropped by the check.")


class SubQuery(Contract):
    """One sub-query of a dynamic plan."""

    query: str
    purpose: str = ""


class SubQueryPlan(Contract):
    """1-4 sub-queries for the dynamic strategy."""

    sub_queries: tuple[SubQuery, ...] = Field(min_length=1, max_length=4)


class SufficiencyJudgement(Contract):
    """Whether the evidence so far answers the question, and what is missing."""

    sufficient: bool
    missing: tuple[str, ...] = Field(default=(), description="Aspects not yet covered, as search queries.")
    reason: str = ""


class PlanStep(Contract):
    """One step of a plan-and-execute plan. ``query`` may hold ``{step_id}`` placeholders."""

    step_id: str = Field(pattern=r"^[A-Za-z][A-Za-z0-9_]{0,31}$")
    query: str
    depends_on: tuple[str, ...] = ()
    purpose: str = ""


class ExecutionPlan(Contract):
    """A schema-validated plan of retrieval steps."""

    steps: tuple[PlanStep, ...] = Field(min_length=1, max_length=6)


class RouteDecision(Contract):
    """The auto router's classification and choice."""

    question_class: Literal["simple_fact", "procedural", "multi_hop", "investigative"]
    strategy: EffectiveStrategy
    reason: str


# --------------------------------------------------------------------------------------------
# LLM backend bookkeeping
# --------------------------------------------------------------------------------------------

TaskName = Literal["parse_question", "plan_subqueries", "judge_sufficiency", "answer", "make_plan"]
BackendName = Literal["offline", "openai"]


class LlmUsage(Contract):
    """What one backend call cost."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0


class BackendFallback(Contract):
    """A step the network backend could not do, done by the offline rules instead."""

    task: TaskName
    reason: str


# --------------------------------------------------------------------------------------------
# Budgets, iterations and results
# --------------------------------------------------------------------------------------------


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
    "uncovered_side",
    "insufficient_evidence",
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
    "re_plan",
    "execute_steps",
]
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
    "budget_iterations",
    "budget_llm_calls",
    "budget_retrieval_calls",
    "budget_unique_queries",
    "budget_context_tokens",
    "budget_seconds",
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

    question: str
    docs: tuple[PageRef, ...] = Field(description="One entry per document asked (page = 1).")
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
