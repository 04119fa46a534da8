"""A defined term's first mentions: where a document introduces what it then names everywhere.

"What is step-back prompting?" asked of the paper that proposes it: the term is on most of its pages, so the
keyword search ranks the pages that use it most, not the sentence that introduces it ("We present Step-Back
Prompting, a simple technique that ..."), which is its first mention. For a definition question the first
passages naming the whole term, in document order, join the evidence (one retrieval per document).
"""

from __future__ import annotations

import re
from itertools import islice

from engine.contracts import Hit, RankedList
from engine.reading.answer_shape import asked_form
from engine.run.evidence import RunState

MAX_MENTIONS = 2
"""Passages read per document: the introduction, and the sentence after a heading or an abstract's break."""


def term_pattern(term: str) -> re.Pattern[str]:
    """The term as a document prints it, whatever its case and hyphens ("Step-Back Prompting", "step back")."""
    words = [re.escape(w) for w in re.split(r"[\s\-]+", term.strip()) if w]
    return re.compile(r"(?<![\w-])" + r"[\s\-]+".join(words) + r"(?![\w-])", re.I)


def first_mentions(state: RunState) -> list[str]:
    """Add the first passages (not headings) naming a definition question's whole term; the chunk ids added."""
    form, term = asked_form(state.parsed.original_question)
    if form != "definition" or not term:
        return []
    pattern = term_pattern(term)
    added: list[str] = []
    for index in state.indexes:
        label = f"first mention of {term} in {index.doc.doc_id}"
        if not state.guard.allows_retrieval(label):
            break
        chunks = list(
            islice((c for c in index.doc.chunks if c.kind != "heading" and pattern.search(c.text)), MAX_MENTIONS)
        )
        state.guard.charge_retrieval(label)
        hits = tuple(Hit(chunk=c, score=1.0, retriever="keyword", rank=n + 1) for n, c in enumerate(chunks))
        added += state.add(RankedList(query=label, retriever="keyword", hits=hits))
    return added
