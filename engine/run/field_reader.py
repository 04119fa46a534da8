"""Questions answered by a filled-in form's field ("Which agency submitted the plan?" -> "2. Agency:" over its
value), for any backend.

The reading is ``engine.reading.form_fields``: the label-value pairs printed on the whole pages of the strongest
evidence (``value_pages``), strongest page first; the first page with a field the question asks for answers,
its value stated with the label and cited at its line. A field whose every label word the question uses is a
complete answer. A question no field answers is left as it was.
"""

from __future__ import annotations

import logging

from engine.contracts import AnswerWithEvidence, Citation, EvidenceItem
from engine.documents.text import stems
from engine.reading.form_fields import Field, asked_field, asked_target, fields_in
from engine.run.evidence import RunState
from engine.run.restate import restated
from engine.run.value_pages import value_pages

logger = logging.getLogger(__name__)

FIELD_CONFIDENCE = 0.75
"""A field the question names whole: the form states the value against its label."""
PARTLY_NAMED_CONFIDENCE = 0.5
"""A field most of whose label the question names ("Date of Submission" for "the date submitted")."""
MAX_PAGES = 4
"""Pages read for fields: the strongest evidence's first few."""


def with_field(answer: AnswerWithEvidence, state: RunState) -> AnswerWithEvidence:
    """``answer`` replaced by the value of the form field the question asks for (module doc)."""
    question = state.parsed.original_question
    if state.top_k is not None or asked_target(question) is None:
        return answer
    for items in value_pages(state, None)[:MAX_PAGES]:
        field = asked_field(question, fields_in("\n".join(item.text for item in items)))
        if field is not None:
            logger.debug("form field %r -> %r", field.label, field.value)
            return _stated(answer, field, items, question)
    return answer


def _stated(answer: AnswerWithEvidence, field: Field, items: list[EvidenceItem], question: str) -> AnswerWithEvidence:
    item = next((i for i in items if field.value in " ".join(i.text.split())), items[0])
    whole = stems(field.label) <= stems(question) | stems(asked_target(question) or "")
    cited = Citation(chunk_id=item.chunk_id, doc_id=item.doc_id, page=item.page, quote=field.line)
    confidence = FIELD_CONFIDENCE if whole else PARTLY_NAMED_CONFIDENCE
    return restated(answer, f"{field.value} ({field.label}, p. {item.page})", [cited], complete=whole,
                    confidence=confidence)  # fmt: skip
