"""Numbers a sentence states as one list ("2.1 million, 2.4 million and 2.2 million shares in 2041, 2040 and 2039,
respectively"): what the list says once is said of each of its numbers. Pure."""

from __future__ import annotations

import re
from dataclasses import replace

from engine.reading.table_values import NUMBER, Cell

RESPECTIVELY = re.compile(r"\brespectively\b", re.I)
"""A sentence that ties its numbers, in order, to the things or periods it names in the same order."""

_LIST_JOIN = re.compile(r"\s*(?:,|,?\s+(?:and|or))\s*", re.I)
"""What stands between two numbers of one list: a comma, "and" or "or" ("1.2 million, 1.4 million and 1.1 million")."""


def respectively(sentence: str, cells: list[Cell]) -> list[Cell]:
    """ "21.6% and 24.6% for 2022 and 2021, respectively": the n-th number is of the n-th period, when the
    sentence names as many periods as it states numbers."""
    periods = cells[0].periods if cells else ()
    if len(cells) < 2 or len(periods) != len(cells) or not RESPECTIVELY.search(sentence):
        return cells
    return [replace(cell, periods=(period,)) for cell, period in zip(cells, periods, strict=True)]


def listed_measure(sentence: str, cells: list[Cell]) -> list[Cell]:
    """ "Members bought 2.1 million, 2.4 million and 2.2 million shares": the unit or counted noun printed after a
    list's last number is what each of its numbers measures, when the others print none and all share one currency
    and scale. Read alone, "2.1 million" would count nothing, and could be taken for a count of members."""
    ordered = sorted(cells, key=lambda c: c.position)
    out = {id(c): c for c in ordered}
    run: list[Cell] = []
    for n, cell in enumerate(ordered):
        run.append(cell)
        if n + 1 < len(ordered) and _joined(sentence, cell, ordered[n + 1]):
            continue
        last = run[-1]
        if (
            len(run) > 1
            and last.measure
            and all(not c.measure and (c.unit, c.scale) == (last.unit, last.scale) for c in run[:-1])
        ):
            out.update({id(c): replace(c, measure=last.measure) for c in run[:-1]})
        run = []
    return [out[id(c)] for c in cells]


def _joined(sentence: str, cell: Cell, following: Cell) -> bool:
    """Whether only a list's separator stands between ``cell``'s number and the next one."""
    number = NUMBER.match(sentence, cell.position)
    return number is not None and bool(_LIST_JOIN.fullmatch(sentence, number.end(), following.position))
