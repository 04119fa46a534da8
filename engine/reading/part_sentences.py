"""A sentence about one named part of the company, read for a question about the company. Pure.

"With about 9,000 employees at 40 plants, the Coastal Segment is a leading maker of ..." counts the segment's
employees; "As of year end we had about 12,000 employees worldwide" counts the company's. A question that names
neither the segment nor segments asks for the company's figure, so the segment's sentence gives way to the other.
"""

from __future__ import annotations

from engine.documents.text import stems
from engine.reading.statement_sense import SEGMENT, asks_for_summary, segment_head
from engine.reading.table_values import Cell


def unasked_part_sentence(cell: Cell, question: str) -> bool:
    """Whether ``cell`` is a number stated in a sentence that names a business segment ("the Coastal Segment")
    which the question neither names nor asks about ("each segment's", "by segment")."""
    if cell.is_row or asks_for_summary(question, "segment"):
        return False
    asked = stems(question)
    named = [m for m in SEGMENT.finditer(cell.label)]
    return bool(named) and not any(stems(segment_head(m)) & asked for m in named)
