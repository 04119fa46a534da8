"""Sides of a question over several documents: one per document, each mapped to its document.

Whichever backend parsed the question, code decides which document each side is about: a side the
question names ("2018", "OpenAPI 3.1.0", "the HONOR Watch GS Pro") goes to the document that holds
that name most distinctly (``engine.bricks.doc_sides``); a document the question names by nothing
still gets a side, labelled by its title or file name, so retrieval and the answer cover it too.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.bricks.doc_sides import DocIdentity, DocSide, aspect_of, identity, map_sides
from engine.bricks.retrieval.index import DocumentIndex
from engine.bricks.text import content_words
from engine.contracts import ComparisonSide, ParsedQuestion


def document_identity(index: DocumentIndex) -> DocIdentity:
    """A document's identity: its file name, its first pages and its first heading."""
    doc = index.doc
    title = next((c.text for c in doc.chunks if c.page <= 2 and c.kind == "heading" and len(c.text) > 3), "")
    return identity(doc.doc_id, doc.file_name, [p.text for p in doc.pages], title)


def with_document_sides(parsed: ParsedQuestion, indexes: Sequence[DocumentIndex]) -> ParsedQuestion:
    """``parsed`` with one side per document when several are selected (unchanged for one document)."""
    if len(indexes) < 2:
        return parsed
    doc_sides = map_sides(parsed.original_question, [document_identity(ix) for ix in indexes])
    aspect = aspect_of(parsed.original_question, doc_sides)
    sides = tuple(_side(parsed, side, aspect) for side in doc_sides)
    return parsed.model_copy(update={"sides": sides})


def _side(parsed: ParsedQuestion, side: DocSide, aspect: str) -> ComparisonSide:
    """The side of one document: what is compared, searched in that document only."""
    named = {w.lower() for phrase in side.phrases for w in phrase.split()}
    keywords = tuple(k for k in parsed.keywords if k.lower() not in named)
    query = " ".join(dict.fromkeys([*content_words(aspect), *parsed.retrieval.expansions]))
    return ComparisonSide(label=side.label, query=query or parsed.retrieval.main_query, keywords=keywords,
                          doc_id=side.doc_id)  # fmt: skip
