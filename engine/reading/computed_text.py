"""The statement of a computed value: the result as an analyst writes it, then every input as it entered.

"$1,577 million (computed from ...)", "25.0%", "-2.5 percentage points", and, for a yes/no question whether an
item moved, "Yes: ..." or "No: ..." before it. Pure text from a ``formulas.Working``.
"""

from __future__ import annotations

import re
from dataclasses import replace

from engine.documents.text import SPELLED_NUMBER, SPELLED_NUMBERS
from engine.reading.changes import asked_direction
from engine.reading.formulas import Node, Working
from engine.reading.statement_sense import signed_input
from engine.reading.table_values import SCALE_FACTOR, Cell

_DECIMALS = re.compile(rf"\b(?:round(?:ed)?|to)\b[^.]*?\b(zero|{SPELLED_NUMBER}|\d)\s+decimal", re.I)
_PERCENT_WANTED = re.compile(
    r"\bpercent(?:s|age)?\b|%|\bgrowth rate\b|\bmargin\b|\breturn on\b|\bro(?:a|e|ic|ce)\b", re.I
)
"""A question that names the percent unit, a rate or margin (a share of something), or a return on assets, equity
or capital (analysts quote returns as percentages): its quotient is stated as a percentage."""


def computed_statement(question: str, formula: Node, working: Working) -> str:
    """The computed value of ``working`` as the answer states it (module doc)."""
    assert working.value is not None
    decimals = _decimals(question)
    value = working.value
    top = formula.left.op if formula.op == "avg" and formula.left is not None else formula.op
    percent = top in ("%", "pct_of") or (_PERCENT_WANTED.search(question) and top == "/" and abs(value) < 5)
    if top == "/" and percent:
        value *= 100.0
    if percent:
        shown = f"{value:,.{1 if decimals is None else decimals}f}%"
    elif top in ("+", "-") or (top == "" and formula.operand):
        shown = _amount(value, working, decimals, difference=top == "-")
    else:
        shown = f"{value:,.{2 if decimals is None else decimals}f}"
    # the working reads amounts as magnitudes (an outflow printed in parentheses is the amount spent)
    inputs = "; ".join(
        dict.fromkeys(f"{cell.label}, {period.label()}: {_input(cell)}" for _, period, cell in working.inputs)
    )
    direction = asked_direction(question)  # "Did the fleet grow between ...?": yes or no, then the change
    if direction is None:
        return f"{shown} (computed from {inputs})"
    moved = value > 0 if direction == "up" else value < 0 if direction == "down" else value != 0
    return f"{'Yes' if moved else 'No'}: {shown} (computed from {inputs})"


def _input(cell: Cell) -> str:
    """An input of a computation as it entered it (money spent as a magnitude, a loss with its minus sign), with
    the printed figure when it differs."""
    entered = cell.value if cell.unit == "%" else signed_input(cell, cell.value)
    shown = replace(cell, value=entered).display()
    return shown if entered == cell.value and "(" not in cell.raw else f"{shown} (printed as {cell.raw})"


def _amount(value: float, working: Working, decimals: int | None, difference: bool = False) -> str:
    """A sum, difference or mean in the scale of its inputs, to their printed places unless it needs more
    ("$9,068 million", "393.50"); a difference of percentages is in percentage points, a mean or sum of them
    a percentage."""
    cells = [cell for _, _, cell in working.inputs]
    percent = bool(cells) and all(c.unit == "%" for c in cells)
    scale = cells[0].scale if cells and not percent and all(c.scale == cells[0].scale for c in cells) else ""
    shown = value / SCALE_FACTOR.get(scale, 1.0)
    places = max((len(m.group(1)) for c in cells if (m := re.search(r"\.(\d+)", c.raw))), default=0)
    if decimals is None:
        decimals = places if abs(shown - round(shown, places)) < 1e-9 else max(places, 2)
    number = f"{shown:,.{decimals}f}"
    if percent:
        return f"{number} percentage points" if difference else f"{number}%"
    sign, unit = ("-" if shown < 0 else ""), (cells[0].unit if cells else "")
    return f"{sign}{unit}{abs(shown):,.{decimals}f}" + (f" {scale}" if scale else "")  # "-$976 million"


def _decimals(question: str) -> int | None:
    m = _DECIMALS.search(question)
    if not m:
        return None
    word = m.group(1).lower()
    return int(word) if word.isdigit() else 0 if word == "zero" else SPELLED_NUMBERS.get(word, 2)
