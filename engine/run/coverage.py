"""Whether the documents cover the period a question asks: "What was revenue in 2040?" of filings that end in
2031 has no answer in them, and a figure of another year must not be read as one.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.contracts import AnswerWithEvidence, ParsedDocument
from engine.contracts import CaveatKind as K
from engine.contracts.caveats import caveat, merged
from engine.reading.periods import periods_in
from engine.run.evidence import RunState

UNCOVERED_CONFIDENCE = 0.05
"""The rule confidence of an answer whose asked year no document names: it states nothing, so it is under any
claim line and is declined with its closest passages."""


def years_named(texts: Iterable[str]) -> set[int]:
    """The years the texts name, as the question's are read (``periods_in``: "2041", "FY41", "Q2 '41"); read
    uncached, since a document's pages are read once (``_years_of``) and would only crowd the per-text cache."""
    return {period.year for text in texts for period in periods_in.__wrapped__(text)}


_KEPT_DOCUMENTS = 64
_YEARS_OF: dict[tuple[str, int], frozenset[int]] = {}
"""The years each document names, kept between questions (a long filing's text is read once, not per question)."""


def _years_of(doc: ParsedDocument) -> frozenset[int]:
    key = (doc.doc_id, doc.parser_version)
    found = _YEARS_OF.get(key)
    if found is None:
        if len(_YEARS_OF) >= _KEPT_DOCUMENTS:
            _YEARS_OF.clear()
        found = _YEARS_OF[key] = frozenset(years_named(page.text for page in doc.pages))
    return found


def uncovered_period(answer: AnswerWithEvidence, state: RunState) -> AnswerWithEvidence:
    """``answer``, declined with a caveat when the question asks a year no selected document names anywhere."""
    asked = {p.year for p in periods_in(state.parsed.original_question)}
    if not asked or not state.indexes:
        return answer
    named = set().union(*(_years_of(index.doc) for index in state.indexes))
    missing = sorted(asked - named)
    if not missing:
        return answer
    note = caveat(K.PERIOD_NOT_COVERED, ", ".join(str(y) for y in missing))
    update = {"complete_answer_found": False, "confidence": min(answer.confidence, UNCOVERED_CONFIDENCE),
              "caveats": merged(answer.caveats, (note,))}  # fmt: skip
    return answer.model_copy(update=update)
