"""The statement of a computed value: the result as an analyst writes it, then every input as it entered.

"$1,577 million (computed from ...)", "25.0%", "-2.5 percentage points", and, for a yes/no question whether an
item moved, "Yes: ..." or "No: ..." before it. Pure text from a ``formulas.Working``.
"""

from __future__ import annotations

import re
from dataclasses import replace

from engine.documents.text import SPELLED_NUMBER, SPELLED_NUMBERS
from engine.reading.changes import asked_direction
from engine.reading.formula_values import Working, evaluate, signed_input
from engine.reading.formulas import Node
from engine.reading.periods import Period
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
    sides = _sides(formula, working)
    if sides is not None:
        shown = _compared(question, formula, working, sides, decimals)
    else:
        percent = _is_percent(question, top, value)
        amount = top in ("+", "-") or (top == "" and formula.operand is not None)
        shown = _quantity(value * 100.0 if top == "/" and percent else value, percent, amount, top, working, decimals)
        shown += _relative(top, working) if not percent else ""
    # the working reads amounts as magnitudes (an outflow printed in parentheses is the amount spent); a number
    # read from a sentence is named by the input asked (its sentence is cited), a row by its label
    inputs = "; ".join(
        dict.fromkeys(
            f"{cell.label if cell.is_row else operand.phrase}, {period.label()}: {_input(cell)}"
            for operand, period, cell in working.inputs
        )
    )
    direction = asked_direction(question)  # "Did the fleet grow between ...?": yes or no, then the change
    if direction is None:
        return f"{shown} (computed from {inputs})"
    if direction == "either":  # "did it rise or fall": the way it went
        lead = "Increased" if value > 0 else "Decreased" if value < 0 else "Unchanged"
        return f"{lead}: {shown} (computed from {inputs})"
    moved = value > 0 if direction == "up" else value < 0 if direction == "down" else value != 0
    return f"{'Yes' if moved else 'No'}: {shown} (computed from {inputs})"


def _is_percent(question: str, top: str, value: float) -> bool:
    return top in ("%", "pct_of") or bool(_PERCENT_WANTED.search(question) and top == "/" and abs(value) < 5)


def _quantity(value: float, percent: bool, amount: bool, top: str, working: Working, decimals: int | None) -> str:
    """A value as a percentage, an amount in its inputs' scale (a difference when ``top`` is "-"), or a number."""
    if percent:
        return f"{value:,.{1 if decimals is None else decimals}f}%"
    if amount:
        return _amount(value, working, decimals, difference=top == "-")
    return f"{value:,.{2 if decimals is None else decimals}f}"


def _sides(formula: Node, working: Working) -> tuple[float, float] | None:
    """For a change of an item computed in each of two periods (``op == "at"``), its earlier and later values,
    recomputed from the working's inputs; else None."""
    left, right = formula.left, formula.right
    if formula.op not in ("-", "%") or left is None or right is None or left.op != "at" or right.op != "at":
        return None
    cells = {(operand.phrase, period): cell for operand, period, cell in working.inputs}

    def lookup(phrase: str, period: Period | None) -> Cell | None:
        return cells.get((phrase, period)) if period is not None else None

    later, earlier = evaluate(left, lookup).value, evaluate(right, lookup).value
    return None if later is None or earlier is None else (earlier, later)


def _compared(question: str, formula: Node, working: Working, sides: tuple[float, float], decimals: int | None) -> str:
    """ "-2.2 percentage points, from 36.8% in 2030 to 34.6% in 2031": the change, then the item in each period."""
    assert formula.left is not None and formula.right is not None and formula.left.left is not None
    top = formula.left.left.op
    percent = _is_percent(question, top, max(abs(v) for v in sides))
    earlier, later = (v * 100.0 if top == "/" and percent else v for v in sides)
    if formula.op == "%":
        change = f"{working.value:,.{1 if decimals is None else decimals}f}%"
    elif percent:
        change = f"{later - earlier:,.{1 if decimals is None else decimals}f} percentage points"
    else:
        change = _quantity(later - earlier, False, top in ("+", "-"), "-", working, decimals)
        change += _percent_of(later - earlier, earlier)
    first, last = formula.right.periods[0].label(), formula.left.periods[0].label()
    was, now = (_quantity(v, percent, top in ("+", "-"), top, working, decimals) for v in (earlier, later))
    return f"{change}, from {was} in {first} to {now} in {last}"


def _relative(top: str, working: Working) -> str:
    """For the change of one amount between two periods (a difference of two inputs of one label), the change as a
    percentage of the earlier amount too (" (-41.7%)"): analysts state a move both ways."""
    cells = [(period, cell) for _, period, cell in working.inputs]
    if top != "-" or len(cells) != 2 or cells[0][1].label != cells[1][1].label or working.value is None:
        return ""
    if cells[0][1].unit == "%" or cells[0][0] is None or cells[1][0] is None or cells[0][0] == cells[1][0]:
        return ""
    return _percent_of(working.value, abs(cells[1][1].scaled))


def _percent_of(change: float, base: float) -> str:
    return f" ({change / abs(base) * 100.0:+,.1f}%)" if base else ""


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
