"""Contact details asked for ("What is the telephone number of the Harbour Clinic?"), for any backend.

The reading is ``engine.reading.contacts``: the details of the kind asked that the whole pages of the
strongest evidence print (``value_pages``: a page's header or footer line may hold them). Of the pages that
print one, the page naming most of what the question names (the clinic) answers, the strongest first on a
tie; its detail leads the answer, the line it is printed on cited. A page that names all of it and prints
one detail of the kind is a complete answer; otherwise the detail is stated, not claimed. When no evidence
page prints one, the answer is left as it was.
"""

from __future__ import annotations

import logging

from engine.contracts import AnswerWithEvidence, Citation, EvidenceItem
from engine.documents.text import stems
from engine.reading.contacts import Contact, ContactKind, asked_contact, contacts_in
from engine.reading.passages import coverage, term_stems
from engine.run.evidence import RunState
from engine.run.restate import restated
from engine.run.value_pages import value_pages

logger = logging.getLogger(__name__)

NAMED_CONFIDENCE = 0.8
"""One detail of the kind asked, on a page naming everything the question names."""
UNNAMED_CONFIDENCE = 0.45
"""A detail on a page that names only part of what the question names (another office's number)."""
_LABEL = {"telephone": "Telephone", "fax": "Fax", "email": "E-mail", "web": "Web address"}


def with_contact(answer: AnswerWithEvidence, state: RunState) -> AnswerWithEvidence:
    """``answer`` led by the contact detail the question asks for, when an evidence page prints one."""
    if state.top_k is not None:  # the peer baseline answers as its peers do
        return answer
    kind = asked_contact(state.parsed.original_question)
    if kind is None:
        return answer
    terms = term_stems([k for k in state.parsed.keywords if asked_contact(f"what is the {k}") is None])
    best: tuple[float, int, list[EvidenceItem], list[Contact]] | None = None
    for rank, items in enumerate(value_pages(state, None)):
        found = [c for item in items for c in contacts_in(item.text, kind)]
        if not found:
            continue
        named = coverage(terms, stems(" ".join([*(i.text for i in items), *items[0].section_path]))) if terms else 1.0
        if best is None or named > best[0]:
            best = (named, rank, items, found)
    logger.debug("contact %s -> %s", kind, best and best[3])
    if best is None:
        return answer
    named, _, items, found = best
    return _stated(answer, kind, items, found, complete=named >= 0.99 and len({c.value for c in found}) == 1)


def _stated(
    answer: AnswerWithEvidence, kind: ContactKind, items: list[EvidenceItem], found: list[Contact], complete: bool
) -> AnswerWithEvidence:
    first = found[0]
    item = next(i for i in items if first.value in i.text)
    others = [c.value for c in found[1:] if c.value != first.value]
    text = f"{_LABEL[kind]}: {first.value} (p. {item.page})" + (
        f"; also printed there: {', '.join(others)}" if others else ""
    )
    cited = Citation(chunk_id=item.chunk_id, doc_id=item.doc_id, page=item.page, quote=first.line)
    return restated(
        answer, text, [cited], complete=complete, confidence=NAMED_CONFIDENCE if complete else UNNAMED_CONFIDENCE
    )
