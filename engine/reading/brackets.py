"""Brackets of a breakdown: a table's rows labelled by a range ("65-69", "$50,000-$74,999") or an open end ("80+",
"<$30,000"), as a survey prints its respondents by age or income. Pure."""

from __future__ import annotations

import re

_FIGURE = r"[$€£]?\d(?:[\d,.]*\d)?"  # a figure ends in a digit: "30-49," is the range 30-49 before a comma
BRACKET = re.compile(rf"[<>≤≥]?\s?{_FIGURE}\s?(?:[-–—]\s?{_FIGURE}|\+)|[<>≤≥]\s?{_FIGURE}")
"""A range or an open-ended bracket; a figure alone is a value."""
_IN_TEXT = re.compile(rf"(?<![\w$€£.,])(?:{BRACKET.pattern})(?!\w|[,.]\d)")  # whole figures only


def is_bracket(label: str) -> bool:
    """Whether a row label is a bracket (its row's figures are that bracket's)."""
    return BRACKET.fullmatch(label.strip()) is not None


def brackets_in(text: str) -> set[str]:
    """The brackets ``text`` names, written without spaces or dash variants ("$50,000 - $74,999": "$50,000-$74,999")."""
    return {_plain(m.group(0)) for m in _IN_TEXT.finditer(text) if not re.fullmatch(r"\d{4}-\d{2,4}", m.group(0))}


def _plain(bracket: str) -> str:
    return re.sub(r"\s+", "", bracket).replace("–", "-").replace("—", "-")


def names_bracket(label: str, question: str) -> bool:
    """Whether the question names the bracket a row is labelled with ("Household Income $50,000-$74,999")."""
    return bool(brackets_in(label) & brackets_in(question))


GROUP_LINE = re.compile(r"[A-Z][A-Za-z'’]*(?:\s+[A-Za-z'’]+){0,3}")
"""A short heading between a table's rows ("Age", "Household Income"): the breakdown the brackets below it are of."""


def in_group(label: str, group: str) -> str:
    """A bracket's row label with its breakdown's heading before it ("Household Income $50,000-$74,999"): the bracket
    alone says nothing of what it brackets. Any other label is kept."""
    return f"{group} {label}" if group and is_bracket(label) else label
