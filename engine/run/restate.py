"""An answer restated by one of the readers code runs over every backend's answer (steps, fields, contacts, ...)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.contracts import AnswerWithEvidence, Citation
from engine.contracts import CaveatKind as K
from engine.contracts.caveats import without

MOOT = (K.UNMATCHED, K.PARTIAL_MATCH, K.TYPE_NOT_STATED)
"""What the passage reader doubted that a reader's own statement settles: the question's words unmatched, the kind
of answer not stated."""


def restated(
    answer: AnswerWithEvidence,
    text: str,
    cited: Sequence[Citation],
    *,
    complete: bool,
    confidence: float,
    moot: Sequence[K] = MOOT,
    keep_citations: bool = True,
) -> AnswerWithEvidence:
    """``answer`` with ``text`` stated on ``cited`` (cited first; the answer's other citations after them unless
    ``keep_citations`` is False), "complete" and the confidence the reader decided, and the ``moot`` caveats gone."""
    rest = [c for c in answer.citations if all((c.chunk_id, c.quote) != (x.chunk_id, x.quote) for x in cited)]
    return answer.model_copy(update={
        "text": text, "citations": (*cited, *(rest if keep_citations else [])), "answer_found": True,
        "complete_answer_found": complete, "confidence": confidence, "caveats": without(answer.caveats, *moot),
    })  # fmt: skip
