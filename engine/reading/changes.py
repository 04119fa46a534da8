"""A change a question asks for between two periods it names, and whether it asks for it as a percentage.

Analysts write "the change in dock fees from 2030 to 2031" for the later value less the earlier one, in the
item's own unit, and "the percentage change", "the growth rate" or "by what percent" for the relative change.
``asked_change`` reads which, and of what item; ``formulas`` builds the arithmetic from it. Pure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Literal

from engine.reading.answer_type import expected_type
from engine.reading.periods import YEAR, Period, periods_in
from engine.reading.statement_sense import CHANGE_CLAUSE

PERIOD = rf"(?:FY\s?'?\d{{2,4}}|fiscal(?: year)?\s+\d{{4}}|{YEAR})"
"""A period as a question names it ("FY2021", "fiscal 2020", "2019")."""

_UP = (
    "increase increased increases increasing grow grew grown grows growing rise rose risen rises rising gain gained "
    "improve improved improves improving raise raised expand expanded expanding"
)
_DOWN = (
    "decrease decreased decreases decreasing decline declined declines declining drop dropped drops fall fell fallen "
    "falls falling shrink shrank shrunk shrinking reduce reduced reduces cut lower lowered worsen worsened worsening "
    "deteriorate deteriorated deteriorating"
)
_GO = ("go", "goes", "gone", "went")
_DIRECTION = {**dict.fromkeys(_UP.split(), "up"), **dict.fromkeys(_DOWN.split(), "down"),
              **dict.fromkeys(["change", "changed", "changes"], "any"),
              **{f"{go} up": "up" for go in _GO}, **{f"{go} down": "down" for go in _GO},
              **{f"{go} up or down": "either" for go in _GO}}  # fmt: skip
"""The way a yes/no question asks the item moved: "did it grow" (up), "was there any drop" (down), "did it change".
"Improve" reads as up: a margin, a ratio of coverage or liquidity improves as it rises; the answer states both
values, so a reader of a cost ratio sees which way it went."""
_VERB = "|".join(sorted(_DIRECTION, key=len, reverse=True))
_MOVES = rf"(?:difference|growth|{_VERB})"
"""The words that name a change: its nouns and the verbs of ``_DIRECTION`` ("the increase in", "did it grow")."""
_ITEM = r"([a-z][\w\s&,'’-]{1,60}?)"
_NAMED_ITEM = r"(?P<item>[a-z][\w\s&,'’-]{1,60}?)"
_SUBJECT = (
    # "the change in X from|between ...", "the net increase in X between ..."
    re.compile(rf"\b{_MOVES}s?\s+(?:in|of)\s+{_ITEM}\s+(?:from|between)\b", re.I),
    # "by how much did X increase from ...", "how much did X decrease between ...", "by what percent did X grow"
    re.compile(
        rf"\b(?:how much|what percent(?:age)?|what %)\s+(?:did|does|do|has|have|had)\s+{_ITEM}\s+{_MOVES}\b", re.I
    ),
    # "the X growth rate from ...", "X growth between ..."
    re.compile(rf"^{_ITEM}\s+growth(?: rate)?\b", re.I),
)
_YES_NO_CHANGE = (
    # "Did Acme grow its fleet between 2030 and 2031?", "Has Acme reduced its debt from 2030 to 2031?"
    re.compile(
        rf"^(?:did|has|have|had|does|do)\s+.+?\s+(?P<move>{_VERB})\s+(?:its|their|the)\s+{_NAMED_ITEM}\s+(?:from|between)\b",
        re.I,
    ),
    # "Did the fleet grow between ...", "Has Acme's debt increased from ...", "Has the ratio risen or fallen from ..."
    re.compile(
        rf"^(?:did|has|have|had|does|do)\s+{_NAMED_ITEM}\s+(?P<move>{_VERB})(?:\s+or\s+(?P<other>{_VERB}))?\s+"
        r"(?:from|between)\b",
        re.I,
    ),
    # "Was there a fall in berth fees between ...", "Is there any increase in the fleet from ..."
    re.compile(
        rf"^(?:was|were|is|are)\s+there\s+(?:an?\s+|any\s+)?(?:\w+\s+)?(?P<move>{_VERB})s?\s+in\s+{_NAMED_ITEM}\s+"
        r"(?:from|between)\b",
        re.I,
    ),
)
"""A yes/no question whether an item moved between two periods: its answer is the change, and whether it went the
way asked."""
_IN_PERIOD = r"(?:as of|in|for|during|over|at the end of)\s+(?:the\s+)?(?:fiscal\s+)?(?:year\s+)?"
_PROGRESSIVE = "|".join(sorted((verb for verb in _DIRECTION if verb.endswith("ing")), key=len, reverse=True))
"""The -ing forms of ``_DIRECTION``, which qualify an item as moving ("an improving margin")."""
_IN_ONE_PERIOD = (
    # "Is the berth margin improving as of 2031?", "Did the cash ratio rise or fall in FY2031?"
    re.compile(
        rf"^(?:does|do|did|has|have|had|is|are|was|were)\s+{_NAMED_ITEM}\s+(?P<move>{_VERB})"
        rf"(?:\s+or\s+(?P<other>{_VERB}))?\s+{_IN_PERIOD}{PERIOD}",
        re.I,
    ),
    # "Does Acme have an improving cash ratio as of FY2031?", "Is Acme showing a declining debt load in 2031?"
    re.compile(
        rf"^(?:does|do|did|has|have|had|is|are|was|were)\s+.+?\s+(?:an?\s+)?(?P<move>{_PROGRESSIVE})\s+"
        rf"{_NAMED_ITEM}\s+{_IN_PERIOD}{PERIOD}",
        re.I,
    ),
)
"""A yes/no question whether an item moved in (or as of) one period: over the same period a year before, the way
statements compare a year with the prior one."""
_OWNER = re.compile(r"^(?:[A-Z][\w&.-]*\s+){0,3}\S*['’]s\s+")
"""Whose the item is, at its start: one word ("the harbour's" after cleanup, "Acme's") or a name of up to four
capitalised words ("Blue Ferry Co's fleet")."""
_SHAPE = re.compile(r"\s+(?:profile|trend|trajectory)$", re.I)
"""A word after the item naming its course over time ("an improving margin profile"), not part of its name."""
Direction = Literal["up", "down", "any", "either"]
""""either": the question names both ways ("did it rise or fall"); the answer says which."""

_RELATIVE = re.compile(
    r"%|\bper ?cent(?:age)?\b|\bgrowth\b|\bgrew\b|\bgrow\b|\brate of\b|\b(?:year[- ]over[- ]year|yoy)\b|\bfold\b",
    re.I,
)
"""Words that ask for the change relative to the earlier value: a percentage, a growth (rate), a rate of change,
year-over-year (quoted as a percentage by convention). Read outside the item's own name ("the change in the
interest rate" asks for the change of a rate, in points)."""
_CLEANUP = re.compile(r"^(?:(?:the|to|from|and)\s+)+", re.I)


@dataclass(frozen=True)
class ChangeAsk:
    """The item whose change is asked, the earlier and the later period, and whether relative (a percentage)."""

    subject: str
    first: Period
    last: Period
    relative: bool
    direction: Direction | None = None
    """For a yes/no question, the way it asks the item moved (None: the question asks how much)."""


_ASIDE = re.compile(r"\s*\((?![^()]*\b(?:from|to|vs\.?|versus)\b)[^()]*\)")
"""A parenthesis after the item ("gross margin (in dollars)", "Block (formerly Square)"): it says how the item is
meant or named, never the periods compared; the subject is read without it."""


def asked_change(question: str, asked: str) -> ChangeAsk | None:
    """The change ``question`` asks for between the first and the last period it names, else None; ``asked`` is
    the question's ask ("the change in dock fees from 2030 to 2031"), the subject is read from it."""
    periods = sorted(periods_in(question), key=lambda p: (p.year, p.quarter or 0))
    plain = " ".join(re.sub(rf"\b{PERIOD}\b", " ", _ASIDE.sub(" ", asked), flags=re.I).split())
    if len({(p.year, p.quarter) for p in periods}) == 1:  # whether it moved in one year: over the year before
        moved = _whether_in_period(" ".join(question.split()), periods[-1])
        if moved is not None or expected_type(question) == "yes_no":
            return moved
        return _over_prior_year(question, plain, periods[-1])
    if len(periods) < 2:
        return None
    compared = _compared_periods(" ".join(question.split()))
    if compared is not None:
        return compared
    whether = _whether(" ".join(question.split()))
    if whether is not None:
        subject, direction = whether
        return ChangeAsk(subject, periods[0], periods[-1], bool(_RELATIVE.search(question.replace(subject, " "))),
                         direction)  # fmt: skip
    for pattern in _SUBJECT:
        m = pattern.search(_CLEANUP.sub("", plain) if pattern.pattern.startswith("^") else plain)
        if m:
            subject = re.sub(r"\s+as\s+an?\s+percent(?:age)?$", "", m.group(1).strip(" ,"), flags=re.I)
            subject = _CLEANUP.sub("", subject)
            rest = question.replace(subject, " ") if subject else question
            return ChangeAsk(subject, periods[0], periods[-1], bool(_RELATIVE.search(rest)))
    return None


_ONE_PERIOD = re.compile(
    rf"\b(?:growth(?:\s+rate)?|(?:percent(?:age)?|net)\s+(?:change|increase|decrease))\s+(?:in|of)\s+{_ITEM}"
    r"\s+(?:in|for|during)\s*$",
    re.I,
)
"""A change asked as a number for one period ("the growth rate in dock fees in 2030", "the net change in ... for
2030"): over the year before. A plain "change in X in 2030" may ask what changed (a policy), not by how much."""


def _over_prior_year(question: str, plain: str, period: Period) -> ChangeAsk | None:
    """A change asked for one period only: from the same period a year earlier to it."""
    m = _ONE_PERIOD.search(plain.rstrip(" ?."))
    if m is None:
        return None
    subject = _CLEANUP.sub("", m.group(1).strip(" ,"))
    return ChangeAsk(subject, replace(period, year=period.year - 1), period, bool(_RELATIVE.search(question)))


_HIGHER = ["higher", "greater", "larger", "bigger", "more"]
_COMPARED = re.compile(
    rf"^\W*(?:was|were|is|are|did)\s+{_NAMED_ITEM}\s+(?:in|for|during|at|as of)\s+(?P<p1>{PERIOD})\s+"
    rf"(?P<than>{'|'.join(_HIGHER)}|lower|smaller|less|fewer)\s+than\s+(?:(?:it|they|that|those)\s+\w+\s+)?"
    rf"(?:in|for|during|at|as of)?\s*(?P<p2>{PERIOD})",
    re.I,
)
"""A yes/no question whether an item was higher in one period than in another ("Were port fees in 2031 higher
than in 2030?"): the change from the second period to the first, and whether it went the way asked."""


def _compared_periods(question: str) -> ChangeAsk | None:
    m = _COMPARED.match(question)
    first, last = (periods_in(m.group("p2")), periods_in(m.group("p1"))) if m else ((), ())
    if m is None or not first or not last:
        return None
    subject = _OWNER.sub("", _CLEANUP.sub("", m.group("item").strip(" ,")))  # "Acme's fees" -> "fees"
    direction: Direction = "up" if m.group("than").lower() in _HIGHER else "down"
    return ChangeAsk(subject, first[0], last[0], False, direction)


_RELATIVE_GAP = re.compile(
    r"\bper ?cent(?:age)?\s+(?:difference|gap)\b|\bby what per ?cent(?:age)?\b|\bhow many per ?cent\b", re.I
)
"""Words that ask how far apart two values are as a percentage ("the percentage difference between A and B", "by
what percent did A exceed B"): the values compared are amounts, their gap is the percentage."""


def asks_relative_gap(question: str) -> bool:
    """Whether ``question`` asks for the gap between compared values as a percentage (``_RELATIVE_GAP``)."""
    return bool(_RELATIVE_GAP.search(question))


def asks_relative(question: str) -> bool:
    """Whether ``question`` asks for a difference relative to a base (a percentage, a rate, growth)."""
    return bool(_RELATIVE.search(question))


def _whether(question: str, patterns: tuple[re.Pattern[str], ...] = _YES_NO_CHANGE) -> tuple[str, Direction] | None:
    """The item and the direction of a yes/no question whether it moved ("Did the fleet grow between ...")."""
    for pattern in patterns:
        m = pattern.search(question)
        if m:
            subject = _CLEANUP.sub("", m.group("item").strip(" ,"))
            subject = _SHAPE.sub("", _OWNER.sub("", subject))  # "Acme's debt" -> "debt"
            move = m.group("move").lower()
            ways = {_DIRECTION[move], _DIRECTION[(m.groupdict().get("other") or move).lower()]}
            return subject, ("either" if ways == {"up", "down"} else ways.pop())  # type: ignore[return-value]
    return None


def _whether_in_period(question: str, period: Period) -> ChangeAsk | None:
    """A yes/no question whether an item moved in one period (``_IN_ONE_PERIOD``): from a year before to it."""
    whether = _whether(question, _IN_ONE_PERIOD)
    if whether is None:
        return None
    subject, direction = whether
    relative = bool(_RELATIVE.search(question.replace(subject, " ")))
    return ChangeAsk(subject, replace(period, year=period.year - 1), period, relative, direction)


def asked_direction(question: str) -> Direction | None:
    """For a yes/no question whether an item moved between two periods, the way it asks (else None)."""
    change = asked_change(question, question)
    return change.direction if change else None


_CHANGE_NOUNS = (
    # a "margin of" or "loss of" is a level ("an operating margin of 12%"), so neither is here
    "increase decrease rise decline drop fall gain growth improvement reduction difference gap change jump lead"
)
_ROUGHLY = r"(?:about|approximately|around|roughly|nearly|almost|some|over|more than|less than|up to|only)"
_STATED_BEFORE = re.compile(
    rf"(?:\bby|\b(?:{'|'.join(_CHANGE_NOUNS.split())})s?\s+of)\b(?:\s+{_ROUGHLY})?\s*[$€£¥]?\s*$", re.I
)
"""Words right before a number that make it a change: "improved by 13.7 points", "an increase of $42 million"."""
_STATED_AFTER = re.compile(
    r"^\s*[$€£¥]?\s*[\d.,]*\s*%?\s*(?:(?!and\b|or\b|but\b)[\w-]+\s+){0,2}?"
    r"(?:more|fewer|less|higher|lower|larger|smaller|greater|bigger|longer|shorter|faster|slower)"
    r"(?:\s+[\w-]+){0,2}?\s+than\b",
    re.I,
)
"""Words right after a number that make it a difference: "12 more stations than", "3.1 points higher than"."""


def states_change(sentence: str, position: int) -> bool:
    """Whether the number at ``position`` of ``sentence`` is stated as a change or a difference, not as a level:
    a sentence that says by how much one thing exceeds another answers "by how much" by itself, with no
    second value to subtract ("Heron 3 outran Heron 2 by 14 km", "four more berths than the old quay"; "the refit
    improves its speed on every route: 3 knots on the short crossing", ``statement_sense.CHANGE_CLAUSE``)."""
    before = sentence[:position]
    return bool(
        _STATED_BEFORE.search(before) or _STATED_AFTER.match(sentence[position:]) or CHANGE_CLAUSE.search(before[-200:])
    )


_DIFFERENCE_ASK = re.compile(
    r"^(?:how (?:far apart|much (?:higher|lower|larger|smaller|bigger|more|less))"
    r"|how do(?:es)? (?:they|these|those|the two|both) (?:compare|differ)"
    r"|what(?:'s| is| was) the (?:difference|gap)|by how much|which (?:is|was) (?:higher|lower|larger|smaller|greater))\b"
    r"(?:\s+\w+){0,3}$",
    re.I,
)
"""A short clause asking how the values asked before it differ ("..., and how far apart are they?") asks for their
difference, which a comparison states: no part of its own to read."""


def asks_difference(clause: str) -> bool:
    """Whether a question's clause only asks how the values asked before it differ (``_DIFFERENCE_ASK``)."""
    return bool(_DIFFERENCE_ASK.match(clause.strip(" ,.?")))


def without_difference_ask(question: str) -> str:
    """``question`` without a closing clause that only asks how its values differ: "What were A and B, and how far
    apart are they?" -> "What were A and B?"."""
    m = re.search(r",?\s+and\s+([^,;?]+)\?*\s*$", question)
    return f"{question[: m.start()]}?" if m and asks_difference(m.group(1)) else question
