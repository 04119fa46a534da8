"""The words a question qualifies a line item by ("charter service" of "charter service revenue"), and which rows
name them: a computed metric of a part is read from the part's row, never from the whole."""

from __future__ import annotations

import re

from engine.documents.text import stems
from engine.reading.table_values import Cell
from engine.reading.value_cover import SCOPE_WORDS
from engine.reading.value_spec import ValueSpec


def qualifiers(phrase: str, spec: ValueSpec) -> frozenset[str]:
    """The words a phrase qualifies its line item by ("charter service" of "charter service revenue"): its lower-case
    words but the item's own and the scope's. A capitalised name ("total assets of Acme Group") is whose item it is,
    not a narrower one."""
    lower = " ".join(w for w in re.findall(r"[A-Za-z][\w'-]*", phrase) if w.islower())
    return frozenset(stems(lower)) - spec.triggers - SCOPE_WORDS if spec.triggers & stems(lower) else frozenset()


def names_qualifier(words: frozenset[str], cell: Cell) -> bool:
    """Whether a row label names every qualifying word ("Charter services" for "charter service revenue"): the row of
    that part, whose table's heading ("Revenues") supplies the item's own word."""
    return bool(words) and words <= stems(cell.label)


def broader_row(words: frozenset[str], cell: Cell) -> bool:
    """Whether a row names none of the qualifying words, in its label, column, section or table title: the whole
    ("Total revenues") of which a part was asked."""
    return bool(words) and not words & stems(f"{cell.label} {cell.column} {cell.context} {cell.caption}")
