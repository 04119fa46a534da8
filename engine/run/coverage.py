"""Whether the documents cover the period and the names a question asks: "What was revenue in 2040?" of filings
that end in 2031 has no answer in them, and a figure of another year must not be read as one; "What accuracy does
the model reach on SetB-9?" of a paper that never prints "SetB-9" has none either, and its score on another
dataset must not be read as one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from engine.contracts import AnswerWithEvidence, ParsedDocument
from engine.contracts import CaveatKind as K
from engine.contracts.caveats import Caveat, caveat, merged
from engine.reading.entities import identifier_names
from engine.reading.periods import dates_named, periods_in
from engine.run.evidence import RunState

UNCOVERED_CONFIDENCE = 0.05
"""The rule confidence of an answer whose asked year no document names: it states nothing, so it is under any
claim line and is declined with its closest passages."""


def years_named(texts: Iterable[str]) -> set[int]:
    """The years the texts name, as the question's are read (``periods_in``: "2041", "FY41", "Q2 '41"); read
    uncached, since a document's pages are read once (``_years_of``) and would only crowd the per-text cache."""
    return {period.year for text in texts for period in periods_in.__wrapped__(text)}


_KEPT_DOCUMENTS = 64
_READ: dict[tuple[str, str, int], frozenset] = {}
"""What each document names (its years, its words), kept between questions: a long filing's text is read once,
not per question."""


def _kept(what: str, doc: ParsedDocument, read: Callable[[ParsedDocument], frozenset]) -> frozenset:
    key = (what, doc.doc_id, doc.parser_version)
    found = _READ.get(key)
    if found is None:
        if len(_READ) >= 2 * _KEPT_DOCUMENTS:
            _READ.clear()
        found = _READ[key] = read(doc)
    return found


def _years_of(doc: ParsedDocument) -> frozenset[int]:
    return _kept("years", doc, lambda d: frozenset(years_named(page.text for page in d.pages)))


def uncovered_period(answer: AnswerWithEvidence, state: RunState) -> AnswerWithEvidence:
    """``answer``, declined with a caveat when the question asks a year no selected document names anywhere."""
    asked = {p.year for p in periods_in(state.parsed.original_question)}
    if not asked or not state.indexes:
        return answer
    named = set().union(*(_years_of(index.doc) for index in state.indexes))
    missing = sorted(asked - named)
    if not missing:
        return answer
    return _declined(answer, caveat(K.PERIOD_NOT_COVERED, ", ".join(str(y) for y in missing)))


def _years_meant(quote: str) -> set[int]:
    """The years a passage may speak of: those it names, and the one before each full date it prints (a fiscal year
    may end early in the calendar year after it: "January 28, 2041" closes fiscal 2040)."""
    return years_named([quote]) | {year - 1 for year, _, _ in dates_named(quote)}


def other_period(answer: AnswerWithEvidence, state: RunState) -> AnswerWithEvidence:
    """``answer``, declined with a caveat when the question asks a year and every passage the answer reads names
    years, none of them asked: "We ended 2040 with 6.2 million members" answers nothing of 2041."""
    asked = {p.year for p in periods_in(state.parsed.original_question)}
    quotes = [c.quote for c in answer.citations if c.role == "answer"]
    if not asked or not quotes or not answer.answer_found:
        return answer
    meant = [_years_meant(quote) for quote in quotes]
    if not all(meant) or set().union(*meant) & asked:
        return answer
    named = ", ".join(str(y) for y in sorted(years_named(quotes)))
    return _declined(answer, caveat(K.ANSWER_OTHER_PERIOD, named))


def _declined(answer: AnswerWithEvidence, note: Caveat) -> AnswerWithEvidence:
    """``answer`` not complete, under any claim line, with ``note`` saying what no document covers."""
    update = {"complete_answer_found": False, "confidence": min(answer.confidence, UNCOVERED_CONFIDENCE),
              "caveats": merged(answer.caveats, (note,))}  # fmt: skip
    return answer.model_copy(update=update)


_TOKEN = re.compile(r"[a-z0-9]+")


def _tokens_of(doc: ParsedDocument) -> frozenset[str]:
    """The lower-case letter and digit runs of a document."""
    return _kept("tokens", doc, lambda d: frozenset(t for page in d.pages for t in _TOKEN.findall(page.text.lower())))


_NOT_A_NAME = re.compile(
    r"^(?:(?:FY|CY|F)\W?\d{2,4}|Q[1-4]|H[12]|[1-4]Q|[12]H)(?:\W?(?:Q[1-4]|H[12]|\d{2,4}))*$"  # "FY2031Q1", "Q3"
    r"|^(?:table|figure|fig|section|appendix|chapter|page|pp?|top)\W?\d",  # "Table1-1", "p2", "top3"
    re.I,
)
"""Periods ("FY2031", "Q3") and references or ranks ("Table1-1", "p2", "top3") written as identifiers: a document
writes its periods its own way, and a reference or a rank names no thing the document must print."""
_INNER_CAPITAL = re.compile(r"[a-z][A-Z]")


def _distinctive(name: str) -> bool:
    """A name only one thing bears: letters with digits ("SetB-9") or a capital after a small letter ("mAh",
    "RoBERTa"). An acronym in capitals alone ("ROA", "EBITDA") may name a metric the document never
    abbreviates, and a period or a reference is no name (``_NOT_A_NAME``)."""
    mixed = any(c.isdigit() for c in name) or bool(_INNER_CAPITAL.search(name))
    return mixed and not _NOT_A_NAME.match(name)


def names_not_printed(question: str, documents: Iterable[ParsedDocument]) -> list[str]:
    """The distinctive identifiers the question names ("SetB-9", "mAh", "GPT-4"; ``entities.identifier_names``) that
    no document prints: a name is printed when each of its letter and digit runs is a word of one document
    ("GPT-4" as "GPT 4" or "GPT-4")."""
    token_sets = [_tokens_of(doc) for doc in documents]
    missing = []
    for name in filter(_distinctive, identifier_names(question)):
        parts = set(_TOKEN.findall(name.lower()))
        if parts and not any(parts <= tokens for tokens in token_sets):
            missing.append(name)
    return missing


def uncovered_name(answer: AnswerWithEvidence, state: RunState) -> AnswerWithEvidence:
    """``answer``, declined with a caveat when the question names something no selected document prints."""
    missing = names_not_printed(state.parsed.original_question, (index.doc for index in state.indexes))
    if not missing or not state.indexes:
        return answer
    return _declined(answer, caveat(K.NAME_NOT_COVERED, ", ".join(missing)))
