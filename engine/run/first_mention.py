"""Where a document introduces what it then names everywhere: a defined term's first mentions, and the
passages that count a listed subject.

"What is step-back prompting?" asked of the paper that proposes it: the term is on most of its pages, so the
keyword search ranks the pages that use it most, not the sentence that introduces it ("We present Step-Back
Prompting, a simple technique that ..."), which is its first mention. For a definition question the first
passages naming the whole term, in document order, join the evidence (one retrieval per document).

"What are Acme's reportable segments?" asked of a 10-K: "segments" is on a hundred pages, and the passage
that lists them is the one that counts them ("We are organized into seven reportable segments, as
follows:"). For a listing question the first passages that count its subject join the evidence, and the
items a lead among them announces come with it (``RunState.add``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from itertools import islice

from engine.contracts import Chunk, Hit, RankedList
from engine.documents.text import COUNT_THEN, enumeration_count, listing_subject, stems
from engine.reading.answer_shape import asked_form
from engine.run.evidence import RunState

MAX_MENTIONS = 2
"""Passages read per document: the introduction, and the sentence after a heading or an abstract's break."""


def term_pattern(term: str) -> re.Pattern[str]:
    """The term as a document prints it, whatever its case and hyphens ("Step-Back Prompting", "step back")."""
    words = [re.escape(w) for w in re.split(r"[\s\-]+", term.strip()) if w]
    return re.compile(r"(?<![\w-])" + r"[\s\-]+".join(words) + r"(?![\w-])", re.I)


def counted_pattern(subject: str) -> re.Pattern[str]:
    """A count of the subject's things, two words at most between ("seven reportable segments", "five segments")."""
    return re.compile(COUNT_THEN + re.escape(subject.split()[-1]) + r"\b", re.I)


def first_mentions(state: RunState) -> list[str]:
    """Add the first passages (not headings) naming a definition question's whole term, or counting a listing
    question's subject; the chunk ids added."""
    form, term = asked_form(state.parsed.original_question)
    if form == "definition" and term and state.parsed.intent != "listing":  # "What are X's segments?" lists them
        pattern = term_pattern(term)
        return _mentions(
            state, f"first mention of {term}", lambda chunks: (c for c in chunks if pattern.search(c.text))
        )
    subject = listing_subject(state.parsed.original_question) if state.parsed.intent == "listing" else None
    if not subject:
        return []
    counted, words = counted_pattern(subject), stems(subject)

    def counting(chunks: tuple[Chunk, ...]) -> list[Chunk]:
        found = [c for c in chunks if any(enumeration_count(m.group("count")) for m in counted.finditer(c.text))]
        return sorted(found, key=lambda c: not words <= stems(c.text))  # naming the whole subject first, stably

    return _mentions(state, f"counted {subject}", counting)


def _mentions(state: RunState, what: str, pick: Callable[[tuple[Chunk, ...]], Iterable[Chunk]]) -> list[str]:
    added: list[str] = []
    for index in state.indexes:
        label = f"{what} in {index.doc.doc_id}"
        if not state.guard.allows_retrieval(label):
            break
        chunks = list(islice(pick(tuple(c for c in index.doc.chunks if c.kind != "heading")), MAX_MENTIONS))
        state.guard.charge_retrieval(label)
        hits = tuple(Hit(chunk=c, score=1.0, retriever="keyword", rank=n + 1) for n, c in enumerate(chunks))
        added += state.add(RankedList(query=label, retriever="keyword", hits=hits))
    return added
