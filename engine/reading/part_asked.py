"""The part of a company a question asks of ("the Harbour segment's margin", "GCS's operating income"): each figure
it needs is the part's own, printed under the part's name, not the company's total. Pure."""

from __future__ import annotations

from collections.abc import Sequence

from engine.documents.text import stems
from engine.reading.entities import named_words, names_all
from engine.reading.table_values import Cell


def asked_part(question: str, entity_words: Sequence[str], cells: Sequence[Cell]) -> tuple[str, ...]:
    """The part of the company a question asks of (a segment, a unit): the names it qualifies its metric with
    (``named_words``), when some figure is printed under them; a word with no stem ("If" opening a later
    sentence) names nothing."""
    part = tuple(n for n in named_words(question, entity_words) if stems(n))
    return part if part and any(names_part(c, part) for c in cells) else ()


def names_part(cell: Cell, part: Sequence[str]) -> bool:
    """Whether a cell's label, column, caption or section names the part (segment, product) a question asks of."""
    return names_all(f"{cell.label} {cell.column} {cell.context} {cell.caption}", part)
