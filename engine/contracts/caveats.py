"""Caveats: what keeps an answer from being complete or sure, as data.

A caveat is a kind from a closed set, the thing it is about (``subject``: a comparison side, a reference
such as "Table 3", a row label) and, where the kind needs it, a ``detail`` or the ``figures`` it counts.
Code adds, replaces and drops caveats by kind and subject; their wording for people is made in
``engine.present.caveat_text`` only, so rewording one never changes what the engine does.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import model_validator

from engine.contracts.base import Contract


class CaveatKind(StrEnum):
    """Every kind of caveat an answer can carry."""

    NO_EVIDENCE = "no_evidence"
    """Nothing was retrieved."""
    UNMATCHED = "unmatched"
    """No retrieved passage matches enough of the question's terms."""
    PARTIAL_MATCH = "partial_match"
    """The cited passages match only some of the question's key terms."""
    SIDE_NOT_FOUND = "side_not_found"
    """No passage in the evidence mentions the side (``subject``)."""
    SIDE_UNCITED = "side_uncited"
    """The answer cites no passage about the side (``subject``)."""
    PARTS_UNCOVERED = "parts_uncovered"
    """The evidence does not cover the question's parts (``subject``, joined)."""
    COUNT_SHORT = "count_short"
    """An enumeration announces ``figures[0]`` items, ``figures[1]`` were found."""
    PENDING_REFERENCE = "pending_reference"
    """The evidence refers to ``subject`` ("Table 3"), which was not retrieved."""
    GARBLED_PAGE = "garbled_page"
    """The text of the pages in ``subject`` looks garbled."""
    TERM_UNNAMED = "term_unnamed"
    """The cited passages do not name the span asked about (``subject``: "three-year")."""
    TYPE_NOT_STATED = "type_not_stated"
    """The passages state no answer of the kind asked (``subject``: yes_no, number or date)."""
    VALUE_NOT_COUNT = "value_not_count"
    """A count is asked; the value read (``subject``: its label) counts something else or is an amount."""
    VALUE_NOT_RATIO = "value_not_ratio"
    """A ratio, share or rate is asked; the value read (``subject``) is an amount."""
    VALUE_NARROWER = "value_narrower"
    """The row read (``subject``) may not name exactly the item asked."""
    VALUE_DOUBTFUL = "value_doubtful"
    """The row read (``subject``) may be another figure than the one asked (``detail``: why, e.g. a percentage, a
    per-share figure, a guarantor group's summary)."""
    VALUE_NO_PERIOD = "value_no_period"
    """The row (``subject``; empty for a sentence) names no period, or not the one asked."""
    VALUES_MISSING = "values_missing"
    """The evidence does not hold the inputs named in ``subject``."""
    PERIOD_NOT_COVERED = "period_not_covered"
    """The question asks a year (``subject``) that no selected document names anywhere."""
    ANSWER_OTHER_PERIOD = "answer_other_period"
    """The question asks a year; the passage the answer reads names only other years (``subject``)."""
    NAME_NOT_COVERED = "name_not_covered"
    """The question names something (``subject``: "Model-X7", "mAh") that no selected document prints anywhere."""
    ONE_OF_TWO_VALUES = "one_of_two_values"
    """A difference is asked; one value was read."""
    ONE_OF_TWO_TERMS = "one_of_two_terms"
    """A ratio of two values is asked; one value was read."""
    CENSUS_LABELS_ONLY = "census_labels_only"
    """A count of labelled elements (``subject``: "Figure") misses unlabelled ones."""
    STOPPED_EARLY = "stopped_early"
    """The run stopped (``subject``: the stop reason, ``detail``: its cause) before the answer was complete;
    ``figures`` is (1,) when a budget was exhausted."""
    UNCLAIMED = "unclaimed"
    """Covered by its signals but under the claim line: ``figures`` = (confidence, claim line)."""
    UNSUPPORTED_STATEMENT = "unsupported_statement"
    """A model's statement no passage supports, left out (``detail``: the statement)."""
    NOT_IN_PASSAGES = "not_in_passages"
    """What a model says the passages do not hold (``detail``)."""
    NOTE = "note"
    """Free text from a backend, or a caveat saved before caveats were typed (``detail``)."""


SIDE_KINDS = frozenset({CaveatKind.SIDE_NOT_FOUND, CaveatKind.SIDE_UNCITED})
"""The kinds about one comparison side: a value read for that side answers them."""


class Caveat(Contract):
    """One caveat of an answer."""

    kind: CaveatKind
    subject: str = ""
    detail: str = ""
    figures: tuple[float, ...] = ()

    @model_validator(mode="before")
    @classmethod
    def _from_text(cls, data: Any) -> Any:
        """A caveat saved as text (runs saved before caveats were typed) reads as a note."""
        if isinstance(data, str):
            return {"kind": CaveatKind.NOTE, "detail": data}
        return data


def caveat(kind: CaveatKind, subject: str = "", detail: str = "", figures: tuple[float, ...] = ()) -> Caveat:
    """A caveat (shorthand for the keyword form)."""
    return Caveat(kind=kind, subject=subject, detail=detail, figures=figures)


def without(caveats: tuple[Caveat, ...], *kinds: CaveatKind) -> tuple[Caveat, ...]:
    """``caveats`` less those of ``kinds``."""
    return tuple(c for c in caveats if c.kind not in kinds)


def merged(*groups: tuple[Caveat, ...] | list[Caveat]) -> tuple[Caveat, ...]:
    """The caveats of ``groups`` in order, each once."""
    return tuple(dict.fromkeys(c for group in groups for c in group))
