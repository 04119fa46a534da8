"""What kind of answer a question asks for, and whether an answer states one.

"How many ...?" asks for a number, "When ...?" for a date, "Did ...?" for a yes or a no. An answer
whose text does not state that kind of thing (a sentence near the topic, but no number) is not a
complete answer, whichever backend wrote it. Pure functions of the texts.
"""

from __future__ import annotations

import re
from typing import Literal

from engine.documents.text import SPELLED_NUMBER, without_references
from engine.reading.periods import YEAR

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
    rf"\b{YEAR}\b|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1, 2}\b", re.I
)
_NOT_A_VALUE = re.compile(
    r"^\s*(?:which|who|whom|whose|why|where|what\s+(?:drove|drives|caused|causes|explains?|led to|leads to)\b)\b",
    re.I,
)
"""Questions that ask for an entity, a reason ("what drove the margin change") or a place: a number may support
them, never answer them."""
_YES_NO_ANSWER = re.compile(r"^\W*(?:yes|no)\b|\b(?:yes|no),", re.I)
_SPELLED = re.compile(rf"\b(?!one\b)(?:{SPELLED_NUMBER})\b", re.I)
"""A number written as a word ("covered for five years", "twelve stations"): prose spells out small numbers.
"one" is left out: it is as often a pronoun ("one of the pumps") as a count."""


_FRONTED = re.compile(
    r"^(?:in|on|at|for|from|during|among|within|under|after|before|since|according to|based on|as of|"
    r"given|considering|regarding)\b(?P<phrase>[^?,]*),\s*(?P<clause>\S.*)$",
    re.I,
)
"""A phrase put before the question proper ("In the three layouts the guide describes, is either ...?", "As of
FY2021, did ...?"): the question's kind is read from the clause after it."""


_WH_WORD = re.compile(r"\b(?:what|which|who|whom|whose|when|where|why|how)\b", re.I)


def main_clause(question: str) -> str:
    """``question`` without a fronted phrase ("According to the report, is it ...?" -> "is it ...?")."""
    q = question.strip()
    match = _FRONTED.match(q)
    if match is None or _WH_WORD.search(match.group("phrase")):
        return q  # "In which year was ..., ...": the question proper opens the sentence
    return match.group("clause")


def expected_type(question: str) -> AnswerType | None:
    """The kind of answer ``question`` asks for (None: any text may answer it). A yes or a no is asked
    for by the main clause, after any fronted phrase ("In the manual's two styles, are both ...?")."""
    q = question.strip()
    if _DATE_ASK.search(q):
        return "date"
    if _NUMBER_ASK.search(q):
        return "number"
    if _YES_NO.match(q) or _YES_NO.match(main_clause(q)):
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


_TO_RATIO = re.compile(r"\b[\w'&-]+[ -]to[ -][\w'&-]+(?: [\w'&-]+){0,2} ratio\b|\bratio of\b[^?]*?\bto\b", re.I)
"""A ratio named by its two terms: "debt-to-equity ratio", "sales to working capital ratio", "the ratio of
A to B"."""
_WHAT_TO = re.compile(
    r"^(?:what|how much) (?:is|was|were|are) (?:the )?(?P<a>[^?]+?) to (?P<b>[^?]+?)(?= (?:for|of|in|at|as)\b|[?.,;]|$)",
    re.I,
)
_STATEMENT_HEADS = frozenset({
    # the head nouns of financial-statement line items ("long-term debt", "total current liabilities"):
    # "A to B" between two of them is a quotient, as "time to charge" or "distance to the station" is not
    "assets", "liabilities", "debt", "equity", "revenue", "revenues", "sales", "income", "earnings", "expenses",
    "costs", "cash", "capital", "inventory", "inventories", "receivables", "payables", "ebitda", "ebit", "capex",
    "dividends", "interest", "flow", "flows", "profit", "profits", "goodwill", "expenditures", "borrowings",
    "obligations", "loans", "deposits", "taxes", "depreciation", "amortization", "investments",
})  # fmt: skip
MONEY_FLOWS = frozenset({"payments", "repurchases", "purchases", "proceeds", "borrowings", "receipts", "outflows",
                         "inflows"})  # fmt: skip
"""The plural nouns a statement of cash flows names its money flows by ("repurchases of common stock", "proceeds
from borrowings", "dividend payments"): what such a plural names is an amount, whatever the line item."""


def asks_quotient(question: str) -> bool:
    """Whether ``question`` asks for the ratio of two values ("Net Debt to Total Equity", "the
    total debt to EBITDA ratio"): one value stated as read does not answer it."""
    text = " ".join(question.split())
    if _TO_RATIO.search(text):
        return True
    asked = _WHAT_TO.match(text)
    return asked is not None and _names_line_item(asked.group("a")) and _names_line_item(asked.group("b"))


def _names_line_item(phrase: str) -> bool:
    words = phrase.lower().split()
    return 1 <= len(words) <= 5 and words[-1] in _STATEMENT_HEADS


def value_never_answers(question: str) -> bool:
    """A yes/no, which, who, why or where question, or one asking for the parts of something ("what are the
    parts of operating expenses"): a value may support its answer, never be it."""
    clause = main_clause(question)
    parts = _PARTS_OF.match(clause)
    asks_parts = parts is not None and parts.group("noun").lower() not in _STATEMENT_HEADS | MONEY_FLOWS
    return expected_type(question) == "yes_no" or bool(_NOT_A_VALUE.match(clause)) or asks_parts


_PARTS_OF = re.compile(r"^(?:what|which) (?:are|were) the (?:main |key |major )?(?P<noun>[a-z]+s) of\b", re.I)
"""What a plural noun of a thing names: its parts or kinds ("the components of", "the risks of"), unless the
noun is a line item's own ("what were the revenues of the segment" asks for values)."""


_LINE_MARK = re.compile(r"^\s*(?:\(?\d{1,2}[.)]|\d{1,2}(?:\.\d{1,2})*\.?(?=\s+[A-Z]))\s*")
"""A line's own item marker or section number ("2. Train the model", "1 The Heron valve"): it states no number."""


_CITED = r"(?:[A-Z][A-Za-z.&'\- ]*,?\s+)?(?:19|20)\d\d[a-z]?"
_CITATION = re.compile(
    rf"\({_CITED}(?:;\s*{_CITED})*\)|et al\.?,?\s+(?:19|20)\d\d[a-z]?|\[\d{{1,3}}(?:[,–-]\s*\d{{1,3}})*\]"
)
"""A citation's year or number ("Lee (2018)", "(Kim et al., 2023)", "[12, 14]"): it names a source, states no number."""


def states_type(answer: str, kind: AnswerType, question: str = "") -> bool:
    """Whether ``answer`` states an answer of ``kind`` (a number the question does not already hold)."""
    if kind == "yes_no":
        return bool(_YES_NO_ANSWER.search(answer))
    if kind == "date":
        return bool(_DATE.search(answer))
    asked = set(re.findall(r"\d[\d,.]*", question))
    answer = _CITATION.sub(" ", "\n".join(_LINE_MARK.sub("", line) for line in without_references(answer).splitlines()))
    if any(n not in asked for n in re.findall(r"\d[\d,.]*", answer)) and bool(_DIGITS.search(answer)):
        return True
    spelled_asked = {w.lower() for w in _SPELLED.findall(question)}
    return any(w.lower() not in spelled_asked for w in _SPELLED.findall(answer))
