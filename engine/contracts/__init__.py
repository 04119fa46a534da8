"""Every model that crosses a layer boundary, and the backend seam.

All models are frozen pydantic v2 models with ``extra="forbid"``. Closed sets are ``Literal`` types.
Pages are 1-based everywhere. Models carry data only; behaviour lives in the bricks and the
composition layer. ``from engine.contracts import X`` works for every name of the submodules:

- ``base``: the ``Contract`` base and shared closed sets (strategy names)
- ``documents``: pages, chunks, outlines, profiles, library entries
- ``questions``: ``ParsedQuestion`` and its parts
- ``retrieval``: hits, ranked lists, listings, the activation column
- ``answers``: evidence, citations, answers with their signals, plans
- ``backend``: the ``Backend`` protocol, ``TaskRequest`` / ``BackendReply``, usage and fallbacks
- ``runs``: budgets, usage, iteration records, ``RunResult``
- ``corpus``: passages found across the library, documents picked for a library-wide question
"""

from __future__ import annotations

from engine.contracts.answers import (
    AnswerWithEvidence,
    Citation,
    CitationRole,
    EvidenceItem,
    ExecutionPlan,
    PageMark,
    PlanStep,
    RouteDecision,
    SubQuery,
    SubQueryPlan,
    SufficiencyJudgement,
)
from engine.contracts.backend import (
    TASK_OUTPUTS,
    Backend,
    BackendFallback,
    BackendName,
    BackendReply,
    LlmUsage,
    TaskName,
    TaskRequest,
    check_output_type,
)
from engine.contracts.base import (
    BBox,
    Contract,
    EffectiveStrategy,
    StrategyName,
)
from engine.contracts.caveats import SIDE_KINDS, Caveat, CaveatKind, caveat
from engine.contracts.corpus import CorpusHit, DocumentPick
from engine.contracts.documents import (
    Chunk,
    ChunkKind,
    DocumentProfile,
    LibraryEntry,
    PageRef,
    PageText,
    ParsedDocument,
    TocEntry,
    TocSource,
)
from engine.contracts.questions import (
    ComparisonSide,
    Complexity,
    FollowUpRewrite,
    Intent,
    LayoutHint,
    ParsedQuestion,
    QuestionPart,
    RetrievalSpec,
)
from engine.contracts.retrieval import (
    PATTERN_NAMES,
    Activations,
    CensusResult,
    Hit,
    ListingResult,
    ListItem,
    PatternDecision,
    PatternName,
    RankedList,
    RetrieverName,
)
from engine.contracts.runs import (
    Action,
    Budget,
    BudgetOverride,
    BudgetStopReason,
    IterationRecord,
    PageScore,
    ProgressEvent,
    RunResult,
    StopReason,
    Trigger,
    Usage,
)

__all__ = [
    "PATTERN_NAMES",
    "SIDE_KINDS",
    "TASK_OUTPUTS",
    "Action",
    "Activations",
    "AnswerWithEvidence",
    "BBox",
    "Backend",
    "BackendFallback",
    "BackendName",
    "BackendReply",
    "Budget",
    "BudgetOverride",
    "BudgetStopReason",
    "Caveat",
    "CaveatKind",
    "CensusResult",
    "Chunk",
    "ChunkKind",
    "Citation",
    "CitationRole",
    "ComparisonSide",
    "Complexity",
    "Contract",
    "CorpusHit",
    "DocumentPick",
    "DocumentProfile",
    "EffectiveStrategy",
    "EvidenceItem",
    "ExecutionPlan",
    "FollowUpRewrite",
    "Hit",
    "Intent",
    "IterationRecord",
    "LayoutHint",
    "LibraryEntry",
    "ListItem",
    "ListingResult",
    "LlmUsage",
    "PageMark",
    "PageRef",
    "PageScore",
    "PageText",
    "ParsedDocument",
    "ParsedQuestion",
    "PatternDecision",
    "PatternName",
    "PlanStep",
    "ProgressEvent",
    "QuestionPart",
    "RankedList",
    "RetrievalSpec",
    "RetrieverName",
    "RouteDecision",
    "RunResult",
    "StopReason",
    "StrategyName",
    "SubQuery",
    "SubQueryPlan",
    "SufficiencyJudgement",
    "TaskName",
    "TaskRequest",
    "TocEntry",
    "TocSource",
    "Trigger",
    "Usage",
    "caveat",
    "check_output_type",
]
