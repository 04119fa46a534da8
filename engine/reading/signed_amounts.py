"""A value stated as an analyst writes it: the sign of money spent, the printed figure beside it."""

from __future__ import annotations

import re
from dataclasses import replace

from engine.reading.formula_values import EARNED
from engine.reading.statement_sense import head_noun
from engine.reading.table_values import Cell
from engine.reading.value_scoring import in_wanted_scale

_CASH_FLOW = re.compile(r"cash\s*flows?|investing activities|financing activities|operating activities", re.I)
_OUTGO = re.compile(
    r"\b(?:expenses?|costs?|charges?|purchases?|payments?|paid|repurchases?|additions?|"
    r"capital expenditures?|spending|taxes|provision)\b",
    re.I,
)
"""A row whose label names money spent: printed in parentheses, it is an amount spent, not a negative one."""
_PARENTHESES = re.compile(r"\s*\([^)]*\)")
_BOUGHT = re.compile(r"^\s*(?:purchases?|payments?|additions?|acquisitions?)\s+(?:of|for|to)\s+(.+?)\s*$", re.I)
"""A row of money paid for something ("Purchases of property, plant and equipment", "Additions to property and
equipment"): its object is what the money was spent on."""


def amount_spent(cell: Cell) -> bool:
    """Whether a negative value is money spent (an outflow printed in parentheses), not a loss: the label's
    head noun, not what it is of, tells money earned from money spent ("Cost of sales" is a cost, "Income tax
    expense" an expense)."""
    return cell.value < 0 and cell.unit != "%" and not EARNED.search(head_noun(cell.label) or cell.label)


def signed_amount(cell: Cell, wanted_scale: str = "") -> str:
    """A value as an analyst states it, the printed figure kept when it is negative: money spent as the amount
    spent ("$1,577 million spent (a cash outflow; printed as (1,577))"), a loss or any other negative with its
    minus sign ("-$42 million (printed as (42))"): a bare minus on a purchase reads as a refund. The value
    restated in the scale the question asks for follows the printed one ("$4,625 million ($4.625 billion)")."""
    spent = amount_spent(cell)
    shown = replace(cell, value=abs(cell.value)) if spent else cell
    restated = in_wanted_scale(shown, wanted_scale)
    value = shown.display() + (f" ({restated})" if restated else "")
    if cell.value >= 0:
        return value
    printed = f"printed as {cell.raw}" if "(" in cell.raw else ""  # a minus sign prints as itself
    if not spent:  # a loss, a negative rate: the minus sign is the fact
        return f"{value} ({printed})" if printed else value
    verb = " spent" if _OUTGO.search(cell.label) else ""
    bought = _BOUGHT.match(cell.label)
    if bought:  # "Purchases of property, plant and equipment (PP&E)": what the money was spent on, as an analyst says
        verb = " spent on " + _PARENTHESES.sub("", bought.group(1)).strip()
    outflow = "a cash outflow" if _CASH_FLOW.search(f"{cell.context} {cell.label}") else ""
    notes = "; ".join(n for n in (restated, outflow, printed) if n)
    return f"{shown.display()}{verb}" + (f" ({notes})" if notes else "")
