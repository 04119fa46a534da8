"""Linear-time matching of the side finder's "X <separator> Y" shapes (engine.reading.question_sides).

Regular expressions such as ``(.+?)\\s+vs\\s+(.+)`` or ``\\bdo\\s+(.+?)\\s+and\\s+(.+?)\\s+differ\\b`` cost
quadratic (the second cubic) time on a long question without the separator: the engine retries the lazy
group from every start. Here each separator is found once, every occurrence kept in order, and a match is
assembled from the first occurrences that fit, the way the lazy groups would have chosen them.
Questions are whitespace-normalised first (single spaces), which the equivalences rely on.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Span:
    start: int
    end: int


class Occurrences:
    """Every place a separator pattern matches, one per start position (overlapping ones kept), in order."""

    def __init__(self, pattern: str, text: str, flags: int = re.IGNORECASE) -> None:
        self.spans = [
            Span(m.start(), m.start() + len(m.group(1))) for m in re.finditer(f"(?=({pattern}))", text, flags)
        ]
        self.starts = [s.start for s in self.spans]

    def first_from(self, position: int) -> Span | None:
        """The first occurrence starting at or after ``position``."""
        index = bisect_left(self.starts, position)
        return self.spans[index] if index < len(self.spans) else None


def pair_after(text: str, lead: re.Match[str] | None, sep: str) -> tuple[str, str] | None:
    """``lead`` (the leftmost opening, e.g. "between") then ``(.+?) sep (.+)``: the text up to the first
    separator (at least one character) and everything after it (at least one character)."""
    if lead is None:
        return None
    found = Occurrences(sep, text).first_from(lead.end() + 1)
    if found is None or found.end >= len(text):
        return None
    return text[lead.end() : found.start], text[found.end :]


def pair_from_start(text: str, sep: str) -> tuple[str, str] | None:
    """``(.+?) sep (.+)`` searched anywhere: the leftmost match starts the text."""
    found = Occurrences(sep, text).first_from(1)
    if found is None or found.end >= len(text):
        return None
    return text[: found.start], text[found.end :]


def until_first(text: str, start: int, sep: str) -> str:
    """``(.+?)(?:sep.*)?$`` from ``start``: the text up to the first separator after at least one character."""
    found = Occurrences(sep, text).first_from(start + 1)
    return text[start : found.start] if found is not None else text[start:]


def triple_after(text: str, lead: re.Match[str] | None, first: str, second: str) -> tuple[str, str] | None:
    """``lead (.+?) first (.+?) second``: both groups at least one character, each ended by the first
    separator that leaves room for the rest."""
    if lead is None:
        return None
    a = Occurrences(first, text).first_from(lead.end() + 1)
    if a is None:
        return None
    b = Occurrences(second, text).first_from(a.end + 1)
    if b is None:
        return None
    return text[lead.end() : a.start], text[a.end : b.start]


def last_either_or(sentence: str) -> tuple[str, str] | None:
    """``(?:^|[,?:]\\s*)([^,?:]+?),?\\s+or\\s+([^,?]+)$``: the leftmost clause start from which "A or B"
    reaches the end of the sentence (A without , ? :, B without , ?)."""
    ors = Occurrences(r"\s+or\s+", sentence, 0)
    if not ors.spans:
        return None
    barrier = max(sentence.rfind(","), sentence.rfind("?"))  # B lies wholly after the last , or ?
    ends = [s.end for s in ors.spans]
    after_barrier = bisect_left(ends, barrier + 1)
    # a clause starts after a , ? or : and the spaces after it; the expression's \s* gives them back one
    # by one when the longer start fails (", , or do": the clause " " after the first comma)
    starts = [0] + [p for m in re.finditer(r"[,?:]\s*", sentence) for p in range(m.end(), m.start(), -1)]
    stops = [m.start() for m in re.finditer(r"[,?:]", sentence)]
    for start in starts:
        stop_index = bisect_left(stops, start)
        stop = stops[stop_index] if stop_index < len(stops) else len(sentence)
        limit = stop + 1 if stop < len(sentence) and sentence[stop] == "," else stop - 1
        index = max(after_barrier, bisect_left(ors.starts, start + 1))
        if index >= len(ors.spans):
            return None
        found = ors.spans[index]
        first_end = found.start - 1 if found.start == stop + 1 else found.start
        if found.start > limit or found.end >= len(sentence) or first_end <= start:
            continue
        return sentence[start:first_end], sentence[found.end :]
    return None


_ASKS = re.compile(r"\s*(?:which|what|who)\b", re.I)
"""A question's head before its colon asks which of the options ("Which was larger in 2041: ...")."""
MAX_OPTION_WORDS = 8
"""An option listed after a colon is a name ("purchases of property, plant and equipment"), not a clause."""


def options_after_colon(q: str) -> tuple[str, str] | None:
    """The two options a question lists after a colon ("Which was larger in 2041: X or Y"), each whole with its
    commas: the colon ends the question's head, so the year and company before it are no part of either."""
    head, colon, tail = q.partition(":")
    options = [x.strip() for x in tail.split(" or ")] if colon and _ASKS.match(head) else []
    if len(options) != 2 or any(len(o.split()) > MAX_OPTION_WORDS for o in options):
        return None
    return options[0], options[1]


_PREPOSITION = re.compile(r"^(in|on|at|for|from|by|with|under|of)\s+", re.I)


def without_repeated_preposition(left: str, right: str) -> str:
    """``right`` without the preposition that also stands before the left option ("revenue in Ohio or in Iowa")."""
    m = _PREPOSITION.match(right)
    return right[m.end() :] if m and re.search(rf"\b{m.group(1)}\s+\S+", left, re.I) else right
