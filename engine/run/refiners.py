"""The steps code takes over every backend's answer (``REFINERS``), and the references and counts only
the run knows (a reference whose target page was not fetched yet, the listing pattern's count)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.contracts import AnswerWithEvidence, Hit, RankedList
from engine.contracts import CaveatKind as K
from engine.contracts.caveats import without
from engine.documents.text import find_references
from engine.reading.generation import ContextBundle, validate_citations
from engine.reading.signals import check_answer, count_caveat
from engine.retrieval.index import DocumentIndex
from engine.retrieval.two_hop import locate_reference, resolve_reference
from engine.run.contact_reader import with_contact
from engine.run.evidence import RunState
from engine.run.extreme_reader import with_extreme
from engine.run.field_reader import with_field
from engine.run.outline_reader import with_outline
from engine.run.page_breaks import joined_across_pages
from engine.run.procedure_reader import with_steps
from engine.run.value_reader import with_value


def refined(answer: AnswerWithEvidence, state: RunState, context: ContextBundle) -> AnswerWithEvidence:
    """``answer`` after every refiner, in order, its cited chunks held in the evidence ledger."""
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
