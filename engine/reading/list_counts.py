"""Counts a list breaks down: "we had 412 staff, including:" over "• 96 in the labs; • 31 in sales". Each item's
leading number counts what its lead counts (the staff), in the part the item names. Printed bare, with no unit and
no noun after it, the item's number would be read as no stated amount at all. Pure."""

from __future__ import annotations

import re

from engine.contracts import EvidenceItem
from engine.reading.table_values import Cell, parse_number

_LEAD_COUNT = re.compile(r"\b\d[\d,]*\s+((?:[a-z][a-z\-]+\s){0,2}[a-z][a-z\-]+s)\b")
"""A count and the plural noun it counts in the list's lead ("412 full-time staff members")."""
_ITEM_COUNT = re.compile(r"^\W*(?P<num>\d{1,3}(?:,\d{3})*)\s+(?:in|at|on|for|from|as|of)\s+\w")
"""An item that opens with a bare whole number and a preposition naming its part ("• 96 in the labs")."""


def item_counts(item: EvidenceItem, lead: str) -> list[Cell]:
    """The count ``item`` opens with, when the list's ``lead`` counts a plural noun; else []."""
    counted = _LEAD_COUNT.search(lead)
    m = _ITEM_COUNT.match(item.text)
    if counted is None or m is None or (parsed := parse_number(m.group("num"))) is None:
        return []
    value, unit, scale, raw = parsed
    sentence = " ".join(item.text.split())
    return [
        Cell(chunk_id=item.chunk_id, doc_id=item.doc_id, page=item.page, label=sentence, column="", raw=raw,
             value=value, scale=scale, unit=unit, periods=(), quote=sentence, is_row=False,
             measure=counted.group(1), context=" ".join(item.section_path), position=sentence.find(m.group("num")),
             lead=lead)
    ]  # fmt: skip
