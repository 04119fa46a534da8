"""dispatched: the dispatcher's patterns retrieve once, then a bounded feedback loop.

Every pass reads the last answer's signals, plans the first applicable action (``engine.run.actions``),
runs it and answers again; the stop rules (``engine.run.stops``) are asked before each pass, after
its retrieval and after its answer. The latest answer is returned (it has seen the most evidence),
unless an earlier one was better (complete, more sides covered, or more confident: ``better``).
"""

from __future__ import annotations

from engine.contracts import AnswerWithEvidence, IterationRecord, StopReason
from engine.contracts import CaveatKind as K
from engine.documents.layout import has_rows
from engine.documents.text import named_tables
from engine.retrieval.two_hop import resolve_reference
from engine.run.actions import PlannedAction, anchor_share, next_action
from engine.run.census_answer import count_labels
from engine.run.evidence import RunState
from engine.run.first_mention import first_mentions
from engine.run.steps import Outcome, answer_now, pages_phrase, record
from engine.run.stops import BUDGET_STOPS, SEARCH_TRIGGERS, LoopView, Phase, first_stop, weaker_evidence
from engine.run.value_reader import value_searches


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
        added += _side_searches(state, queries)
    inputs, found = value_searches(state)
    queries += inputs
    added += found + first_mentions(state)
    if acts.is_on("two_hop_references"):
        for reference in parsed.references:
            added += state.follow_reference(reference)
            queries.append(f"two-hop {reference}")
    if acts.is_on("listing_aggregation"):
        added += count_labels(state)
        if state.census:
            queries.append(f"census of {state.census[0].kind.lower()} labels")
        else:
            added += state.aggregate_listing()
            queries.append("listing " + " ".join(parsed.retrieval.anchor_keywords or parsed.keywords))
    if acts.is_on("adaptive_parsing"):
        top = sorted(state.ledger.values(), key=lambda e: -e.fused)[:12]
        pages = list(dict.fromkeys((e.hit.chunk.doc_id, e.hit.chunk.page) for e in top))[:3]
        pages = [p for p in pages if not _rows_read(state, p)]  # layer 1 already reads their tables as rows
        pages = list(dict.fromkeys([*_named_table_pages(state), *pages]))
        if pages:
            state.adaptive_parse(pages)
            queries.append("re-parse " + ", ".join(f"page {p}" for _, p in pages))
            added = list(state.ledger)  # re-parsed pages replaced some chunk ids; pass 0 found them all
    return queries, list(dict.fromkeys(added))


def _named_table_pages(state: RunState) -> list[tuple[str, int]]:
    """The pages holding the tables the question names ("Table 1-1"), whatever layer 1 read there: a table whose
    cells wrap comes out of the text layer as fragments, some of them rows, and only the finder reads its grid."""
    found: list[tuple[str, int]] = []
    for reference in named_tables(state.parsed.references):
        for index in state.indexes:
            page = resolve_reference(index.doc, reference)
            if page is not None:
                found.append((index.doc.doc_id, page))
    return found


def _rows_read(state: RunState, page: tuple[str, int]) -> bool:
    """Whether the layer-1 parse of a page already holds table rows ("label | cell | cell"), so the
    table finder would read nothing new there."""
    index = state.index_of(page[0])
    return index is not None and any(has_rows(c.text) for c in index.chunks_on_pages([page[1]]))


def _side_searches(state: RunState, queries: list[str]) -> list[str]:
    """One search per side, in the side's own document when it has one, with the side's quota. (A search
    per part as well was tried: on two-document comparisons it drew passages that match one part's few
    words and crowded out the passages that answer the side; the answer still covers each part.)"""
    added: list[str] = []
    for side in state.parsed.sides:
        docs = [ix for ix in state.indexes if ix.doc.doc_id == side.doc_id] if side.doc_id else None
        added += state.search(side.query, k=state.side_quota, docs=docs)
        queries.append(side.query)
    return added


def run_dispatched(state: RunState) -> Outcome:
    """Run pass 0 and then feedback passes until a stop rule fires."""
    queries, added = initial_pass(state)
    answer = answer_now(state)
    narration = _first_narration(state, added, answer)
    history = [record(state, "initial", "retrieve", queries, added, 0.0, answer.confidence, narration)]
    if not state.activations.is_on("iterative_feedback"):
        if state.guard.budget.max_iterations == 0 and not answer.complete_answer_found:
            return Outcome(answer, history, "budget_iterations", True)  # the loop was wanted; the budget allowed none
        return Outcome(answer, history, "complete" if answer.complete_answer_found else "single_pass", False)
    return _feedback(state, answer, history)


_STOP_NOTES: dict[StopReason, str] = {"drift": "off-topic, stopping"}
"""The narration's ending when a pass stops after its retrieval (default: nothing new)."""
_WEAKER_NOTE = "its passages cover less of the question than the one cited, so the answer stands"


def _feedback(state: RunState, answer: AnswerWithEvidence, history: list[IterationRecord]) -> Outcome:
    best = answer
    used: set[tuple[str, str, str]] = set()
    while True:
        plan, repeated = next_action(state, answer, used)
        # the guard is asked (and may record what blocked it) only when a pass would otherwise start
        allowed = plan is None or answer.complete_answer_found or state.guard.allows_iteration()
        stop = first_stop(_view(state, "before_pass", answer, best, plan, only_used=repeated, allowed=allowed))
        if stop is not None or plan is None:
            return _stop(better(best, answer), history, stop or "no_trigger")
        used.add(plan.key)
        state.guard.charge_iteration()
        state.iteration += 1
        state.notify("pass", f"pass {state.iteration}: {plan.why}")
        before = answer.confidence
        queries, added = plan.run(state)
        share = anchor_share(state, added) if plan.checks_drift else None
        strengths = _strengths(state, answer, added) if _measured(state, plan) else None
        view = _view(
            state, "after_retrieval", answer, best, None, last=plan, added=added, share=share, strengths=strengths
        )
        stop = first_stop(view)
        if stop is not None or weaker_evidence(view):
            note = f"; {_STOP_NOTES.get(stop, 'nothing new, stopping')}" if stop else f"; {_WEAKER_NOTE}"
            narration = _narrate(state, plan, added, before, before) + note
            history.append(record(state, plan.trigger, plan.action, queries, added, before, before, narration))
            if stop is not None:
                return _stop(better(best, answer), history, stop)
            continue
        previous, answer = answer, answer_now(state)
        narration = _narrate(state, plan, added, before, answer.confidence)
        history.append(record(state, plan.trigger, plan.action, queries, added, before, answer.confidence, narration))
        following, _ = next_action(state, answer, used)
        stop = first_stop(_view(state, "after_answer", answer, best, following, last=plan, previous=previous))
        if stop is not None:
            return _stop(best if stop == "confidence_drop" else better(best, answer), history, stop)
        best = better(best, answer)


def better(best: AnswerWithEvidence, latest: AnswerWithEvidence) -> AnswerWithEvidence:
    """The answer to keep: a complete one first, then the one covering more sides, then the more
    confident; on a tie the latest (it has seen the most evidence). More evidence is not always a
    better answer: a pass that drew noisier passages must not replace a better earlier answer."""

    def key(a: AnswerWithEvidence) -> tuple[bool, int, float]:
        return (a.complete_answer_found, -len(a.uncovered_sides), round(a.confidence, 3))

    return latest if key(latest) >= key(best) else best


def _view(
    state: RunState,
    phase: Phase,
    answer: AnswerWithEvidence,
    best: AnswerWithEvidence,
    plan: PlannedAction | None,
    *,
    only_used: bool = False,
    allowed: bool = True,
    last: PlannedAction | None = None,
    added: list[str] | None = None,
    share: float | None = None,
    previous: AnswerWithEvidence | None = None,
    strengths: tuple[float, float] | None = None,
) -> LoopView:
    """A read-only view of the loop at ``phase`` for the stop rules."""
    loop = state.config.loop
    return LoopView(
        phase=phase, answer=answer, best=best, previous=previous,
        new_strength=strengths[0] if strengths else None, cited_strength=strengths[1] if strengths else 0.0,
        next_trigger=plan.trigger if plan else None, only_used_actions_left=only_used, pass_allowed=allowed,
        blocked_by=state.guard.blocked_by, last_action=last.action if last else None, added=len(added or ()),
        anchor_share=share, drift_min_overlap=loop.drift_min_overlap, confidence_drop=loop.confidence_drop,
        claim_confidence=state.config.generation.min_claim_confidence,
    )  # fmt: skip


def _measured(state: RunState, plan: PlannedAction) -> bool:
    """Whether a pass's new passages are measured against the cited one before answering again: every
    search, a cited passage's continuation (kept as support when it adds less), and a reference the
    evidence mentioned (one the question names is fetched to be read)."""
    if plan.trigger in SEARCH_TRIGGERS or plan.trigger == "passage_continues":
        return True
    named = set(state.parsed.references)
    return plan.trigger == "pending_references" and not any(r in named for r in plan.detail.split(","))


def _strengths(state: RunState, answer: AnswerWithEvidence, added: list[str]) -> tuple[float, float] | None:
    """(best question coverage of the added chunks, of the chunks the answer cites); an answer not found
    yet is measured by the closest passages it offers (a new passage covering less of the question will
    not answer it either, and re-answering would only trade those passages for weaker ones); None when
    the answer cites nothing (any new passage may then be the first answer)."""
    cited = [c.chunk_id for c in answer.citations if c.role == "answer" and c.chunk_id in state.ledger] or [
        c.chunk_id for c in answer.citations if c.chunk_id in state.ledger
    ]
    if not cited or not added or any(c.kind == K.PARTS_UNCOVERED for c in answer.caveats):
        return None  # a part the answer leaves uncovered may be answered by a passage that covers less of the rest
    return state.question_strength(added), state.question_strength(cited)


def _stop(answer: AnswerWithEvidence, history: list[IterationRecord], reason: StopReason) -> Outcome:
    return Outcome(answer, history, reason, reason in BUDGET_STOPS)


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
