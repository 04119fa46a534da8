"""A table's numbered caption printed under its rows ("Table 6: Results on the held-out set." below the figures).

Papers put a table's caption over it or under it. Read top to bottom, a caption under a table came after its rows,
so the rows had no caption, and the caption was carried on to the next table, whose rows it does not describe.
Two tables of one shape (the same methods and metrics on two datasets) then could not be told apart.

The rule: a numbered caption read right after rows that had no numbered caption over them is those rows' caption,
and it is not carried on. Rows that had a caption over them keep it: in a document that prints captions over its
tables, the caption after a table's rows is the next table's.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.reading.table_rows import TABLE_CAPTION, TableState


@dataclass
class BelowCaption:
    """The rows read since the last header with no numbered caption over them (``start``: their first cell), and
    whether the last line read was a row."""

    start: int | None = None
    after_row: bool = False

    def rows_read(self, before: int, state: TableState) -> None:
        """A row line was read; ``before``: how many cells there were before it."""
        if not state.in_rows:
            self.start = None  # a header: a new table begins, which a caption under it would name
        elif self.start is None and not state.caption:
            self.start = before
        self.after_row = state.in_rows

    def caption_under(self, line: str) -> tuple[int, str] | None:
        """When ``line`` is a numbered caption right under uncaptioned rows: the first of their cells and the
        caption's text (the caller gives them the caption, and does not carry it on to the next table)."""
        found = TABLE_CAPTION.search(line)
        start, self.start = (self.start, None) if found is not None and self.after_row else (None, self.start)
        self.after_row = False
        return (start, found.group("caption")) if found is not None and start is not None else None
