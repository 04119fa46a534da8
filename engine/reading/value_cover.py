"""How much of a value question's metric a row label names: the question's own terms, weighed by how rare they are
among the labels, or a document phrase for the metric (``line_items``), with the names the question qualifies the
metric by still to be named. Helpers of ``value_match``; pure."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from itertools import pairwise
from typing import Protocol

from engine.documents.text import stems
from engine.reading.value_scoring import term_share

SCOPE_WORDS = frozenset(stems("total consolidated inc incorporated corp corporation company plc ltd limited llc"))
"""Words that state a row's scope (the table's total, the whole company: "Total NIKE, Inc. Revenues",
"Consolidated net sales"), never a narrower item."""


class MetricTerms(Protocol):
    """What the cover reads of a value question (``value_match.ValueSpec``)."""

    @property
    def terms(self) -> tuple[frozenset[str], ...]: ...

    @property
    def alternatives(self) -> tuple[frozenset[str], ...]: ...

    @property
    def triggers(self) -> frozenset[str]: ...

    @property
    def named(self) -> tuple[str, ...]: ...

    @property
    def question(self) -> str: ...


def term_weights(terms: Sequence[frozenset[str]], labels: Sequence[set[str]]) -> list[float]:
    """Rarer terms weigh more: a term every label shares ("net", "total") tells little."""
    n = max(1, len(labels))
    out = []
    for term in terms:
        df = sum(1 for label in labels if 2 * len(term & label) >= len(term))
        out.append(max(0.2, math.log((n + 1) / (df + 0.5))))
    return out


def label_cover(
    spec: MetricTerms,
    label: set[str],
    weights: Sequence[float],
    rarity: dict[str, float] | None = None,
    qualifiers: Sequence[bool] = (),
) -> float:
    """How much of the metric a label names: the question's terms (rarity-weighted, and their words too when
    ``rarity`` is given) or, better, one of the document phrases for it, whole. A document phrase stands for the
    metric's name only: the terms marked in ``qualifiers`` (see :func:`qualifier_terms`) must still be named."""
    own = 0.0
    if spec.terms:
        total = sum(weights)
        own = (
            sum(w * term_share(named_part(t), label, rarity) for t, w in zip(spec.terms, weights, strict=True)) / total
        )
    # a document phrase counts whole; half of one is weak evidence ("total" of "total revenues")
    alternative = max(((len(a & label) / len(a)) ** 2 for a in spec.alternatives), default=0.0)
    if alternative:
        alternative *= _modifiers_named(spec, label, weights, rarity, qualifiers)
    if alternative and any(qualifiers):
        named = [
            (w, term_share(named_part(t), label, rarity))
            for t, w, q in zip(spec.terms, weights, qualifiers, strict=True)
            if q
        ]
        metric = sum(w for t, w, q in zip(spec.terms, weights, qualifiers, strict=True) if not q and t & spec.triggers)
        alternative = (alternative * metric + sum(w * share for w, share in named)) / (
            metric + sum(w for w, _ in named)
        )
    return max(own, alternative)


def _modifiers_named(
    spec: MetricTerms, label: set[str], weights: Sequence[float], rarity: dict[str, float] | None,
    qualifiers: Sequence[bool],
) -> float:  # fmt: skip
    """The share of the metric a label names through a document phrase: the phrase translates the words of the
    metric's name ("capital expenditures" -> "Purchases of property and equipment"), not the question's words that
    narrow it ("hurricane-related capital expenditures"), which the label must name itself. Terms weighed as in
    :func:`label_cover`; the named qualifiers are weighed there."""
    names = {w for name in spec.named for w in stems(name)}  # a part named ("the Harbour segment"): a doubt's matter
    rest = [
        (w, term_share(named_part(t), label, rarity))
        for t, w, q in zip(spec.terms, weights, qualifiers or [False] * len(spec.terms), strict=True)
        if not q and not t & spec.triggers and not t & names and _narrows_metric(spec, t)
    ]
    metric = sum(w for t, w in zip(spec.terms, weights, strict=True) if t & spec.triggers)
    if not metric or not rest:
        return 1.0
    return (metric + sum(w * share for w, share in rest)) / (metric + sum(w for w, _ in rest))


def _narrows_metric(spec: MetricTerms, term: frozenset[str]) -> bool:
    """Whether the question writes ``term`` right before the metric's translated words, as a word narrowing it
    ("storm-related capital expenditures"), not elsewhere (a company's former name, where to read)."""
    return any(a and a <= term and b & spec.triggers for a, b in pairwise(_word_stems(spec.question)))


@lru_cache(maxsize=256)
def _word_stems(question: str) -> tuple[frozenset[str], ...]:
    """Each word's stems, in order: read once per question, though every label of the evidence asks."""
    return tuple(frozenset(stems(w)) for w in re.findall(r"[\w'’-]+", question))


def cover_of(
    spec: MetricTerms, weights: Sequence[float], rarity: dict[str, float] | None, qualifiers: Sequence[bool]
) -> Callable[[set[str]], float]:
    """:func:`label_cover` of one question's metric, for label after label: a label that shares no word with the
    metric's terms and document phrases covers none of it (0.0, read without weighing each term)."""
    words = frozenset().union(*spec.terms, *spec.alternatives)

    def cover(label: set[str]) -> float:
        return 0.0 if words.isdisjoint(label) else label_cover(spec, label, weights, rarity, qualifiers)

    return cover


def qualifier_terms(spec: MetricTerms, labels: Iterable[set[str]]) -> list[bool]:
    """Which of the question's terms qualify the metric with a name the tables print as a row or column of its own
    ("Kayaks" of "the Kayaks line's comparable sales", when a row is labelled "Kayaks"): a document
    phrase for the metric ("Revenue") names the metric, not the part asked, so a label must name such a term as
    well. A qualifier is a name the question writes capitalised (``spec.named``); lower-case words around the metric
    ("going by the cash flow table") say where to read or how to answer, and a label sharing them is no part.
    The label must name the metric too (half of one of its names at least): the part's own figure is printed, so
    a label that only shares a name (a company's former name in "Acme Holdings stockholders' equity") makes no part.
    Only when the question also names the metric by a word the document phrases translate (``spec.triggers``)."""
    names = {w for name in spec.named for w in stems(name)}
    candidates = [bool(t) and t <= names and not t & spec.triggers for t in spec.terms]
    if not spec.alternatives or not any(t & spec.triggers for t in spec.terms) or not any(candidates):
        return [False] * len(spec.terms)  # the labels are not read: most questions name no such part
    metric = [t for t in spec.terms if t & spec.triggers] + list(spec.alternatives)
    # the part's own figure: a label (with its column) naming the part and the metric both
    parts = [label for label in labels if any(2 * len(m & label) >= len(m) for m in metric)]
    return [c and any(named_part(t) <= label for label in parts) for t, c in zip(spec.terms, candidates, strict=True)]


def named_part(term: frozenset[str]) -> frozenset[str]:
    """What a question's phrase names, without the words that state its scope ("total headcount" names
    headcount): a row labelled "Total" alone is the total of its own table, whatever that counts, so
    sharing the scope word is no evidence that it is the item asked. A phrase of scope words only is
    kept whole."""
    return term - SCOPE_WORDS or term
