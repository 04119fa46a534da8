"""Answers with their evidence and feedback signals, and the plans strategies ask a backend for."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from engine.contracts.base import BBox, Contract, EffectiveStrategy
from engine.contracts.caveats import Caveat
from engine.contracts.documents import ChunkKind
from engine.contracts.retrieval import RetrieverName


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
    boxes: tuple[BBox, ...] = Field(
        (),
        description="Where the quote sits on its page, as [x0, y0, x1, y1] in PDF points (top-left origin): "
        "one box per cited line, or the table row with its cells. Every reader (app, evidence pack, clients) "
        "draws these; empty in runs recorded before they were kept.",
    )


class PageMark(Contract):
    """A passage to highlight on a rendered page: its quote's own lines when text search finds them,
    else the boxes of its chunk."""

    quote: str = ""
    boxes: tuple[BBox, ...] = ()
    role: CitationRole = "answer"
    exact: bool = Field(
        False,
        description="The boxes are the passage's own lines (a citation's ``boxes``): drawn "
        "as they are, not searched for.",
    )


class AnswerWithEvidence(Contract):
    """An answer plus the feedback signals the loop reads."""

    text: str
    citations: tuple[Citation, ...] = ()
    answer_found: bool = Field(True, description="False when the evidence does not contain an answer.")
    complete_answer_found: bool = False
    confidence: float = Field(0.0, ge=0.0, le=1.0)
    caveats: tuple[Caveat, ...] = ()
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
