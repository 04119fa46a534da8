"""Tables whose columns come in groups under spanning headers, split by the table finder at the groups' gaps.

A paper's results table often prints a spanning header over groups of columns ("BLEU | Training Cost") and
the groups' own columns below it ("EN-DE EN-FR | EN-DE EN-FR"); the table finder separates the groups but
not the columns inside one ("Model X | 27.3 38.1 | 3.3e18 2.1e19"). With both header lines, each column is
named by its group and its own name ("BLEU EN-FR"), and a row's group cell splits into that many numbers.
A group cell that does not (a missing value, a number printed with an exponent) is left unread: which
column an incomplete group's number belongs to is not printed. Pure functions.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.contracts import EvidenceItem
from engine.documents.layout import ROW_SEPARATOR
from engine.reading.loose_tables import MAX_COLUMN_CHARS, VALUE
from engine.reading.table_values import Cell

MIN_ROWS = 2
"""A grouped table is read when this many rows have a group cell read whole."""
UPPER_REACH = 2
"""The spanning header sits on one of the two lines above the groups' header."""


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.split(ROW_SEPARATOR)]


def _groups_header(line: str) -> list[list[str]] | None:
    """The groups' own column names ("EN-DE EN-FR | EN-DE EN-FR"), when every cell holds two names or more
    and none is a number."""
    cells = [c for c in _cells(line) if c]
    groups = [c.split() for c in cells]
    if len(groups) < 2 or any(len(g) < 2 for g in groups):
        return None
    if any(VALUE.match(w) or len(w) > MAX_COLUMN_CHARS for g in groups for w in g):
        return None
    return groups


def _spanning(line: str, count: int) -> list[str] | None:
    """The spanning header over ``count`` groups: that many names, or a label header and then that many."""
    cells = [c for c in _cells(line) if c]
    if len(cells) == count + 1:
        cells = cells[1:]
    if len(cells) != count or any(VALUE.match(c) for c in cells):
        return None
    return cells


def grouped_tables(items: Sequence[EvidenceItem]) -> list[list[Cell]]:
    """The grouped tables of one page (its chunks in reading order), each as its cells."""
    lines = [(item, line.strip()) for item in items for line in item.text.split("\n") if line.strip()]
    tables: list[list[Cell]] = []
    for n, (_, line) in enumerate(lines):
        groups = _groups_header(line)
        if groups is None:
            continue
        upper = next(
            (names for _, above in lines[max(0, n - UPPER_REACH) : n] if (names := _spanning(above, len(groups)))),
            None,
        )
        if upper is None:
            continue  # a groups' header with no spanning names: its columns would be named twice alike
        named = [[f"{upper[g]} {w}" for w in group] for g, group in enumerate(groups)]
        cells = _rows(lines[n + 1 :], named)
        if len({c.label for c in cells}) >= MIN_ROWS:
            tables.append(cells)
    return tables


def _rows(lines: list[tuple[EvidenceItem, str]], named: list[list[str]]) -> list[Cell]:
    """The cells of the rows under the header: a label cell and one cell per group, until a line that is
    no row."""
    found: list[Cell] = []
    for item, line in lines:
        cells = _cells(line)
        if ROW_SEPARATOR not in line and found:
            break  # a line that is no row: the table is over
        if len(cells) != len(named) + 1 or VALUE.match(cells[0]) or not cells[0]:
            continue  # a row missing a group cell: which group its numbers belong to is not printed
        for group, cell in zip(named, cells[1:], strict=True):
            values = cell.split()
            if len(values) != len(group) or not all(VALUE.match(v) for v in values):
                continue  # an incomplete group: which column its number is in is not printed
            for column, raw in zip(group, values, strict=True):
                m = VALUE.match(raw)
                assert m is not None
                found.append(
                    Cell(
                        chunk_id=item.chunk_id, doc_id=item.doc_id, page=item.page, label=cells[0], column=column,
                        raw=m.group("num") + (m.group("pct") or ""),
                        value=float(m.group("num").replace(",", "").replace("−", "-")), scale="",
                        unit="%" if m.group("pct") else "", periods=(), quote=line, is_row=True,
                        context=" ".join(item.section_path),
                    )
                )  # fmt: skip
    return found
