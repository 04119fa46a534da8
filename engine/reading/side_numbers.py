"""Which side of a comparison each number of one sentence is of, when the sentence names several sides.

"We measured 65.6 s on Lakes, while on Rivers the run took 83.2 s" states a figure for each of two things
compared. A number is of the side its sentence ties it to by the sentence's own order: each number right after
its side's name ("on Lakes, ... 65.6 s; on Rivers, ... 83.2 s"), each right before it ("31% of the Lakes
samples and 24% of the Rivers samples"), or the n-th number of the n-th side named when the sentence says
"respectively". When none of these orders holds for every number of the sentence, no number is tied to a
side (each may still be read for any side named). Pure.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from engine.documents.text import frozen_stems, stems
from engine.reading.number_lists import RESPECTIVELY
from engine.reading.table_values import Cell

_WORD = re.compile(r"[\w][\w.&'-]*")


def numbers_of_other_sides(cells: Sequence[Cell], side: str, sides: Sequence[str]) -> set[tuple[str, str, int]]:
    """The (chunk, sentence, position) of every sentence number the sentence ties to a side other than ``side``."""
    by_sentence: dict[tuple[str, str], list[Cell]] = {}
    for cell in cells:
        if not cell.is_row and cell.position >= 0:
            by_sentence.setdefault((cell.chunk_id, cell.label), []).append(cell)
    out: set[tuple[str, str, int]] = set()
    for (chunk, sentence), numbers in by_sentence.items():
        positions = sorted({c.position for c in numbers})
        owners = side_of_numbers(sentence, positions, sides)
        out |= {(chunk, sentence, p) for p, owner in owners.items() if owner != side}
    return out


def side_of_numbers(sentence: str, positions: Sequence[int], sides: Sequence[str]) -> dict[int, str]:
    """Each number's side (by its position in ``sentence``) when the sentence's order ties every number to one
    side and every side named to one number (module doc); {} otherwise."""
    if len(positions) < 2 or len(sides) < 2:
        return {}
    mentions = _mentions(sentence, sides)
    named = list(dict.fromkeys(label for _, label in mentions))
    if len(named) != len(positions):
        return {}
    if RESPECTIVELY.search(sentence) and all(start < positions[0] for start, _ in mentions):
        return dict(zip(positions, named, strict=True))
    for tied in (_each_after_its_side(mentions, positions), _each_before_its_side(mentions, positions, len(sentence))):
        if tied and len(set(tied.values())) == len(positions):
            return tied
    return {}


def _mentions(sentence: str, sides: Sequence[str]) -> list[tuple[int, str]]:
    """Where each side's own words (those its name shares with no other side's) stand in the sentence, in order."""
    words = [stems(s) for s in sides]
    own = [w - set().union(*(o for j, o in enumerate(words) if j != i)) for i, w in enumerate(words)]
    said = frozen_stems(sentence)
    if sum(1 for mine in own if mine & said) < 2:
        return []  # the sentence names one side at most
    found = []
    for m in _WORD.finditer(sentence):
        word = stems(m.group(0))
        hits = [sides[i] for i, mine in enumerate(own) if mine and word & mine]
        if len(hits) == 1:
            found.append((m.start(), hits[0]))
    return found


def _each_after_its_side(mentions: list[tuple[int, str]], positions: Sequence[int]) -> dict[int, str]:
    """Each number tied to the one side named between the number before it (or the sentence's start) and it."""
    tied = {}
    for n, position in enumerate(positions):
        start = positions[n - 1] if n else -1
        between = {label for at, label in mentions if start < at < position}
        if len(between) != 1:
            return {}
        tied[position] = between.pop()
    return tied


def _each_before_its_side(mentions: list[tuple[int, str]], positions: Sequence[int], end: int) -> dict[int, str]:
    """Each number tied to the one side named between it and the next number (or the sentence's end)."""
    tied = {}
    for n, position in enumerate(positions):
        stop = positions[n + 1] if n + 1 < len(positions) else end
        between = {label for at, label in mentions if position < at < stop}
        if len(between) != 1:
            return {}
        tied[position] = between.pop()
    return tied


def side_rows(cells: Sequence[Cell], side: str, sides: Sequence[str]) -> list[Cell]:
    """``cells`` without the table rows that are not ``side``'s, when some row's label or column names it: a named
    side's figure is read from its own row ("Dana Lund | 60,000 | 231,400") or column, not from a row of another
    thing that merely names the metric ("Retainer | Board pay"). All of them when no row names the side (its figure
    may then be a row of its own name spelled otherwise)."""
    words = [stems(s) for s in sides]
    mine = stems(side) - set().union(*(w for s, w in zip(sides, words, strict=True) if s != side))
    mine = {w for w in mine if len(w) > 1 and not w.isdigit()}
    own = [c for c in cells if c.is_row and mine <= stems(f"{c.label} {c.column}")] if mine else []
    return [c for c in cells if not c.is_row or c in own] if own else list(cells)
