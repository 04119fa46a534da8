"""Change columns whose unit symbols the text layer printed in one header cell: "2022 | 2021 | $ % | $ %" over rows of
seven figures (each year's amount, then each change in dollars and in percent). Split, the header names every figure's
column; whole, it is two columns short and the rows' figures are read with no column at all. Pure."""

from __future__ import annotations

SYMBOLS = frozenset({"$", "%", "€", "£", "¥", "#"})
"""Unit symbols a change column is headed by: a currency (the change in money), a percent sign, a number sign."""


def split_symbols(header: list[str]) -> list[str]:
    """``header`` with each cell of two or more unit symbols split into one column per symbol ("$ %" -> "$", "%")."""
    return [column for cell in header for column in (cell.split() if symbol_cell(cell) else [cell])]


def symbol_cell(cell: str) -> bool:
    """A header cell of two or more unit symbols ("$ %"): the headers of a change's columns."""
    tokens = cell.split()
    return len(tokens) >= 2 and all(t in SYMBOLS for t in tokens)
