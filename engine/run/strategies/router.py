"""The auto router: classify the question and pick the cheapest strategy that fits. No LLM call."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from engine.contracts import DocumentProfile, ParsedQuestion, RouteDecision
from engine.reading.census import asked_census


def route(parsed: ParsedQuestion, profiles: Sequence[DocumentProfile]) -> RouteDecision:
    """Choose a strategy for ``parsed`` from its intent and shape.

    simple fact -> single_pass (one retrieval, one answer) unless the question or the document needs a
    pattern single-pass lacks; procedural (sections, listings, references) -> dispatched; multi-hop
    bridges -> plan_execute, unless the first hop is a named reference ("In Figure 5, the line that
    ...") which the two-hop pattern fetches; investigative (vague, corpus-wide, or open across several documents) ->
    dynamic; an open question about one document -> dispatched (its loop is cheaper than a plan); named
    phrases joined by "and" -> dispatched (each may sit on its own page). Several documents ->
    dispatched: one side per document, never a bridge question.
    """
    intent = parsed.intent
    if len(profiles) > 1 and intent != "open_corpus_wide":
        return RouteDecision(
            question_class="multi_hop", strategy="dispatched",
            reason=f"{len(profiles)} documents: one side each, each searched in its own document with its own "
            "quota, and the loop fetches a side that is still missing",
        )  # fmt: skip
    if intent in ("open_corpus_wide", "vague"):
        return RouteDecision(
            question_class="investigative", strategy="dynamic",
            reason=f"{intent.replace('_', ' ')} question: plan sub-queries and judge sufficiency",
        )  # fmt: skip
    if intent == "open_scoped":
        return RouteDecision(
            question_class="investigative", strategy="dispatched",
            reason="an open question about one document: the loop widens only when the answer asks for it, "
            "cheaper than planning sub-queries",
        )  # fmt: skip
    if intent == "comparison":
        return RouteDecision(
            question_class="multi_hop", strategy="dispatched",
            reason="a comparison: each side searched with its own quota, and the loop fetches a missing side",
        )  # fmt: skip
    if intent == "multi_hop" and parsed.references:
        return RouteDecision(
            question_class="procedural", strategy="dispatched",
            reason=f"the question names {', '.join(parsed.references)}: the two-hop pattern fetches it, no plan needed",
        )  # fmt: skip
    if intent == "multi_hop":
        return RouteDecision(
            question_class="multi_hop", strategy="plan_execute",
            reason="a bridge question: a later step needs an earlier step's result",
        )  # fmt: skip
    if (
        intent in ("listing", "section_retrieval")
        or parsed.references
        or parsed.retrieval.section_hint
        or asked_census(parsed.original_question)
    ):
        return RouteDecision(
            question_class="procedural", strategy="dispatched",
            reason=f"{intent.replace('_', ' ')} question: patterns beyond one keyword search are needed",
        )  # fmt: skip
    if _joined_anchors(parsed):
        return RouteDecision(
            question_class="multi_hop", strategy="dispatched",
            reason="several named things asked together: each may sit on a page of its own, so the loop reads "
            "on while the answer is incomplete",
        )  # fmt: skip
    if parsed.complexity != "simple" or parsed.retrieval.layout_hint:
        return RouteDecision(
            question_class="procedural", strategy="dispatched",
            reason="a fact that may sit in a table or behind a reference: the loop checks the answer",
        )  # fmt: skip
    return RouteDecision(
        question_class="simple_fact", strategy="single_pass", reason="a simple fact: one retrieval and one answer",
    )  # fmt: skip


def _joined_anchors(parsed: ParsedQuestion) -> bool:
    """Two of the question's named phrases joined by "and" ("the X Leadership and the Y Staff", "has a
    smartphone and owns a tablet computer"): each may sit on its own page."""
    question = parsed.original_question.lower()
    phrases = [a.lower() for a in parsed.retrieval.anchor_keywords if " " in a.strip()]
    places = sorted(i for a in phrases if (i := question.find(a)) >= 0)
    return any(" and " in question[first:second] for first, second in pairwise(places))
