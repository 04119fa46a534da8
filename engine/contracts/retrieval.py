"""Retrieval results and the dispatcher's activation column."""

from __future__ import annotations

from typing import Literal, get_args

from pydantic import Field

from engine.contracts.base import Contract
from engine.contracts.documents import Chunk

RetrieverName = Literal["keyword", "toc", "dense", "fused", "two_hop", "listing", "adaptive", "value", "continuation"]
"""Who found a chunk; "value" marks the row or sentence a value was read from (the value brick);
"continuation" the part of a cited passage's section across a page break."""


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
    marker: Literal["bold_header", "bullet", "ordinal", "numbered", "heading", "caption"]


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


class CensusResult(Contract):
    """The labelled elements of one kind a document captions or heads within a scope, counted in code."""

    doc_id: str
    kind: str = Field(description='The kind counted ("Figure", "Table", "Appendix").')
    scope: str | None = Field(None, description='None: the whole document; "appendix"; or a section label.')
    items: tuple[ListItem, ...] = ()


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
PATTERN_NAMES: tuple[PatternName, ...] = get_args(PatternName)
"""The patterns in display order."""


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
