"""Questions turned into retrieval instructions."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from engine.contracts.base import Contract

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
    doc_id: str | None = Field(
        None, description="The document this side is about, when the question spans several (one side per document)."
    )


class QuestionPart(Contract):
    """One part of a multi-part question ("..., and where is it shown?"), with its own key terms."""

    text: str
    keywords: tuple[str, ...] = Field(default=(), description="The part's content terms; the answer must cover one.")


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
    parts: tuple[QuestionPart, ...] = Field(
        default=(), description="The parts of a multi-part question (empty for a one-part question)."
    )
    instructions: tuple[str, ...] = Field(
        default=(), description='Answer-format instructions set aside before searching ("Round to two decimals.").'
    )


class FollowUpRewrite(Contract):
    """A follow-up question ("And in 2022?") rewritten with the previous turn into a full question."""

    question: str = Field(min_length=1, description="The follow-up as one full, self-contained question.")
    rule: str = Field("", description="Which rewriting rule applied (offline rules), or empty.")
