"""What a count question counts, and which table cells count it.

"How many ferry passes ...?" counts passes: a currency amount or a percentage is never its answer, a row
counting other things is not either, and a row whose head noun is the thing counted is a count even when its
document's currency was given to it by default. Pure.
"""

from __future__ import annotations

import re
from dataclasses import replace

from engine.documents.text import STOPWORDS, stems
from engine.reading.line_items import line_item_names
from engine.reading.statement_sense import head_noun
from engine.reading.table_rows import CURRENCY_SIGN
from engine.reading.table_values import Cell

_COUNT_ASKED = re.compile(
    r"\bhow many\b(?!\s+(?:[\w-]+\s+)?(?:dollars?|euros?|pounds?|yen|cents?|usd|eur|gbp)\b)", re.I
)
"""A count of things ("how many exhibits", "how many shares"): a currency amount or a percentage is never it
(unless the things counted are money: "how many US dollars")."""


_MEAN = re.compile(r"\bon average\b|\baverage\b|\bmean\b|\bper (?!cent\b)[a-z]", re.I)
"""A count asked as a mean ("how many visits per member", "how many stops on average"): a fraction answers it."""


def asks_mean(question: str) -> bool:
    """Whether a count question asks for a mean count (``_MEAN``), which need not be a whole number."""
    return bool(_MEAN.search(question))


_COUNT_NAMED = re.compile(
    r"\b(?:number|count) of\s+(?P<after>[a-z][\w'-]*(?:\s+[a-z][\w'-]*){0,2})"
    r"|\b(?P<before>[a-z][\w-]*)\s+counts?\b(?!\s+(?:of|on|to|toward|towards)\b)"
    r"|\b(?P<heads>headcounts?)\b",
    re.I,
)
"""A count asked without "how many": "the number of branches", "the count of branches", "the branch count", the
"headcount" (the count of people employed). A count as a verb ("does it count toward") is not."""
HEADCOUNT_THINGS = frozenset(stems(" ".join(("headcount", *line_item_names("headcount")))))
"""What a headcount counts: the people employed, by the names filings print for them (``reporting_terms``)."""


def counted_things(question: str) -> set[str] | None:
    """The stems of the words a count question counts ("how many exhibits were filed" -> exhibit, ...; "the
    number of exhibits", "the exhibit count" -> exhibit); None when ``question`` asks for no count of things."""
    asked = _COUNT_ASKED.search(question)
    if asked is not None:  # the phrase up to its verb ("ferries" of "ferries did Gull Line run"), else three words
        return stems(_up_to_verb(question[asked.end() :]) or " ".join(question[asked.end() :].split()[:3]))
    named = _COUNT_NAMED.search(question)
    if named is None:
        return None
    if named.group("heads"):
        return set(HEADCOUNT_THINGS)
    things = stems(_up_to_verb(named.group("after")) if named.group("after") else named.group("before"))
    return things or None


_MAX_PHRASE = 3
"""The counted thing is a short noun phrase ("paid streaming memberships"); a longer run is the question's clause."""


def counted_phrase(question: str) -> str:
    """The words naming what a count question counts, up to its verb or first stop word ("how many employees did
    it have" -> "employees"): searched for alone, they find the sentence that states the count ("we had 8,300
    employees"), which the question's dates and names rank under the statements' tables. "" for no count."""
    asked = _COUNT_ASKED.search(question)
    return _up_to_verb(question[asked.end() :]) if asked else ""


def _up_to_verb(text: str) -> str:
    """The words opening ``text`` up to its first verb or stop word, at most ``_MAX_PHRASE``."""
    words: list[str] = []
    for word in re.findall(r"[\w'-]+", text):
        if word.lower() in STOPWORDS or word.lower() in _VERBS or len(words) == _MAX_PHRASE:
            break
        words.append(word)
    return " ".join(words)


_VERBS = frozenset(("did", "does", "do", "has", "have", "had", "was", "were", "are", "is", "will", "would", "can"))
"""Auxiliaries that end the counted phrase ("how many stores did ..."), should the stop words not hold them."""


def wrong_count(counted: set[str] | None, cell: Cell) -> bool:
    """A count asked and a currency amount or a percentage read, or a count of other things ("5,000
    employees" for "how many exhibits"; a table row whose label, column and caption name nothing counted)."""
    if counted is None:
        return False
    if cell.is_row and counted and not stems(f"{cell.label} {cell.column} {cell.caption}") & counted:
        return True
    if cell.unit != "":
        return True
    return bool(cell.measure and not counts_asked(cell.measure, cell.label, counted))


_PEOPLE = frozenset(stems("people persons individuals"))
_PEOPLE_COUNTED = frozenset(stems("employees headcount staff workers members users customers advisors"))
"""Counted things that are people: a headcount, a staff, members, users, customers."""
"""Nouns that count people of any kind: "employed 8,300 people" counts employees, "1,004 individuals" respondents."""


def counts_asked(measure: str, sentence: str, counted: set[str]) -> bool:
    """Whether a number's ``measure`` (its unit or counted noun) in ``sentence`` counts the things asked: it names
    them, or it counts people and the sentence names the people counted by the word asked or its root ("the Company
    employed 8,300 people" for "how many employees")."""
    return bool(stems(measure) & counted) or people_counted(measure, sentence, counted)


def people_counted(measure: str, sentence: str, counted: set[str]) -> bool:
    """A count of people (``measure`` "people", "persons") in a sentence that names the people asked, by the word
    asked or its root ("employed" for "employees")."""
    if not stems(measure) & _PEOPLE:
        return False
    said = stems(sentence)
    return bool(said & counted) or any(len(w) >= 5 and c.startswith(w) for w in said for c in counted)


MAX_PEOPLE = 1e10
"""More people than live on Earth: a count of people scaled past it was never in its table's scale."""


def counted_row(cell: Cell, counted: set[str]) -> Cell:
    """A table row whose head noun is what a count question counts (``counted``, stems: "Active ferry passes"
    for "how many ferry passes"), and that prints no currency of its own, is a count: the currency its document
    prints on other rows was given to it by default (``document_units.in_units``), and it is taken back. A count
    of people ("Headcount | 259,350" in a table "in millions, except where noted") takes no scale that would make
    it more people than there are."""
    if (
        not cell.is_row
        or cell.unit == "%"
        or CURRENCY_SIGN.search(cell.raw)
        or not stems(head_noun(cell.label)) & counted
    ):
        return cell
    people = bool(counted & (_PEOPLE | _PEOPLE_COUNTED))
    return replace(
        cell,
        unit="",
        scale="" if people and cell.scaled > MAX_PEOPLE else cell.scale,
    )
