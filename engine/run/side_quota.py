"""Sides of a question over several documents: one per document, each mapped to its document.

Whichever backend parsed the question, code decides which document each side is about: a side the
question names ("2018", "OpenAPI 3.1.0", "the HONOR Watch GS Pro") goes to the document that holds
that name most distinctly (``engine.reading.doc_sides``); a document the question names by nothing
still gets a side, labelled by its title or file name, so retrieval and the answer cover it too.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from engine.contracts import ComparisonSide, ParsedQuestion
from engine.documents.text import content_words
from engine.reading.doc_sides import DocIdentity, DocSide, aspect_of, collective_noun, identity, map_sides
from engine.retrieval.index import DocumentIndex


def side_quota(top_k: int, sides: int) -> int:
    """Chunks each side's own search keeps, so one side (or document) cannot take the whole top-k."""
    return max(3, top_k // max(1, sides) + 1) if sides > 1 else 0


def document_identity(index: DocumentIndex) -> DocIdentity:
    """A document's identity: its file name, its first pages and its first heading."""
    doc = index.doc
    title = next((c.text for c in doc.chunks if c.page <= 2 and c.kind == "heading" and len(c.text) > 3), "")
    return identity(doc.doc_id, doc.file_name, [p.text for p in doc.pages], title)


_ACROSS = re.compile(
    r"\bcompar(?:e|ed|es|ing|ison)\b|\bvs\.?\b|\bversus\b|\bdiffer(?:s|ed|ence|ent)?\b|\bboth\b|\beach\b|"
    r"\beither\b|\bbetween\b|\bchange[sd]?\b|\bfrom\b.+\bto\b|\bmatch(?:es|ed)?\b|\bconsistent\b|\bagree\b",
    re.I,
)
"""Words that ask across documents (to compare, to follow a change from one to the other, to check one against
the other): such a question keeps every selected document even when it names only one."""


def scoped_indexes(parsed: ParsedQuestion, indexes: Sequence[DocumentIndex]) -> list[DocumentIndex]:
    """The documents a question over several selected ones is about: only the one it names (by its company's
    or product's name, its period, its version or its kind of report) when it names exactly one and asks
    nothing across documents ("What was Acme's capex in 2018?" with Acme's and Zenith's reports selected);
    every selected document otherwise."""
    if len(indexes) < 2 or parsed.intent == "comparison" or len(parsed.sides) > 1:
        return list(indexes)
    if _ACROSS.search(parsed.original_question):
        return list(indexes)
    doc_sides = map_sides(parsed.original_question, [document_identity(ix) for ix in indexes])
    named = [side.doc_id for side in doc_sides if side.phrases]
    if len(named) != 1:
        return list(indexes)
    return [ix for ix in indexes if ix.doc.doc_id == named[0]]


def with_document_sides(parsed: ParsedQuestion, indexes: Sequence[DocumentIndex]) -> ParsedQuestion:
    """``parsed`` with one side per document when several are selected (unchanged for one document)."""
    if len(indexes) < 2:
        return parsed
    doc_sides = map_sides(parsed.original_question, [document_identity(ix) for ix in indexes])
    aspect = aspect_of(parsed.original_question, doc_sides, names=True)
    named = {w.lower() for side in doc_sides for phrase in side.phrases for w in phrase.split()}
    named |= set(collective_noun(parsed.original_question).split())
    keywords = _without(parsed.keywords, named)
    sides = tuple(_side(parsed, side, aspect, keywords) for side in doc_sides)
    return parsed.model_copy(update={"sides": sides})


def _without(keywords: Sequence[str], named: set[str]) -> tuple[str, ...]:
    """The question's keywords without the words that name a side ("URL in OpenAPI 2.0" -> "URL in"):
    inside its own document a side's name says nothing about which passage answers."""
    kept: dict[str, None] = {}
    for keyword in keywords:
        words = [w for w in keyword.split() if w.lower() not in named]
        while words and words[-1].lower() in ("in", "of", "for", "on", "the"):
            words.pop()
        if words:
            kept.setdefault(" ".join(words), None)
    return tuple(kept)


def _side(parsed: ParsedQuestion, side: DocSide, aspect: str, keywords: tuple[str, ...]) -> ComparisonSide:
    """The side of one document: what is compared, searched in that document only."""
    query = " ".join(dict.fromkeys([*content_words(aspect), *parsed.retrieval.expansions]))
    return ComparisonSide(label=side.label, query=query or parsed.retrieval.main_query, keywords=keywords,
                          doc_id=side.doc_id)  # fmt: skip
