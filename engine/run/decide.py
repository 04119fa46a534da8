"""The dispatcher: which retrieval patterns fire for a question on a set of documents, and why.

``decide`` is pure: it reads a ``ParsedQuestion``, the documents' ``DocumentProfile``s and the strategy
that will run, and returns an ``Activations`` column in which every pattern carries the reason its rule
gave. A pattern the strategy does not run (its registry entry, ``engine.run.strategies``) is off and says
so; the feedback row says how that strategy loops. No I/O, no LLM. Each rule below has test cases in
tests/run/test_decide.py; change a rule, change its tests.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.contracts import (
    PATTERN_NAMES,
    Activations,
    DocumentProfile,
    EffectiveStrategy,
    ParsedQuestion,
    PatternDecision,
    PatternName,
)
from engine.documents.text import named_tables
from engine.reading.census import asked_census
from engine.retrieval.protocols import LSA_ENGINE
from engine.run.strategies import STRATEGIES, LoopKind

_OPEN_INTENTS = ("open_scoped", "open_corpus_wide", "vague")
DEFAULT_KEYWORD_ENGINE = "Whoosh BM25F"
"""The embedded library's keyword engine; a team library passes its own (PostgreSQL full-text search)."""


def _on(reason: str) -> PatternDecision:
    return PatternDecision(on=True, reason=reason)


def _off(reason: str) -> PatternDecision:
    return PatternDecision(on=False, reason=reason)


def decide(
    parsed: ParsedQuestion,
    profiles: Sequence[DocumentProfile],
    strategy: EffectiveStrategy = "dispatched",
    keyword_engine: str = DEFAULT_KEYWORD_ENGINE,
    max_iterations: int | None = None,
    side_quota: int = 0,
    dense_engine: str = LSA_ENGINE,
) -> Activations:
    """Return the activation column for ``parsed`` over ``profiles``.

    Args:
        parsed: The understood question.
        profiles: One profile per document asked.
        strategy: The strategy that will run; ``single_pass`` is the baseline and runs keyword (and
            TOC when an outline exists) only, once.
        keyword_engine: The engine keyword search runs on (named in its reason).
        max_iterations: The run's iteration budget (None: not known yet); 0 switches the loop off.
        side_quota: Chunks each side of a comparison searches for on its own (0: no side searches).
        dense_engine: The engine dense retrieval runs on ("LSA", "embeddings: MODEL"), named in its reason.
    """
    spec = STRATEGIES[strategy]
    rules: dict[PatternName, PatternDecision] = {
        "toc_retrieval": _toc_rule(parsed, profiles),
        "keyword_retrieval": _keyword_rule(parsed, side_quota, keyword_engine),
        "dense_retrieval": _dense_rule(parsed, profiles, dense_engine, spec.loop),
        "two_hop_references": _two_hop_rule(parsed),
        "listing_aggregation": _listing_rule(parsed),
        "adaptive_parsing": _adaptive_rule(parsed, profiles),
    }
    not_run = _off(f"not part of this strategy ({spec.summary})")
    column = {name: rules[name] if name in spec.patterns else not_run for name in PATTERN_NAMES if name in rules}
    return Activations(**column, iterative_feedback=_loop_rule(spec.loop, max_iterations))


def _keyword_rule(parsed: ParsedQuestion, side_quota: int, engine: str = DEFAULT_KEYWORD_ENGINE) -> PatternDecision:
    if len(parsed.sides) > 1 and side_quota:
        where = "in its own document" if any(s.doc_id for s in parsed.sides) else "on its own"
        return _on(
            f"keyword search ({engine}) runs on every question; each of the {len(parsed.sides)} sides is also "
            f"searched {where} with a quota of {side_quota} chunks, so no side crowds out another"
        )
    return _on(f"keyword search ({engine}) runs on every question")


def _loop_rule(loop: LoopKind, max_iterations: int | None) -> PatternDecision:
    if loop == "none":
        return _off("this strategy answers once: no feedback passes")
    if loop == "plan_steps":
        return _off("this strategy runs its plan's steps once, in dependency order: no feedback passes")
    if max_iterations == 0:
        return _off("the iteration budget is 0: no feedback pass may run")
    cap = "" if max_iterations is None else f" (at most {max_iterations})"
    if loop == "re_plan":
        return _on(f"a judge reads the evidence after each round and re-plans sub-queries for what is missing{cap}")
    return _on(f"the answer's feedback signals drive extra passes within the iteration budget{cap}")


def _toc_rule(parsed: ParsedQuestion, profiles: Sequence[DocumentProfile]) -> PatternDecision:
    with_toc = [p for p in profiles if p.has_usable_toc]
    if with_toc:
        if len(profiles) == 1:
            return _on(f"document has a usable outline ({with_toc[0].toc_entries} entries)")
        return _on(f"{len(with_toc)} of {len(profiles)} documents have a usable outline")
    if parsed.retrieval.section_hint:
        return _on(f"question names section {parsed.retrieval.section_hint} (headings stand in for the outline)")
    return _off("no usable outline and the question names no section")


def _dense_rule(
    parsed: ParsedQuestion, profiles: Sequence[DocumentProfile], engine: str = LSA_ENGINE, loop: LoopKind = "feedback"
) -> PatternDecision:
    decision = _dense_need(parsed, profiles, loop)
    return decision.model_copy(update={"reason": f"{decision.reason}; dense retrieval ({engine})"})


def _dense_need(parsed: ParsedQuestion, profiles: Sequence[DocumentProfile], loop: LoopKind) -> PatternDecision:
    if parsed.intent in _OPEN_INTENTS:
        return _on(f"{parsed.intent.replace('_', ' ')} question: its wording may not match the document's")
    if not parsed.keywords:
        return _on("the question has no specific keywords to match")
    if any(p.is_likely_scanned for p in profiles):
        return _on("an OCR text layer is noisy; meaning-based search backs up exact terms")
    later = "; the loop adds it if keywords miss" if loop == "feedback" else ""  # only that loop switches it on
    return _off(f"specific vocabulary ({parsed.intent.replace('_', ' ')}){later}")


def _two_hop_rule(parsed: ParsedQuestion) -> PatternDecision:
    if parsed.references:
        return _on(f"question names {', '.join(parsed.references)}")
    if parsed.retrieval.section_hint:
        return _on(f"question points at section {parsed.retrieval.section_hint}")
    if parsed.retrieval.layout_hint:
        return _on(f"question asks about a {parsed.retrieval.layout_hint}, usually referenced from the prose")
    if parsed.intent in ("section_retrieval", "open_scoped"):
        return _on(f"{parsed.intent.replace('_', ' ')} questions often lead to referenced passages")
    return _off("nothing points outside the primary passage; the loop follows references the answer cites")


def _listing_rule(parsed: ParsedQuestion) -> PatternDecision:
    census = asked_census(parsed.original_question)
    if census is not None:
        where = "the appendix" if census.scope == "appendix" else census.scope or "the document"
        return _on(
            f"the question counts the {census.kind.lower()} labels of {where}: every distinct '{census.kind} N' "
            "caption or heading there is counted in code"
        )
    if parsed.intent == "listing":
        return _on("listing intent: collect every item of the enumeration")
    if parsed.expected_count is not None:
        return _on(f"question expects {parsed.expected_count} items")
    return _off("the question does not ask for a list")


def _adaptive_rule(parsed: ParsedQuestion, profiles: Sequence[DocumentProfile]) -> PatternDecision:
    tables = any(p.has_tables for p in profiles)
    if parsed.retrieval.layout_hint == "table" and parsed.asks_for_value and tables:
        return _on("a value from a table: re-parse the evidence pages with the table finder")
    named = named_tables(parsed.references)
    if named and tables:  # the text layer breaks a table whose cells wrap; the finder reads its grid
        return _on(f"the question names {named[0]}: its page is re-parsed with the table finder")
    return _off("layer-1 text is enough; switched on if the context comes out garbled")
