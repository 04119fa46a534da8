"""Yes/no questions that compare a value with a number they state: "Was the gross margin in 2031 above 45%?",
"Did port revenues exceed $5 billion in 2030?", "Is the current ratio at least 1.5?".

``asked_threshold`` reads the number and the way the question compares with it; ``value_question`` is the
question that reads the value itself ("Was the gross margin in 2031?"); ``meets`` compares a value read with
the number, when both are of one kind (a percentage with a percentage, an amount with an amount). Pure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from engine.reading.answer_type import expected_type
from engine.reading.table_values import NUMBER, SCALE_FACTOR, Cell, parse_number

Comparison = Literal["above", "at_least", "below", "at_most"]

_COMPARE = re.compile(
    r"\b(?P<how>(?:greater|higher|more|larger|bigger)\s+than|above|over|exceed(?:s|ed)?|surpass(?:es|ed)?|"
    r"at\s+least|no\s+less\s+than|(?:less|lower|smaller|fewer)\s+than|below|under|at\s+most|no\s+more\s+than)"
    r"\s+(?=[$€£¥]?\s?\d)",
    re.I,
)
_HOW = {
    "at least": "at_least", "no less than": "at_least", "at most": "at_most", "no more than": "at_most",
    "below": "below", "under": "below", "above": "above", "over": "above",
}  # fmt: skip


@dataclass(frozen=True)
class Threshold:
    """The number a yes/no question compares a value with, in units (a percentage as printed)."""

    value: float
    percent: bool
    measure: str
    """The unit of measure printed after the number ("kg"), if any."""
    comparison: Comparison
    text: str
    """The comparison as the question words it ("above 45%")."""


def asked_threshold(question: str) -> Threshold | None:
    """The number ``question`` compares a value with (module doc), else None."""
    q = " ".join(question.split())
    m = _COMPARE.search(q)
    number = NUMBER.match(q, m.end()) if m else None
    if expected_type(q) != "yes_no" or m is None or number is None:
        return None
    parsed = parse_number(number.group(0))
    if parsed is None:
        return None
    value, unit, word, _ = parsed
    percent = unit == "%"
    how = " ".join(m.group("how").lower().split())
    comparison = _HOW.get(how) or ("below" if re.match(r"(?:less|lower|smaller|fewer)", how) else "above")
    scaled = value if percent else value * SCALE_FACTOR.get(word, 1.0)
    text = q[m.start() : number.end()].strip()
    return Threshold(scaled, percent, (number.group("measure") or "").lower(), comparison, text)  # type: ignore[arg-type]


def value_question(question: str, threshold: Threshold) -> str:
    """The question that reads the compared value: the comparison left out ("Was the margin in 2031 above 45%?" ->
    "Was the margin in 2031?")."""
    return re.sub(r"\s+(?=[?.,])", "", " ".join(question.replace(threshold.text, " ").split()))


def meets(threshold: Threshold, cell: Cell) -> bool | None:
    """Whether the value read compares with the number as asked; None when they are of different kinds."""
    if threshold.percent != (cell.unit == "%") or threshold.measure != (cell.measure or "").lower():
        return None
    value = cell.value if cell.unit == "%" else cell.scaled
    return {
        "above": value > threshold.value, "at_least": value >= threshold.value,
        "below": value < threshold.value, "at_most": value <= threshold.value,
    }[threshold.comparison]  # fmt: skip
