"""Table rows the layout reader printed as plain text: a line whose label is followed by as many amounts as the
table has period columns ("Operating Income 30,467 32,448 28,798" under "2022 | 2021 | 2020"). Pure."""

from __future__ import annotations

import re

from engine.documents.layout import ROW_SEPARATOR

_AMOUNT = r"\$?\s?\(?\s?[-−–]?\d[\d,]*(?:\.\d+)?\s?\)?\s?%?"
_UNSPLIT = re.compile(rf"^(?P<label>[A-Za-z][^|]{{1,80}}?[A-Za-z)\]:,])\s+(?P<amounts>{_AMOUNT}(?:\s+{_AMOUNT})+)\s*$")
"""A label (words, ending in a letter, a parenthesis or a colon) then two or more amounts, nothing else."""
_ONE = re.compile(_AMOUNT)


def unsplit_row(line: str, columns: int) -> str | None:
    """``line`` as a table row (cells joined by the row separator) when it is a label followed by exactly
    ``columns`` amounts, the number of value columns of the table it sits in; else None. The layout reader
    keeps a row's cells apart only where it sees column gaps: a row printed with narrow gaps comes out as one
    line of text, and its figures belong to the table's columns all the same. Requiring the table's own count
    keeps a sentence that ends in numbers from being read as a row."""
    m = _UNSPLIT.match(line.strip())
    if m is None or columns < 2:
        return None
    amounts = [a.group(0).strip() for a in _ONE.finditer(m.group("amounts"))]
    if len(amounts) != columns or any(re.fullmatch(r"(?:19|20)\d\d", a) for a in amounts):
        return None  # a line of years is a header, not a row
    return ROW_SEPARATOR.join([m.group("label").strip(), *amounts])
