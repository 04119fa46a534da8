"""What kind of answer a question asks for, and whether an answer states one.

"How many ...?" asks for a number, "When ...?" for a date, "Did ...?" for a yes or a no. An answer
whose text does not state that kind of thing (a sentence near the topic, but no number) is not a
complete answer, whichever backend wrote it. Pure functions of the texts.
"""

from __future__ import annotations

import re
from typing import Literal

from engine.bricks.text import without_references

AnswerType = Literal["number", "date", "yes_no"]

_YES_NO = re.compile(
    r"^(?:is|are|was|were|do|does|did|has|have|had|can|could|will|would|should|shall|may)\b(?![^?]*\bor\b)", re.I
)
_NUMBER_ASK = re.compile(
    r"\bhow (?:many|much|long|far|old|large|big|often|tall|high)\b|"
    r"\bwhat (?:is|was|are|were) (?:the )?(?:total |average |approximate )?(?:number|percentage|share|amount|rate|"
    r"ratio|value|price|cost|size|count)\b",
    re.I,
)
_DATE_ASK = re.compile(r"^when\b|\bwhat (?:year|date|month|day)\b|\bin which year\b", re.I)
_DIGITS = re.compile(r"\d")
_DATE = re.compile(
    r"\b(?:19|20)\d\d\b|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}\b", re.I
)
_NOT_A_VALUE = re.compile(r"^\s*(?:which|who|whom|whose|why|where)\b", re.I)
"""Questions that ask for an entity, a reason or a place: a number may support them, never answer them."""
_YES_NO_ANSWER = re.compile(r"^\W*(?:yes|no)\b|\b(?:yes|no),", re.I)


def expected_type(question: str) -> AnswerType | None:
    """The kind of answer ``question`` asks for (None: any text may answer it)."""
    q = question.strip()
    if _DATE_ASK.search(q):
        return "date"
    if _NUMBER_ASK.search(q):
        return "number"
    if _YES_NO.match(q):
        return "yes_no"
    return None


_DIFFERENCE_ASK = re.compile(
    r"\bhow (?:many|much) (?:more|fewer|less|higher|lower|larger|smaller|bigger)\b|\bby how much\b|"
    r"\bwhat (?:is|was|are|were) the (?:difference|gap)\b",
    re.I,
)
"""Questions whose answer is the difference of two values ("how many more claims ...", "by how much did
it increase"): one value stated as read does not answer them."""


def asks_difference(question: str) -> bool:
    """Whether ``question`` asks for the difference between two values."""
    return bool(_DIFFERENCE_ASK.search(question))


def value_never_answers(question: str) -> bool:
    """A yes/no, which, who, why or where question: a value may support its answer, never be it."""
    return expected_type(question) == "yes_no" or bool(_NOT_A_VALUE.match(question))


def states_type(answer: str, kind: AnswerType, question: str = "") -> bool:
    """Whether ``answer`` states an answer of ``kind`` (a number the question does not already hold)."""
    if kind == "yes_no":
        return bool(_YES_NO_ANSWER.search(answer))
    if kind == "date":
        return bool(_DATE.search(answer))
    asked = set(re.findall(r"\d[\d,.]*", question))
    answer = without_references(answer)
    return any(n not in asked for n in re.findall(r"\d[\d,.]*", answer)) and bool(_DIGITS.search(answer))


def type_caveat(kind: AnswerType) -> str:
    """The caveat of an answer that does not state what the question asks for."""
    return {
        "yes_no": "the passages bear on the question but do not say yes or no",
        "number": "the cited passages state no number that answers the question",
        "date": "the cited passages state no date that answers the question",
    }[kind]
