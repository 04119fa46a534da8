"""Steps every strategy shares: understanding, answering under the budget, records and results."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

from engine.bricks.generation import ContextBundle, add_support, generate_answer
from engine.bricks.retrieval.index import DocumentIndex
from engine.bricks.retrieval.two_hop import resolve_reference
from engine.bricks.text import estimate_tokens, find_references
from engine.bricks.understanding import enrich
from engine.compose.budget import LoopGuard
from engine.compose.evidence import RunState
from engine.contracts import (
    Action,
    AnswerWithEvidence,
    BackendFallback,
    EvidenceItem,
    IterationRecord,
    ParsedQuestion,
    StopReason,
    Trigger,
)
from engine.llm.base import Backend, TaskRequest
from engine.llm.offline import OfflineBackend

logger = logging.getLogger(__name__)

BUDGET_STOPS: frozenset[StopReason] = frozenset(
    {
        "budget_iterations",
        "budget_llm_calls",
        "budget_retrieval_calls",
        "budget_unique_queries",
        "budget_context_tokens",
        "budget_seconds",
    }
)

_OFFLINE = OfflineBackend()


@dataclass
class Outcome:
    """What a strategy returns to the API layer."""

    answer: AnswerWithEvidence
    history: list[IterationRecord]
    stop_reason: StopReason
    exhausted: bool


def understand_question(
    question: str, backend: Backend, guard: LoopGuard, fallbacks: list[BackendFallback]
) -> ParsedQuestion:
    """Parse the question with the backend, or with the offline rules when the LLM budget is spent."""
    if not guard.allows_llm_call():
        fallbacks.append(BackendFallback(task="parse_question", reason="LLM-call budget is zero; offline rules used"))
        return enrich(_OFFLINE.run("parse_question", TaskRequest(question=question), ParsedQuestion).value)
    request = TaskRequest(question=question, time_limit_seconds=guard.remaining_seconds())
    reply = backend.run("parse_question", request, ParsedQuestion)
    guard.charge_llm(reply.usage)
    if reply.fallback:
        fallbacks.append(reply.fallback)
    return enrich(reply.value)


def answer_now(state: RunState) -> AnswerWithEvidence:
    """Answer from the ledger's strongest evidence within the remaining context and LLM budget."""
    wanted = state.config.generation.max_prompt_tokens
    allowance = state.guard.context_allowance(wanted)
    context = state.context(allowance) if allowance else ContextBundle(evidence=(), tokens=0, dropped=())
    state.notify("answer", f"answering from {len(context.evidence)} passages ({context.tokens} tokens)")
    settings = state.config.generation
    if state.guard.allows_llm_call():
        reply = generate_answer(
            state.question, state.parsed, context, state.backend, state.guard.remaining_seconds(), settings
        )
        state.guard.charge_llm(reply.usage)
        if reply.fallback:
            state.fallbacks.append(reply.fallback)
    else:
        state.fallbacks.append(BackendFallback(task="answer", reason="LLM-call budget spent; offline extraction used"))
        reply = generate_answer(state.question, state.parsed, context, _OFFLINE, settings=settings)
    state.guard.charge_context(min(context.tokens, allowance))
    return _with_unfetched_references(_with_listing(reply.value, state), state)


def with_support(answer: AnswerWithEvidence, state: RunState) -> AnswerWithEvidence:
    """The run's final answer plus supporting passages from any retrieved page, not only the prompt's."""
    settings = state.config.generation
    ledger = state.by_pass().evidence
    return add_support(answer, state.parsed, ledger, settings.max_evidence_pages, settings.min_support_share)


def _with_unfetched_references(answer: AnswerWithEvidence, state: RunState) -> AnswerWithEvidence:
    """Add references the cited passages rely on whose target page has not been fetched yet.

    A caption found by keyword search is not the table: until the two-hop pattern has fetched the
    page that holds the target, a reference named in a cited passage (or in the question) stays
    pending. The backend's own pending references are kept.
    """
    cited = [state.ledger[c.chunk_id].hit.chunk.text for c in answer.citations
             if c.chunk_id in state.ledger and c.role == "answer"]  # fmt: skip
    named = list(state.parsed.references) + list(find_references(" ".join(cited)))
    pending = list(answer.pending_references)
    for reference in dict.fromkeys(named):
        if reference in pending or reference in state.resolved_references:
            continue
        if any(_target_unfetched(state, ix, reference) for ix in state.indexes):
            pending.append(reference)
    if len(pending) == len(answer.pending_references):
        return answer
    return answer.model_copy(update={"pending_references": tuple(pending), "complete_answer_found": False})


def _target_unfetched(state: RunState, index: DocumentIndex, reference: str) -> bool:
    page = resolve_reference(index.doc, reference)
    if page is None:
        return False
    on_page = index.chunks_on_pages([page])
    held = sum(1 for c in on_page if c.chunk_id in state.ledger)
    return held < max(1, len(on_page) // 2)


def _with_listing(answer: AnswerWithEvidence, state: RunState) -> AnswerWithEvidence:
    """Code-computed listing counts take precedence over the backend's estimate, unless the answer
    itself lists more items (an item the section scan missed, found elsewhere in the evidence)."""
    listing = state.listing
    if listing is None or listing.expected_count is None:
        return answer
    found = max(len(listing.items), answer.found_count or 0)
    update: dict[str, object] = {"expected_count": listing.expected_count, "found_count": found}
    if found < listing.expected_count:
        note = f"the document announces {listing.expected_count} items but {found} were found"
        # one count caveat: the listing pattern's count replaces the backend's own estimate
        kept = tuple(c for c in answer.caveats if " announces " not in c)
        update["caveats"] = (*kept, note)
        update["complete_answer_found"] = False
    return answer.model_copy(update=update)


def record(
    state: RunState,
    trigger: Trigger,
    action: Action,
    queries: Sequence[str],
    added: Sequence[str],
    before: float,
    after: float,
    narration: str,
) -> IterationRecord:
    """An IterationRecord for the pass that just ran."""
    return IterationRecord(
        iteration=state.iteration,
        trigger=trigger,
        action_taken=action,
        queries=tuple(queries),
        pages_added=state.pages_of(added),
        candidates_added=tuple(added),
        confidence_before=round(before, 3),
        confidence_after=round(after, 3),
        budget_spent=state.guard.usage(),
        narration=narration,
    )


def pages_phrase(state: RunState, added: Sequence[str]) -> str:
    pages = state.pages_of(added)
    if not pages:
        return "no new pages"
    names = {p.doc_id for p in pages}
    if len(names) == 1:
        return "page" + ("s " if len(pages) > 1 else " ") + ", ".join(str(p.page) for p in pages[:8])
    return ", ".join(f"{p.file_name} p.{p.page}" for p in pages[:8])


def evidence_items(state: RunState, chunk_ids: Sequence[str]) -> tuple[EvidenceItem, ...]:
    names = state.file_names()
    items = []
    for cid in chunk_ids:
        entry = state.ledger.get(cid)
        if entry is None:
            continue
        c = entry.hit.chunk
        items.append(
            EvidenceItem(
                chunk_id=c.chunk_id, doc_id=c.doc_id, file_name=names.get(c.doc_id, c.doc_id), page=c.page,
                text=c.text, score=round(entry.fused * 60, 4), retriever=entry.hit.retriever,
                section_path=c.section_path, kind=c.kind, bold_terms=c.bold_terms,
            )
        )  # fmt: skip
    return tuple(items)


def finish_caveats(answer: AnswerWithEvidence, stop: StopReason, exhausted: bool) -> AnswerWithEvidence:
    """Flag an early stop on the answer itself."""
    notes = list(answer.caveats)
    if exhausted:
        notes.append(f"may be incomplete: the run stopped because {STOP_TEXT[stop]}")
    elif not answer.complete_answer_found and stop not in ("complete", "single_pass", "plan_complete"):
        notes.append(f"may be incomplete: {STOP_TEXT[stop]}")
    deduped = tuple(dict.fromkeys(notes))
    return answer.model_copy(update={"caveats": deduped})


def context_tokens_of(items: Sequence[EvidenceItem]) -> int:
    return sum(estimate_tokens(i.text) for i in items)


STOP_TEXT: dict[StopReason, str] = {
    "complete": "the answer covers the question",
    "single_pass": "the single-pass strategy answers once",
    "iteration_cap": "the iteration cap was reached",
    "no_new_candidates": "the last pass found no new evidence",
    "repeated_trigger_action": "the same signal asked for the same action again",
    "repeated_queries": "every planned query had already been run",
    "confidence_drop": "confidence fell, so the best earlier answer is returned",
    "drift": "new evidence drifted away from the question's anchor terms",
    "no_improvement": "the last pass changed neither the cited passages nor the confidence",
    "no_trigger": "no feedback signal suggested a useful next step",
    "budget_iterations": "the iteration budget is spent",
    "budget_llm_calls": "the LLM-call budget is spent",
    "budget_retrieval_calls": "the retrieval-call budget is spent",
    "budget_unique_queries": "the unique-query budget is spent",
    "budget_context_tokens": "the context-token budget is spent",
    "budget_seconds": "the time budget is spent",
    "partial_answer": "the evidence is partial and the budget allows no more rounds",
    "plan_complete": "every plan step ran",
}
