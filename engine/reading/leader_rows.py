"""A table row printed with dot leaders whose first figure the text layer glued to its label. Pure."""

from __future__ import annotations

import re

from engine.reading.table_rows import AMOUNT

_LEADER_FIGURE = re.compile(rf"^(?P<label>[A-Za-z][^|]*?[A-Za-z)\]:])\s?(?:[.·…_]\s?){{3,}}\s*(?P<amount>{AMOUNT})\s*$")
"""A label, its dot leaders and one amount in one cell: the row's first figure, printed close to the leaders."""


def leader_figure(row: list[str]) -> list[str]:
    """A row whose first cell holds its label, dot leaders and the first figure ("Gross margin. . . . 1,118,637",
    then "1,577,275"), with that figure in a cell of its own: otherwise the row has one figure too few, and each
    figure would be read under the column to its right."""
    glued = _LEADER_FIGURE.match(row[0]) if row else None
    return [glued.group("label"), glued.group("amount"), *row[1:]] if glued else row
