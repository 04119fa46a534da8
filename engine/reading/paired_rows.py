"""Rows printed side by side: a list of labelled figures set in two or more column pairs to save space ("Aldmere |
12 | Northwick | 7", "Weight | 11 kg | Height | 52 cm"). Each pair is a row of its own: read as one row, the second
label would be a value of the first. Pure."""

from __future__ import annotations

import re

from engine.documents.layout import ROW_SEPARATOR

_FIGURE = re.compile(r"^[(\-−–]?[$€£¥]?\s?\d[\d,.]*\s?%?\)?(?:\s?[A-Za-z]{1,3})?$")
"""A value cell: a figure, maybe with a short unit ("100", "$ 1,204", "12%", "11 kg")."""
_LABEL = re.compile(r"[A-Za-z]{2}")
"""A label cell holds a word; a cell of figures or a year only is a value or a period."""


def paired_lines(line: str) -> list[str]:
    """The rows of a table line of label and value pairs, one line each; else the line itself. Two pairs at least,
    every odd cell a label with a word in it and every even cell a figure."""
    cells = [cell.strip() for cell in line.split(ROW_SEPARATOR)]
    if len(cells) < 4 or len(cells) % 2:
        return [line]
    labels, values = cells[0::2], cells[1::2]
    if all(_LABEL.search(label) and not _FIGURE.match(label) for label in labels) and all(
        _FIGURE.match(value) for value in values
    ):
        return [f"{label}{ROW_SEPARATOR}{value}" for label, value in zip(labels, values, strict=True)]
    return [line]
