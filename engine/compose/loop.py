"""The bounded feedback loop of the dispatched strategy.

Signal -> trigger -> action, in a fixed order across passes (parsing, then validation, vocabulary,
references, comparison sides, listing, and last a generic widening), one shared budget, and stop
rules checked in code after every pass. The best answer seen is returned, never just the last one.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from engine.bricks.text import normalize_query, stems
from engine.compose.evidence import RunState
from engine.compose.steps import BUDGET_STOPS, Outcome, answer_now, pages_phrase, record
from engine.contracts import Action, AnswerWithEvidence, IterationRecord, StopReason, Trigger

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class PlannedAction:
    """What the next pass will do and why."""

    trigger: Trigger
    action: Action
    why: str
    run: Callable[[RunState], tuple[list[str], list[str]]]
    """Executes the action; returns (queries run, chunk ids added)."""
    checks_drift: bool = False
    detail: str = ""
    """Distinguishes two actions of the same kind (the references a two-hop pass follows)."""

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.trigger, self.action, self.detail)


def initial_pass(state: RunState) -> tuple[list[str], list[str]]:
    """Pass 0: every activated pattern retrieves once."""
    parsed, acts = state.parsed, state.activations
    queries: list[str] = []
    added: list[str] = []
    hint = parsed.retrieval.section_hint if acts.is_on("toc_retrieval") else None
    state.notify("retrieve", f"searching for: {parsed.retrieval.main_query}")
    added += state.search(parsed.retrieval.main_query, section_hint=hint)
    queries.append(parsed.retrieval.main_query)
    if len(parsed.sides) > 1:
        quota = max(2, state.config.retrieval.top_k // len(parsed.sides))
        for side in parsed.sides:
            added += state.search(side.query, k=quota)
            queries.append(side.query)
    if acts.is_on("two_hop_references"):
        for reference in parsed.references:
            added += state.follow_reference(reference)
            queries.append(f"two-hop {reference}")
    if acts.is_on("listing_aggregation"):
        added += state.aggregate_listing()
        queries.append("listing " + " ".join(parsed.retrieval.anchor_keywords or parsed.keywords))
    if acts.is_on("adaptive_parsing"):
        top = sorted(state.ledger.values(), key=lambda e: -e.fused)[:12]
        pages = list(dict.fromkeys((e.hit.chunk.doc_id, e.hit.chunk.page) for e in top))[:3]
        state.adaptive_parse(pages)
        queries.append("re-parse " + ", ".join(f"page {p}" for _, p in pages))
        added = list(state.ledger)  # re-parsed pages replaced some chunk ids; pass 0 found them all
    return queries, list(dict.fromkeys(added))


def run_dispatched(state: RunState) -> Outcome:
    """Run pass 0 and then feedback passes until a stop rule fires.

    The latest answer is returned (it has seen the most evidence) unless confidence fell past the
    threshold, in which case the best earlier answer is returned.
    """
    queries, added = initial_pass(state)
    answer = answer_now(state)
    history = [
        record(
            state, "initial", "retrieve", queries, added, 0.0, answer.confidence, _first_narration(state, added, answer)
        )
    ]
    if not state.activations.is_on("iterative_feedback"):
        return Outcome(answer, history, "single_pass", False)
    return _feedback(state, answer, history)


def _feedback(state: RunState, answer: AnswerWithEvidence, history: list[IterationRecord]) -> Outcome:
    best = answer
    used: set[tuple[str, str, str]] = set()
    cfg = state.config.loop
    while True:
        if answer.complete_answer_found:
            return Outcome(answer, history, "complete", False)
        plan, repeated = next_action(state, answer, used)
        if plan is None:
            return _stop(answer, history, "repeated_trigger_action" if repeated else "no_trigger")
        if not state.guard.allows_iteration():
            return _stop(answer, history, state.guard.blocked_by or "budget_iterations")
        used.add(plan.key)
        state.guard.charge_iteration()
        state.iteration += 1
        state.notify("pass", f"pass {state.iteration}: {plan.why}")
        before = answer.confidence
        queries, added = plan.run(state)
        blocked = state.guard.blocked_by
        if plan.action != "retry_answer" and not added:
            history.append(record(state, plan.trigger, plan.action, queries, added, before, before,
                                  _narrate(state, plan, added, before, before) + "; nothing new, stopping"))  # fmt: skip
            reason: StopReason = blocked if blocked in BUDGET_STOPS else "no_new_candidates"
            return _stop(answer, history, reason)
        if plan.checks_drift and _drifted(state, added):
            history.append(record(state, plan.trigger, plan.action, queries, added, before, before,
                                  _narrate(state, plan, added, before, before) + "; off-topic, stopping"))  # fmt: skip
            return _stop(answer, history, "drift")
        previous, answer = answer, answer_now(state)
        history.append(record(state, plan.trigger, plan.action, queries, added, before, answer.confidence,
                              _narrate(state, plan, added, before, answer.confidence)))  # fmt: skip
        if (
            _unchanged(previous, answer)
            and not answer.complete_answer_found
            and not _targeted_next(state, answer, used)
        ):
            return _stop(answer, history, "no_improvement")
        if answer.confidence < best.confidence - cfg.confidence_drop:
            return _stop(best, history, "confidence_drop")
        if answer.confidence >= best.confidence or answer.complete_answer_found:
            best = answer
        if state.guard.blocked_by in BUDGET_STOPS and not answer.complete_answer_found:
            return _stop(answer, history, state.guard.blocked_by)


def _stop(best: AnswerWithEvidence, history: list[IterationRecord], reason: StopReason) -> Outcome:
    return Outcome(best, history, reason, reason in BUDGET_STOPS)


def next_action(
    state: RunState, answer: AnswerWithEvidence, used: set[tuple[str, str, str]]
) -> tuple[PlannedAction | None, bool]:
    """The first applicable action in loop order; (None, True) when the only ones left were used.

    A generic widening (dense search, rephrasings) is tried only when no specific signal exists.
    """
    candidates = [c for c in _candidates(state, answer) if c is not None]
    if not candidates:
        widen = _widen(state, answer)
        candidates = [widen] if widen else []
    for plan in candidates:
        if plan.key not in used:
            return plan, False
    return None, bool(candidates)


def _candidates(state: RunState, answer: AnswerWithEvidence) -> list[PlannedAction | None]:
    return [
        _garbled(state, answer),
        _validation(answer),
        _vocabulary(state, answer),
        _references(state, answer),
        _sides(state, answer),
        _cardinality(state, answer),
    ]


def _garbled(state: RunState, answer: AnswerWithEvidence) -> PlannedAction | None:
    if answer.context_structured or not answer.garbled_pages:
        return None
    pages = sorted(
        {
            (e.hit.chunk.doc_id, e.hit.chunk.page)
            for e in state.ledger.values()
            if e.hit.chunk.page in answer.garbled_pages
        }
        - state.reparsed_pages
    )
    if not pages:
        return None

    def run(s: RunState) -> tuple[list[str], list[str]]:
        done = s.adaptive_parse(pages)
        added = [cid for cid, e in s.ledger.items() if (e.hit.chunk.doc_id, e.hit.chunk.page) in set(done)]
        return [f"re-parse page {p}" for _, p in done], added

    listed = ", ".join(str(p) for _, p in pages)
    return PlannedAction("garbled_context", "adaptive_parse", f"the context looks garbled on page {listed}", run)


def _validation(answer: AnswerWithEvidence) -> PlannedAction | None:
    if not answer.validation_failures:
        return None
    n = len(answer.validation_failures)
    return PlannedAction("validation_failure", "retry_answer", f"{n} citation(s) failed the check", lambda s: ([], []))


def _vocabulary(state: RunState, answer: AnswerWithEvidence) -> PlannedAction | None:
    known = {normalize_query(k) for k in state.parsed.keywords}
    fresh = [k for k in answer.discovered_keywords if normalize_query(k) not in known]
    if not fresh:
        return None
    anchors = list(state.parsed.retrieval.anchor_keywords or state.parsed.keywords)
    room = max(0, state.config.loop.max_keywords - len(anchors))
    terms = anchors + fresh[:room]
    query = " ".join(terms)
    if not state.guard.is_new_query(query):
        return None

    def run(s: RunState) -> tuple[list[str], list[str]]:
        return [query], s.search(query, k=2 * s.config.retrieval.top_k)

    why = "new vocabulary in the evidence: " + ", ".join(fresh[:room][:5])
    return PlannedAction("discovered_vocabulary", "expand_keywords", why, run, checks_drift=True)


def _references(state: RunState, answer: AnswerWithEvidence) -> PlannedAction | None:
    pending = [r for r in answer.pending_references if r not in state.resolved_references]
    if not pending:
        return None

    def run(s: RunState) -> tuple[list[str], list[str]]:
        added: list[str] = []
        for reference in pending:
            added += s.follow_reference(reference)
        return [f"two-hop {r}" for r in pending], added

    why = f"the answer cites {', '.join(pending)}, which was not in the evidence"
    return PlannedAction("pending_references", "two_hop", why, run, detail=",".join(pending))


def _sides(state: RunState, answer: AnswerWithEvidence) -> PlannedAction | None:
    sides = [s for s in state.parsed.sides if s.label in answer.uncovered_sides]
    if not sides:
        return None
    quota = max(3, state.config.retrieval.top_k // 2)

    def run(s: RunState) -> tuple[list[str], list[str]]:
        added: list[str] = []
        queries = [f"{side.query} {' '.join(side.keywords)}".strip() for side in sides]
        for query in queries:
            added += s.search(query, k=quota)
        return queries, added

    why = "no evidence yet for " + ", ".join(s.label for s in sides)
    return PlannedAction("uncovered_side", "side_quota_retrieve", why, run)


def _cardinality(state: RunState, answer: AnswerWithEvidence) -> PlannedAction | None:
    expected, found = answer.expected_count, answer.found_count
    if expected is None or found is None or found >= expected:
        return None

    def run(s: RunState) -> tuple[list[str], list[str]]:
        added = s.aggregate_listing(widen=1)
        query = " ".join(s.parsed.retrieval.anchor_keywords or s.parsed.keywords)
        added += s.search(query, k=s.config.retrieval.top_k + 4)
        return ["listing (broader section)", query], list(dict.fromkeys(added))

    why = f"{expected} items announced, {found} found"
    return PlannedAction("cardinality_mismatch", "broaden_section", why, run)


def _widen(state: RunState, answer: AnswerWithEvidence) -> PlannedAction | None:
    if answer.complete_answer_found:
        return None
    parsed = state.parsed
    if not state.activations.is_on("dense_retrieval"):

        def dense(s: RunState) -> tuple[list[str], list[str]]:
            return [parsed.retrieval.main_query], s.search(
                parsed.retrieval.main_query, use_dense=True, k=s.config.retrieval.top_k + 4
            )

        return PlannedAction(
            "incomplete_answer",
            "enable_dense",
            "the answer is incomplete; adding meaning-based search",
            dense,
            checks_drift=True,
        )
    rewrites = [q for q in parsed.retrieval.rewrites if state.guard.is_new_query(q)][:2]
    if not rewrites:
        return None

    def widen(s: RunState) -> tuple[list[str], list[str]]:
        added: list[str] = []
        for query in rewrites:
            added += s.search(query, k=s.config.retrieval.top_k + 4)
        return rewrites, added

    return PlannedAction(
        "incomplete_answer", "widen_scope", "the answer is incomplete; trying rephrasings", widen, checks_drift=True
    )


def _unchanged(before: AnswerWithEvidence, after: AnswerWithEvidence) -> bool:
    """The pass changed nothing the reader sees: the same quotes and no gain in confidence."""
    quotes = {(c.chunk_id, c.quote) for c in before.citations if c.role == "answer"}
    return quotes == {(c.chunk_id, c.quote) for c in after.citations if c.role == "answer"} and (
        after.confidence <= before.confidence + 0.005
    )


SEARCH_TRIGGERS = frozenset({"discovered_vocabulary", "incomplete_answer"})
"""Triggers whose action is one more search; the others fetch something a signal named."""


def _targeted_next(state: RunState, answer: AnswerWithEvidence, used: set[tuple[str, str, str]]) -> bool:
    """The next action answers a specific signal (a pending reference, a side, a count, garbled text)."""
    plan, _ = next_action(state, answer, used)
    return plan is not None and plan.trigger not in SEARCH_TRIGGERS


def _drifted(state: RunState, added: list[str]) -> bool:
    """The new candidates share (nearly) none of the original anchors, compared by word stems."""
    anchors = state.parsed.retrieval.anchor_keywords or state.parsed.keywords
    if not anchors or not added:
        return False
    text = stems(" ".join(state.ledger[cid].hit.chunk.text for cid in added if cid in state.ledger))
    held = [a for a in anchors if (a_stems := stems(a)) and 2 * len(a_stems & text) >= len(a_stems)]
    return len(held) / len(anchors) < state.config.loop.drift_min_overlap


def _first_narration(state: RunState, added: list[str], answer: AnswerWithEvidence) -> str:
    on = [name.replace("_", " ") for name, d in state.activations.items() if d.on and name != "iterative_feedback"]
    return (
        f"Pass 0: {', '.join(on)} retrieved {pages_phrase(state, added)}; "
        f"first answer at confidence {answer.confidence:.2f}"
    )


def _narrate(state: RunState, plan: PlannedAction, added: list[str], before: float, after: float) -> str:
    return (
        f"Pass {state.iteration}: {plan.why}; {plan.action.replace('_', ' ')} added {pages_phrase(state, added)}; "
        f"confidence {before:.2f} -> {after:.2f}"
    )
