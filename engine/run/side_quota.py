"""Sides of a question over several documents: one per document, each mapped to its document.

Whichever backend parsed the question, code decides which document each side is about: a side the
question names ("2031", "Tidewater 3.1", "the Heron Mk II") goes to the document that holds
that name most distinctly (``engine.reading.doc_sides``); a document the question names by nothing
still gets a side, labelled by its title or file name, so retrieval and the answer cover it too.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.contracts import ComparisonSide, ParsedQuestion, RunResult
from engine.documents.text import content_words
from engine.reading.doc_scope import names_a_document, previous_scope, scoped_doc_ids
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


def scoped_indexes(parsed: ParsedQuestion, indexes: Sequence[DocumentIndex]) -> list[DocumentIndex]:
    """The documents a question over several selected ones is about: only the one it names (by its company's
    or product's name; by its period, version or kind of report when it asks nothing across documents), every
    selected document otherwise (``engine.reading.doc_scope``)."""
    if len(indexes) < 2:
        return list(indexes)
    comparison = parsed.intent == "comparison" or len(parsed.sides) > 1
    ids = scoped_doc_ids(parsed.original_question, [document_identity(ix) for ix in indexes], comparison)
    return [ix for ix in indexes if ix.doc.doc_id in ids]


def follow_up_scope(question: str, indexes: Sequence[DocumentIndex], scoped: Sequence[DocumentIndex],
                    previous: RunResult) -> list[DocumentIndex]:  # fmt: skip
    """A follow-up that names no document of its own keeps the previous turn's scope: the one document that
    turn was read from ("And in 2018?" after a question about Acme's filing)."""
    if names_a_document(question, [document_identity(ix) for ix in indexes]):
        return list(scoped)  # the follow-up names its own document(s)
    selected = [ix.doc.doc_id for ix in indexes]
    cited = [p.doc_id for p in previous.evidence_pages]
    across = len({side.doc_id for side in previous.parsed_question.sides if side.doc_id}) > 1
    keep = previous_scope(selected, cited, across)
    return [ix for ix in indexes if ix.doc.doc_id in keep]


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
    """The question's keywords without the words that name a side ("berth fee in Tidewater 2.0" -> "berth fee in"):
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
