"""Which words of a value question name its metric, and which say how the value is asked for or when it holds.

"What was the capital expenditure amount in fiscal 2022?" names the metric "capital expenditure"; "amount" and
"fiscal" say how it is asked. "How long does the rinse take when the tank is full?" names "rinse" and the time
it takes; "when the tank is full" is a condition on it. Pure.
"""

from __future__ import annotations

import re

from engine.documents.text import stems
from engine.reading.lexicon import QUESTION_WORDS

ASKING_WORDS = frozenset(
    {
        "amount",  # "the capital expenditure amount": names the asking, not the line item
        "value",  # "the value of ..."
        "figure",  # "the figure reported for ..."
        "number",  # "the number reported"
        "count",  # "the branch count": the things counted are the metric, as in "the number of branches"
        "level",  # "the level of inventory"
        "fy",  # the fiscal-year prefix left over once the year is read as a period
        "fiscal",  # "fiscal 2022": the period, read separately
        "year",  # "year end", "for the year"
        "end",  # "year end"
        "usd",  # the currency the answer is wanted in
        "dollar",
        "million",  # the scale the answer is wanted in
        "billion",
        "thousand",
        "report",  # "what does Table 3 report": where the value is written, not what it measures
        "show",
        "state",
        "disclose",
        "give",
        "generate",  # "how much cash did it generate from operations": how the amount came about, not its name
        "generated",
        "generates",
        "hold",  # "how much cash did it hold at year end": the verb of having; "held" stays ("shares held" is a row)
        "spend",  # "how much did it spend on research": the verb of paying, not what the line item is called
        "spent",
        "incur",  # "the costs it incurred"
        "incurred",
        "annual",  # "annual report", "annual revenue": the kind of period, read as a period
        "quarterly",
        "consolidated",  # "as shown in the consolidated balance sheets": where it is printed
        "statement",
        "quarter",  # "the third quarter of fiscal 2016": the period, read separately
        "half",  # "the first half": a period too
        "season",  # "the 2025 season": a period too
        "first",  # the ordinals of "the first quarter" ... "the fourth quarter": part of the period
        "second",
        "third",
        "fourth",
    }
)
"""Question words that say how a value is asked for, never what the line item is called (stemmed
before use: "statements" and "consolidated" are dropped with their singular and base forms)."""

ASKING_STEMS = frozenset(w for word in ASKING_WORDS for w in stems(word))

_CONDITION = re.compile(r"(?:^|,\s*|\s)(?:when|whenever|if|while)\s+(?P<clause>[^,?]+)", re.I)
"""A clause that says when the metric holds ("how long does the rinse take when the tank is full?", "If the
lid is open, how long ..."): its words name a condition, not the metric, and a value's label need not hold them."""


def condition_words(question: str) -> set[str]:
    """The stems only a conditional clause of ``question`` uses (``_CONDITION``); none when the rest of the question
    names less than a two-word metric, or when it is hypothetical ("what would the balance be if ..." computes the
    value under the condition: the condition's words are what to read)."""
    found = _CONDITION.search(question)
    if found is None or _HYPOTHETICAL.search(question):
        return set()
    rest = stems(question[: found.start()] + " " + question[found.end() :]) - ASKING_STEMS
    return stems(found.group("clause")) - rest if len(rest) >= 2 else set()


_HYPOTHETICAL = re.compile(r"\b(?:would|could|might)\b", re.I)


_SHARE_FRAME = re.compile(
    r"^\s*(?:what|which)\s+(?P<kind>share|percentage|percent|proportion|fraction)\s+of\b|"
    r"^\s*how\s+many\s+(?P<unit>percent|percentage\s+points)\b",
    re.I,
)
"""The frame that asks for a value as a share ("What share of pilots ...", "What percentage of ..."): its noun
says what kind of number answers, not what is measured; "the market share" names a metric and keeps it."""


_EXISTS = re.compile(r"\b(?:in|into)\s+(?P<noun>place|effect|force|existence)\b", re.I)
"""A phrase saying that something exists or applies ("agreements in place", "the policy in effect"): what it says of
the thing, not a word of its name."""


def frame_words(question: str) -> set[str]:
    """The stems of the share frame ``question`` opens with (``_SHARE_FRAME``) and of any phrase saying that what it
    asks about exists (``_EXISTS``)."""
    found = _SHARE_FRAME.match(question)
    share = stems(found.group("kind") or found.group("unit")) if found else set()
    said = {w for m in _WHERE_PRINTED.finditer(question) for w in stems(m.group("verb"))}
    kinds = {
        w
        for m in _KIND_AFTER_NAME.finditer(question)
        if m.group("name").lower() not in QUESTION_WORDS
        for w in stems(m.group("kind"))
    }  # "What model ..." asks which model: no name is written before it
    return share | said | kinds | {w for m in _EXISTS.finditer(question) for w in stems(m.group("noun"))}


_WHERE_PRINTED = re.compile(r"\b(?:is|are|was|were|be)\s+(?P<verb>listed|quoted|specified|printed)\b", re.I)
"""A verb saying where or how a value is written ("What dot spacing is listed for ..."): not a word of the metric
(a "list price" keeps its "list": only the passive verb is dropped)."""

_KIND_AFTER_NAME = re.compile(
    r"\b(?P<name>[A-Z][\w-]*|[A-Za-z]*\d[\w-]*)\s+(?P<kind>model|version|variant|edition|series|baseline|method)\b"
)
"""The kind of thing a name or designation is, written after it in lower case ("the K7 model", "the 2.0 version",
"the Gull baseline"): the name says which; a table's row or column prints the name alone."""
