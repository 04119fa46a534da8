"""Steps every strategy shares: understanding, answering under the budget, records and results.

Every backend call goes through ``LlmCalls.call``; every answer, whichever backend gave it, gets the
citation check and the code-checked feedback signals (``engine.reading.signals``), then the signals
only the run knows (references whose target page was not fetched yet, the listing pattern's count).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.contracts import (
    Action,
    AnswerWithEvidence,
    Citation,
    EffectiveStrategy,
    EvidenceItem,
    Hit,
    IterationRecord,
    ParsedQuestion,
    RankedList,
    StopReason,
    Trigger,
)
from engine.contracts import CaveatKind as K
from engine.contracts.caveats import caveat, merged, without
from engine.documents.text import estimate_tokens, find_references
from engine.reading.generation import (
    ContextBundle,
    add_support,
    answer_request,
    validate_citations,
    without_bare_headers,
)
from engine.reading.passages import Unit, side_units
from engine.reading.signals import check_answer, count_caveat
from engine.reading.understanding import check_parse, question_request
from engine.retrieval.index import DocumentIndex
from engine.retrieval.two_hop import locate_reference, resolve_reference
from engine.run.calls import LlmCalls
from engine.run.census_answer import census_answer
from engine.run.contact_reader import with_contact
from engine.run.evidence import RunState
from engine.run.extreme_reader import with_extreme
from engine.run.field_reader import with_field
from engine.run.outline_reader import with_outline
from engine.run.page_breaks import joined_across_pages
from engine.run.procedure_reader import with_steps
from engine.run.stops import STOP_TEXT
from engine.run.value_reader import with_value

logger = logging.getLogger(__name__)


@dataclass
class Outcome:
    """What a strategy returns to the API layer."""

    answer: AnswerWithEvidence
    history: list[IterationRecord]
    stop_reason: StopReason
    exhausted: bool
    handed_to: EffectiveStrategy | None = None
    """The strategy that actually ran when this one handed the question over (a rejected plan)."""
    note: str = ""
    """Why it handed over."""


def understand_question(question: str, llm: LlmCalls) -> ParsedQuestion:
    """Parse the question with the run's backend (the rules when the LLM budget is spent), then check it."""
    parsed = llm.call("parse_question", question_request(question), ParsedQuestion, "rules")
    return check_parse(parsed, question)


def answer_now(state: RunState) -> AnswerWithEvidence:
    """Answer from the ledger's strongest evidence within the remaining context and LLM budget (a census
    question's count is stated by code, with no backend call)."""
    if state.census:
        state.notify("answer", "stating the count of the labelled elements found")
        return census_answer(state)
    wanted = state.config.generation.max_prompt_tokens
    allowance = state.guard.context_allowance(wanted)
    context = state.context(allowance) if allowance else ContextBundle(evidence=(), tokens=0, dropped=())
    state.notify("answer", f"answering from {len(context.evidence)} passages ({context.tokens} tokens)")
    request = answer_request(state.question, state.parsed, context, state.config.generation)
    answer = state.llm.call("answer", request, AnswerWithEvidence, "rules")
    state.guard.charge_context(min(context.tokens, allowance))
    for refiner in REFINERS:
        answer = refiner.refine(answer, state, context)
    hold_cited(state, answer)
    return answer


@dataclass(frozen=True)
class Refiner:
    """One step code takes over every backend's answer, in ``REFINERS`` order, with the reason it is there."""

    name: str
    refine: Callable[[AnswerWithEvidence, RunState, ContextBundle], AnswerWithEvidence]
    reason: str


REFINERS: tuple[Refiner, ...] = (
    Refiner("citations", lambda a, s, c: validate_citations(a, c.evidence),
            "a citation must quote a passage the answer was given; others are dropped and counted"),
    Refiner("page_breaks", lambda a, s, c: joined_across_pages(a, s),
            "a quoted sentence a page break cut in two is quoted whole, its beginning cited on the page before"),
    Refiner("signals", lambda a, s, c: check_answer(a, s.parsed, c.evidence),
            "code reads sides, parts, counts, references and garbled pages in the cited passages and decides "
            "whether the answer is complete, whichever backend wrote it"),
    Refiner("real_references", lambda a, s, c: _real_references(a, s),
            "a pending reference counts only when its target exists in a document and is not held already"),
    Refiner("listing_count", lambda a, s, c: _with_listing(a, s),
            "the listing pattern's count of an enumeration replaces the backend's estimate"),
    Refiner("unfetched_references", lambda a, s, c: _with_unfetched_references(a, s),
            "a reference the cited passages rely on stays pending until its target page is fetched"),
    Refiner("values", lambda a, s, c: with_value(a, s),
            "a value asked for is read from the table row or sentence that names it, for the period asked"),
    Refiner("extremes", lambda a, s, c: with_extreme(a, s),
            "a superlative asked over a table is the extreme cell of the column whose header names the measure"),
    Refiner("fields", lambda a, s, c: with_field(a, s),
            "a question naming a filled-in form's field is answered by the value printed against its label"),
    Refiner("outline", lambda a, s, c: with_outline(a, s),
            "the parts of a section the question names are the entries under it in the document's outline"),
    Refiner("procedures", with_steps,
            "a how-to question is answered by the numbered steps of the section its best passage sits in, in order"),
    Refiner("contacts", lambda a, s, c: with_contact(a, s),
            "a telephone or fax number, e-mail or web address asked for is the one the page naming the subject prints"),
)  # fmt: skip
"""The answer's refiners, in the order they run (each reads what the ones before it decided)."""


def hold_cited(state: RunState, answer: AnswerWithEvidence) -> None:
    """Put every cited chunk into the evidence ledger (a value may be read from a table page the retrieval
    did not return)."""
    for citation in answer.citations:
        if citation.chunk_id in state.ledger:
            continue
        index = state.layer1_index_of(citation.doc_id)
        chunk = index.chunk(citation.chunk_id) if index is not None else None
        if chunk is not None:
            hit = Hit(chunk=chunk, score=1.0, retriever="value", rank=1)
            state.add(RankedList(query=f"value p.{citation.page}", retriever="value", hits=(hit,)))


def _real_references(answer: AnswerWithEvidence, state: RunState) -> AnswerWithEvidence:
    """Keep only pending references whose target exists (a caption or heading of that name in one of
    the documents: "Version 2.0" in a release table names no "Note 2.0") and is not in the evidence
    already (its caption, or the rows or text right below it, were retrieved)."""
    real = tuple(
        r for r in answer.pending_references
        if any(resolve_reference(ix.doc, r) for ix in state.indexes) and not _target_held(state, r)
    )  # fmt: skip
    if real == answer.pending_references:
        return answer
    caveats = tuple(c for c in answer.caveats if c.kind != K.PENDING_REFERENCE or c.subject in real)
    return answer.model_copy(update={"pending_references": real, "caveats": caveats})


PAGES_PER_SIDE = 3
"""A question over several documents may cite this many pages of each (a statement and its notes)."""


def with_support(answer: AnswerWithEvidence, state: RunState) -> AnswerWithEvidence:
    """The run's final answer plus supporting passages from any retrieved page, not only the prompt's;
    for a question over several documents, each document side's own best pages, in turns. A cited
    passage's continuation is part of the passage: it takes no supporting page's place."""
    settings = state.config.generation
    ledger = state.by_pass().evidence
    doc_sides = sum(1 for side in state.parsed.sides if side.doc_id)
    max_pages = max(settings.max_evidence_pages, PAGES_PER_SIDE * doc_sides)
    pages_before = len({(c.doc_id, c.page) for c in answer.citations})
    answer = _with_continuations(answer, state.parsed, ledger, settings.min_support_share)
    max_pages += len({(c.doc_id, c.page) for c in answer.citations}) - pages_before
    searched = [item for item in ledger if item.retriever != "continuation"]
    if doc_sides:
        answer = _side_support(answer, state, searched, max_pages)
    return add_support(answer, state.parsed, searched, max_pages, settings.min_support_share)


def _with_continuations(
    answer: AnswerWithEvidence, parsed: ParsedQuestion, ledger: Sequence[EvidenceItem], min_share: float
) -> AnswerWithEvidence:
    """Cite the continuation the loop read of a cited passage (its section across the page break) beside it."""
    cited = {(c.doc_id, c.page) for c in answer.citations}
    read = [
        item for item in ledger
        if item.retriever == "continuation" and (item.doc_id, item.page) not in cited
        and ((item.doc_id, item.page - 1) in cited or (item.doc_id, item.page + 1) in cited)
    ]  # fmt: skip
    if not read:
        return answer
    return add_support(answer, parsed, read, len(cited) + len({(i.doc_id, i.page) for i in read}), min_share)


def _side_support(
    answer: AnswerWithEvidence, state: RunState, ledger: Sequence[EvidenceItem], max_pages: int
) -> AnswerWithEvidence:
    """Supporting passages chosen per document side by how well they answer that side, sides in turns."""
    cited = {(c.doc_id, c.page) for c in answer.citations}
    queues: list[list[Citation]] = []
    for side in (s for s in state.parsed.sides if s.doc_id):
        best: dict[tuple[str, int], Unit] = {}
        for unit in sorted(side_units(ledger, state.parsed, side), key=lambda u: -u.score):
            best.setdefault((unit.item.doc_id, unit.item.page), unit)
        queues.append([
            Citation(chunk_id=u.item.chunk_id, doc_id=u.item.doc_id, page=u.item.page, quote=u.text, role="support")
            for page, u in best.items() if page not in cited and u.weighted_coverage > 0
        ])  # fmt: skip
    added: list[Citation] = []
    while len(cited) < max_pages and any(queues):
        for queue in queues:
            if queue and len(cited) < max_pages:
                citation = queue.pop(0)
                if (citation.doc_id, citation.page) not in cited:
                    cited.add((citation.doc_id, citation.page))
                    added.append(citation)
    return answer.model_copy(update={"citations": answer.citations + tuple(added)}) if added else answer


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
        if any(_target_unfetched(state, ix, reference) for ix in state.indexes) and not _target_held(state, reference):
            pending.append(reference)
    if len(pending) == len(answer.pending_references):
        return answer
    return answer.model_copy(update={"pending_references": tuple(pending), "complete_answer_found": False})


def _target_held(state: RunState, reference: str) -> bool:
    """The evidence holds a reference's target: its caption or heading chunk, or one of the few chunks
    that follow it on its page (a table's rows, a section's first paragraphs)."""
    for index in state.indexes:
        found = locate_reference(index.doc, reference)
        if found is None:
            continue
        page, anchor = found
        chunks = list(index.chunks_on_pages([page]))
        start = chunks.index(anchor) if anchor is not None and anchor in chunks else 0
        if any(c.chunk_id in state.ledger for c in chunks[start : start + 4]):
            return True
    return False


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
        # one count caveat: the listing pattern's count replaces the backend's own estimate
        update["caveats"] = (*without(answer.caveats, K.COUNT_SHORT), count_caveat(listing.expected_count, found))
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
        pages_added=state.new_pages(added),
        candidates_added=tuple(added),
        confidence_before=round(before, 3),
        confidence_after=round(after, 3),
        budget_spent=state.guard.usage(),
        narration=narration,
    )


def pages_phrase(state: RunState, added: Sequence[str]) -> str:
    """The pages a pass added, and only those ("pages 7, 9"; "no new pages" when it found more of pages
    the evidence already had)."""
    pages = state.new_pages(added)
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
                text=c.text, score=round(entry.fused * state.rrf_k, 4), retriever=entry.hit.retriever,
                section_path=c.section_path, kind=c.kind, bold_terms=c.bold_terms,
            )
        )  # fmt: skip
    return tuple(items)


def finish_caveats(answer: AnswerWithEvidence, stop: StopReason, exhausted: bool) -> AnswerWithEvidence:
    """Flag an early stop on the answer itself."""
    notes = list(answer.caveats)
    if exhausted:
        notes.append(caveat(K.STOPPED_EARLY, stop, STOP_TEXT[stop], figures=(1.0,)))
    elif not answer.complete_answer_found and stop not in ("complete", "single_pass", "plan_complete"):
        notes.append(caveat(K.STOPPED_EARLY, stop, STOP_TEXT[stop]))
    return answer.model_copy(update={"caveats": merged(notes)})


NOT_ESTABLISHED = "The evidence does not establish an answer."
"""How an answer below the confidence line begins: the passages that follow are the closest found."""


def below_the_line(answer: AnswerWithEvidence, min_confidence: float) -> AnswerWithEvidence:
    """An answer under ``min_confidence`` is not claimed: it is stated as the best-supported reading, not
    complete (the loop read it so too: ``stops.claimed``), with a caveat saying it is not verified beside
    the caveats that say what may be missing; its supporting passages follow it. Only an answer with
    nothing to read (``declines``) says the evidence does not establish one and offers its passages as the
    closest ones found (support), instead of claiming them as the answer."""
    if answer.confidence >= min_confidence or not answer.answer_found:
        return answer
    if not declines(answer):
        note = caveat(K.UNCLAIMED, figures=(answer.confidence, min_confidence))
        return answer.model_copy(update={"complete_answer_found": False, "caveats": (*answer.caveats, note)})
    lines = [NOT_ESTABLISHED, "Closest passages:", answer.text]
    citations = tuple(c.model_copy(update={"role": "support"}) for c in answer.citations)
    return answer.model_copy(update={"text": "\n".join(lines), "citations": citations})


DECLINING = frozenset({
    K.NO_EVIDENCE, K.UNMATCHED, K.VALUE_NOT_COUNT, K.VALUE_NOT_RATIO, K.VALUES_MISSING, K.ONE_OF_TWO_VALUES,
    K.ONE_OF_TWO_TERMS,
})  # fmt: skip
"""The caveats that leave an answer under the claim line with nothing to state: no evidence was retrieved,
no passage holds enough of the question's terms to be a reading of it, or the value read is not of the kind
asked (an amount for a count or a ratio, one operand of two): stated, it would read as the answer. Any other
weakness (the passages match only some key terms, miss a side, name no period, bear on a yes/no question
without saying yes or no) is stated as the best-supported reading, labelled as not verified, with what may
be missing: declining would hide the passage that answers, and the calibrated confidence tells the analyst
how far to trust it."""


def declines(answer: AnswerWithEvidence) -> bool:
    """Whether an answer under the claim line has nothing to state (``DECLINING``; a passage stating no value
    where one is asked, or no date, states nothing of the kind asked either)."""
    return not answer.answer_found or any(
        c.kind in DECLINING or (c.kind == K.TYPE_NOT_STATED and c.subject != "yes_no") for c in answer.caveats
    )


def context_tokens_of(items: Sequence[EvidenceItem]) -> int:
    return sum(estimate_tokens(i.text) for i in items)


def finished_answer(outcome: Outcome, state: RunState) -> AnswerWithEvidence:
    """The answer a run returns: supporting passages added, an early stop flagged, and an answer under the
    claim line not claimed; a table's bare header row is never a supporting passage."""
    final = finish_caveats(with_support(outcome.answer, state), outcome.stop_reason, outcome.exhausted)
    return without_bare_headers(below_the_line(final, state.config.generation.min_claim_confidence))
