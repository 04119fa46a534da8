"""A quoted sentence that a page break cut in two is quoted whole, for any backend.

PDF text is read page by page, so a sentence running over a page break starts on one page ("Furthermore,
the Heron 3") and ends on the next ("carries twice the payload of its predecessor."). A quote that opens a
page in lower case, where the previous page's last passage stops without ending its sentence, is the end
of that sentence: its beginning is put before it in the answer, and the previous page's passage is cited
beside it. Without this the answer would lose the sentence's subject, often the very thing asked.
"""

from __future__ import annotations

import logging
import re

from engine.contracts import AnswerWithEvidence, Chunk, Citation
from engine.run.evidence import RunState

logger = logging.getLogger(__name__)

_SENTENCE_END = re.compile(r"[.!?:;)\]”\"]\s*$")
_LAST_SENTENCE = re.compile(r"(?:^|(?<=[.!?])\s+)(?=[A-Z0-9“\"(])")
MAX_HEAD = 200
"""At most this many characters of the previous page are put before the quote: one sentence's beginning."""


def joined_across_pages(answer: AnswerWithEvidence, state: RunState) -> AnswerWithEvidence:
    """``answer`` with each cut sentence it quotes made whole (module doc)."""
    text, added = answer.text, []
    for citation in answer.citations:
        if citation.role != "answer" or not citation.quote[:1].islower() or citation.quote not in text:
            continue
        head = _head(state, citation)
        if head is None:
            continue
        fragment, chunk = head
        text = text.replace(citation.quote, f"{fragment} {citation.quote}", 1)
        added.append(Citation(chunk_id=chunk.chunk_id, doc_id=chunk.doc_id, page=chunk.page, quote=fragment))
    if not added:
        return answer
    logger.debug("joined %d sentences across page breaks", len(added))
    return answer.model_copy(update={"text": text, "citations": (*answer.citations, *added)})


def _head(state: RunState, citation: Citation) -> tuple[str, Chunk] | None:
    """The beginning of the sentence ``citation`` ends, from the previous page's last passage, if it opens its page."""
    index = state.layer1_index_of(citation.doc_id)
    if index is None or citation.page <= 1:
        return None
    here = index.chunks_on_pages([citation.page])
    if not here or here[0].chunk_id != citation.chunk_id or not here[0].text.startswith(citation.quote[:20]):
        return None
    before = index.chunks_on_pages([citation.page - 1])
    if not before or before[-1].kind != "text" or _SENTENCE_END.search(before[-1].text):
        return None
    last = before[-1].text
    starts = [m.start() for m in _LAST_SENTENCE.finditer(last)]
    fragment = " ".join(last[starts[-1] if starts else 0 :].split())
    return (fragment, before[-1]) if 0 < len(fragment) <= MAX_HEAD else None
