"""Rows whose label spans the rows below it: one item's figures for several years, the item named once.

A compensation or segment table prints "Dana Okafor | 2041 | 412,000 | 30,000" and under it "2040 | 398,000 | —":
the lower rows leave the first column blank, because the name above spans them. Read alone, "2040" would be the
lower row's label and the name would be lost. Pure.
"""

from __future__ import annotations

import re

from engine.reading.periods import YEAR, Period, periods_in
from engine.reading.table_rows import TableState

_YEAR_CELL = re.compile(rf"(?:FY\s?)?{YEAR}")


def spanned_row(row: list[str], state: TableState) -> tuple[list[str], tuple[Period, ...]]:
    """``row`` with the label it leaves to the row above, and the period its year cell names (``()`` when it
    names none). A row "label | year | figures" opens a span; a row one cell shorter that starts with a year
    continues it; any other row ends it."""
    if len(row) >= 3 and row[0].strip() and not _YEAR_CELL.fullmatch(row[0].strip()):
        if _YEAR_CELL.fullmatch(row[1].strip()):
            state.spanning = (row[0], len(row))
            return row, periods_in(row[1])
    elif state.spanning is not None and len(row) == state.spanning[1] - 1 and _YEAR_CELL.fullmatch(row[0].strip()):
        return [state.spanning[0], *row], periods_in(row[0])
    state.spanning = None
    return row, ()
