"""Questions about a document's structure ("which subsections does section 'Flight Planning' include?"),
answered from the outline of the documents asked, for any backend.

The reading is ``engine.reading.outline_answer``: the named section's entries one level down, in order,
each cited at its heading. The outline a PDF carries in its bookmarks is the document's own statement of
its structure, so that answer is complete; an outline the parser rebuilt from heading fonts is stated but
not claimed. A question that names no section of the outline leaves the answer as it was.
"""

from __future__ import annotations

import logging

from engine.contracts import AnswerWithEvidence, Citation, ParsedDocument
from engine.contracts import CaveatKind as K
from engine.reading.outline_answer import SectionParts, asked_section, parts_statement, section_parts
from engine.retrieval.toc import section_chunks
from engine.run.evidence import RunState
from engine.run.restate import restated

logger = logging.getLogger(__name__)

OUTLINE_CONFIDENCE = 0.9
"""Parts read from the PDF's own bookmarks: the document states them."""
REBUILT_CONFIDENCE = 0.5
"""Parts read from an outline rebuilt from heading fonts: a body line set in bold may pass for a heading."""


def with_outline(answer: AnswerWithEvidence, state: RunState) -> AnswerWithEvidence:
    """``answer`` replaced by the parts of the section the question names, when an outline has it (module doc)."""
    if state.top_k is not None:  # the peer baseline answers as its peers do
        return answer
    name = asked_section(state.parsed.original_question)
    if name is None:
        return answer
    found = [(index.doc, parts) for index in state.indexes if (parts := section_parts(index.doc, name))]
    logger.debug("outline parts of %r -> %d documents", name, len(found))
    if not found:
        return answer
    several = len(found) > 1
    lines = [
        f"{doc.file_name}: {parts_statement(parts)}" if several else parts_statement(parts) for doc, parts in found
    ]
    cited = [c for doc, parts in found for c in _headings(doc, parts)]
    bookmarked = all(doc.toc_source == "outline" for doc, _ in found)
    return restated(
        answer, "\n".join(lines), cited, keep_citations=False,
        complete=bookmarked and len(cited) >= sum(len(p.parts) for _, p in found),
        confidence=OUTLINE_CONFIDENCE if bookmarked else REBUILT_CONFIDENCE,
        moot=(K.UNMATCHED, K.PARTIAL_MATCH, K.TERM_UNNAMED, K.COUNT_SHORT),
    ).model_copy(update={"pending_references": ()})  # fmt: skip


def _headings(doc: ParsedDocument, found: SectionParts) -> list[Citation]:
    """Each part's heading chunk, cited with its title as the quote."""
    cited: list[Citation] = []
    for part in found.parts:
        chunks = section_chunks(doc, part, limit=1)
        if chunks:
            chunk = chunks[0]
            cited.append(Citation(chunk_id=chunk.chunk_id, doc_id=doc.doc_id, page=chunk.page, quote=chunk.text[:300]))
    return cited
