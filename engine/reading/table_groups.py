"""Header rows over groups of columns: an upper row naming each group ("Net sales | Operating income", "Europarl |
Lakes | Rivers") over a lower row whose columns repeat under each group ("2023 | 2022 | 2023 | 2022", "P R P R").
Each lower column is named with its group, left to right. Pure."""

from __future__ import annotations

import re

from engine.reading.periods import periods_in, span_headers
from engine.reading.table_rows import name_line

MAX_GROUP_WORDS = 6
"""A measure group's name is a short header ("Fare Mix Summary", "Operating income"); a longer cell is a
caption or a sentence the header line ran into."""


def measure_groups(upper: list[str] | None, header: list[str]) -> list[str] | None:
    """The columns of a header of periods printed under a header row that names measures, each over the same number
    of them ("Net sales | Operating income" over "2023 | 2022 | 2023 | 2022"): each period column becomes its
    measure's column in that period ("Operating income 2023"), left to right; else None.

    Without the measure, the two "2023" columns are one period printed twice and neither tells which figure is the
    operating income. Every cell of the upper row must be a measure, and the measures must split the periods
    evenly, two or more to each, and name no period or span of their own (spans over periods are read by
    ``periods.with_spans``). An upper row with a cell more or less (a label column's header, a group name the text
    layer set on a line of its own) is left alone: without the cells' positions, which group is over which period
    is a guess."""
    if not upper:
        return None
    lead = header[0].strip() if header and not periods_in(header[0]) else None
    periods = [c.strip() for c in (header[1:] if lead is not None else header) if c.strip()]
    if len(periods) < 4 or not all(periods_in(c) for c in periods):
        return None
    groups = [c.strip() for c in upper if c.strip()]
    columns = _under_groups(groups, periods) if all(map(_measure_name, groups)) else None
    if columns is None:
        return None
    return [lead, *columns] if lead is not None else columns


def _measure_name(cell: str) -> bool:
    return len(cell.split()) <= MAX_GROUP_WORDS and not re.search(r"\d", cell) and not span_headers(cell)


def named_groups(upper: list[str] | None, header: list[str]) -> list[str] | None:
    """The columns of a header line of names run into one cell ("Direction | Fr→Es En→Es De→Fr En→Fr") under an
    upper row with a label cell and one group per cell ("Set | Lakes | Rivers"): the names split evenly among the
    groups, two or more to each, and each becomes its group's ("Lakes Fr→Es"); else None. Only names the lower
    line prints without cell breaks (``table_rows.name_line``) are split so: cells the table finder kept apart
    are read as the columns they are."""
    if not upper or len(upper) < 3 or len(header) != 2:
        return None
    groups = [c.strip() for c in upper[1:]]
    names = name_line(header[1])
    columns = _under_groups(groups, names) if names and all(map(_measure_name, groups)) else None
    return [header[0], *columns] if columns is not None else None


_PERIOD_GROUP = re.compile(r"(?:Q[1-4]|(?:first|second|third|fourth)\s+quarter|full[\s-]+year|fiscal\s+year)", re.I)
"""A group of columns named by the part of the year it covers: an earnings release's "Q4 | Full Year" over "2022 |
2021 | % Change" twice. A span of months without "ended" is left out: "Six Months 2022" would read as the year."""


def period_groups(upper: list[str] | None, header: list[str]) -> list[str] | None:
    """The columns of a header of years and changes printed under a row of period groups ("Q4 | Full Year"), each
    group over the same number of them: each column is prefixed with its group ("Q4 2022", "Full Year % Change"), so
    the quarter's and the year's figures of one row are told apart; else None. The lower header's first cell is its
    label column's."""
    if not upper or not header:
        return None
    groups = [c.strip() for c in upper if c.strip()]
    columns = [c.strip() for c in header[1:]]
    if not all(_PERIOD_GROUP.fullmatch(g) for g in groups) or not any(periods_in(c) for c in columns):
        return None
    grouped = _under_groups(groups, columns)
    return [header[0], *grouped] if grouped is not None else None


def grouped_names(upper: list[str] | None, names: list[str] | None) -> list[str] | None:
    """Column names printed without cell breaks ("5-shot 10-shot 5-shot 10-shot") right under a header row of
    groups with no label cell ("Lakes | Rivers"), the names splitting evenly among the groups, two or more to each:
    each name with its group ("Lakes 5-shot"); else None."""
    if not upper or not names or not all(map(_measure_name, upper)):
        return None
    return _under_groups([g.strip() for g in upper], names)


def _under_groups(groups: list[str], columns: list[str]) -> list[str] | None:
    """Each of ``columns`` named with the group over it, left to right, when two groups or more split the columns
    evenly, two or more to each; else None (which group is over which column would be a guess)."""
    if len(groups) < 2 or len(columns) < 2 * len(groups) or len(columns) % len(groups):
        return None
    per = len(columns) // len(groups)
    return [f"{groups[n // per]} {column}" for n, column in enumerate(columns)]
