"""Computing a formula tree (``formulas.Node``) from cells a lookup finds, keeping every input for the working.

``evaluate`` reads each operand for the periods it names (else the period asked), money spent as a magnitude and
money earned with its sign (``signed_input``, below). Pure: the lookup is the caller's.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from engine.documents.text import stems
from engine.reading.formulas import Node, Operand
from engine.reading.periods import Period, without_periods
from engine.reading.statement_sense import head_noun
from engine.reading.table_values import Cell


@dataclass
class Working:
    """A computed value with the inputs it used, for the answer's working."""

    value: float | None
    inputs: list[tuple[Operand, Period, Cell]] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)


Lookup = Callable[[str, Period | None], Cell | None]
"""Finds the cell for a metric phrase in a period (None: any period)."""


def evaluate(node: Node, lookup: Lookup, period: Period | None = None) -> Working:
    """Compute ``node`` (operands without a period of their own are read for ``period``); ``value``
    is None when an input is missing or a division by zero."""
    working = Working(value=None)
    working.value = _eval(node, lookup, working, period)
    return working


def _eval(node: Node, lookup: Lookup, working: Working, period: Period | None) -> float | None:
    if node.number is not None:
        return node.number
    if node.operand is not None:
        return _operand_value(node.operand, lookup, working, period)
    if node.op == "at":  # the node read for the one period it names
        assert node.left is not None
        return _eval(node.left, lookup, working, node.periods[0])
    if node.op == "avg":
        assert node.left is not None
        values = [_eval(node.left, lookup, working, p) for p in node.periods]
        return None if any(v is None for v in values) else sum(v for v in values if v is not None) / len(values)
    assert node.left is not None and node.right is not None
    left, right = _eval(node.left, lookup, working, period), _eval(node.right, lookup, working, period)
    if left is None or right is None:
        return None
    if node.op in ("+", "-", "*"):
        return left + right if node.op == "+" else (left - right if node.op == "-" else left * right)
    if right == 0:
        working.missing.append("a division by zero")
        return None
    if node.op == "%":
        return 100.0 * (left - right) / abs(right)
    if node.op == "pct_of":
        return 100.0 * left / right
    return left / right


def _operand_value(operand: Operand, lookup: Lookup, working: Working, default: Period | None) -> float | None:
    """Money spent is read as a magnitude, money earned with its sign (``signed_input``)."""
    periods: tuple[Period | None, ...] = operand.periods or (default,)
    if operand.mode == "average_year" and default is not None and default.quarter is None:
        periods = (Period(default.year - 1), default)  # the opening and closing balance of the year
    wanted = periods if operand.mode != "value" else periods[:1]
    values: list[float] = []
    for period in wanted:
        cell = lookup(operand.phrase, period)
        if cell is None:
            working.missing.append(f"{operand.phrase} ({period.label()})" if period else operand.phrase)
            return None
        working.inputs.append((operand, period or (cell.periods[0] if cell.periods else Period(0)), cell))
        values.append(signed_input(cell, cell.scaled) if cell.unit != "%" else cell.value)
    if operand.mode in ("average", "average_year"):
        return sum(values) / len(values)
    if operand.mode == "change":
        return values[-1] - values[0]
    return values[0]


EARNED = re.compile(r"\b(?:income|earnings|profit|loss|gains?|proceeds|revenues?|sales)\b", re.I)
"""A row of money earned: printed in parentheses, it is a loss (a negative amount)."""
_LOSS_ONLY = re.compile(r"\bloss(?:es)?\b", re.I)
_GAIN_WORDS = re.compile(r"\b(?:income|earnings|profits?|gains?)\b", re.I)


def signed_input(cell: Cell, value: float) -> float:
    """An amount as a computation takes it (``value`` is the cell's, scaled). Money earned keeps its sign: a loss
    from operations printed "(3,547)" makes a negative margin, and a row titled only as a loss ("Operating loss",
    "Net loss") that prints a positive figure states the loss's size, so it is negative too. A net cash flow
    ("Net cash used in operating activities") keeps its sign. Any other amount, money spent printed in
    parentheses ("Purchases of property (1,577)", "Interest expense (310)"), enters as what was spent."""
    label = cell.label
    if EARNED.search(head_noun(label) or label):
        loss_only = _LOSS_ONLY.search(label) and not _GAIN_WORDS.search(label)
        return -abs(value) if loss_only else value
    return value if re.match(r"\s*net cash\b", label, re.I) else abs(value)


def columns_of_other_measures(working: Working) -> bool:
    """Whether an item's two periods were read from one row under columns that, their periods aside, head other
    measures ("Stores at End of Quarter 2041" and "Stores Opened 2040"): their difference is no change of one thing."""
    cells = [cell for _, _, cell in working.inputs]
    if len(cells) != 2 or not all(c.is_row for c in cells) or cells[0].label != cells[1].label:
        return False
    return stems(without_periods(cells[0].column)) != stems(without_periods(cells[1].column))
