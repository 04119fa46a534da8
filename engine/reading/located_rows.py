"""Rows that name where a figure went, not what it is: a note's table of hedging gains whose rows are the line
items the gains were booked in ("Net sales | $ 61" under "Gain (loss) reclassified from accumulated OCI into
income"). Its "Net sales" row is the gain booked in net sales, never the net sales. Pure."""

from __future__ import annotations

import re

from engine.reading.table_values import Cell

_BOOKED_MEASURE = re.compile(
    r"\b(?:gains?|reclassifi\w*|hedg\w*|derivatives?|recogni[sz]ed in|amortization of)\b", re.I
)
"""What a note's table measures when its rows are the line items it was booked in: gains (and losses: "Gain
(loss)"), amounts reclassified or recognised, hedges and derivatives. A loss alone is not one: a statement's own
caption may read "Income (Loss)"."""


_HEDGE_SECTION = re.compile(r"\bhedg\w*|\bderivative|\breclassifi\w*", re.I)
"""A section about hedges, derivatives or reclassifications: its tables' rows are where their gains were booked
(a statement's own section may say "(Loss)", so gains and losses alone do not mark a section)."""


def booked_in_row(cell: Cell, question: str) -> bool:
    """A row whose table's caption or column measures gains or reclassified amounts (``_BOOKED_MEASURE``),
    or whose section is about hedges or derivatives, when the question asks about none of these: the row's label
    names the line item the amount was booked in."""
    if not cell.is_row or _BOOKED_MEASURE.search(question):
        return False
    return bool(_BOOKED_MEASURE.search(f"{cell.caption} {cell.column}") or _HEDGE_SECTION.search(cell.context))
