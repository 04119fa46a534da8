"""What holds a value answer back from "complete", checked in code against the values read and cited.

A value answer (``engine.run.value_reader``) is complete only when nothing here objects: a reference the
answer needs is still pending, a side is not covered, the question's term that tells one instrument from
its siblings ("five-year") is in no cited line, a difference of two values is asked and only one value
was read (unless its sentence states it as the difference: "ahead by 14 km"), or a ratio of two line items is
asked and only one line item was read (in one year or several: a three-year average of capex is not capex to
revenue), unless the row read prints the ratio itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.contracts import SIDE_KINDS, AnswerWithEvidence, Caveat, Citation, ParsedQuestion, caveat
from engine.contracts import CaveatKind as K
from engine.documents.text import stems
from engine.reading.answer_type import asks_difference, asks_quotient
from engine.reading.changes import states_change
from engine.reading.periods import periods_in
from engine.reading.signals import missing_durations, needed_references
from engine.reading.value_answer import ValueAnswer, prints_ratio


@dataclass(frozen=True)
class Holds:
    """The checks' verdict: the sides still uncovered, whether anything blocks, and the caveats to show."""

    uncovered: tuple[str, ...]
    blocked: bool
    caveats: tuple[Caveat, ...]


def holds(
    answer: AnswerWithEvidence, parsed: ParsedQuestion, values: Sequence[ValueAnswer], cited: Sequence[Citation],
    computed_lines: int,
) -> Holds:  # fmt: skip
    """What keeps ``answer`` (the extractive one, about to be led by ``values``) from being complete.

    ``computed_lines`` counts the lines code computed from the values (differences between sides)."""
    read = sides_read(answer.uncovered_sides, values)
    uncovered = tuple(side for side in answer.uncovered_sides if side not in read)
    computed = any(len(v.cells) > 1 for v in values)  # "3 year average": the span of a computation's inputs
    unnamed = [] if computed else missing_durations(parsed.original_question, [c.quote for c in cited])
    single = not computed_lines and all(len(v.cells) == 1 for v in values)
    stated = any(not c.is_row and states_change(c.quote, c.position) for v in values for c in v.cells)
    one_value = single and asks_difference(parsed.original_question) and not stated
    terms = {cell.label.strip().lower() for v in values for cell in v.cells}
    printed = any(prints_ratio(c) for v in values for c in v.cells)
    one_term = not computed_lines and len(terms) < 2 and asks_quotient(parsed.original_question) and not printed
    needed = needed_references(answer.pending_references, parsed, [c.quote for c in cited])
    blocked = bool(needed or answer.garbled_pages or uncovered or unnamed or one_value or one_term)
    caveats = (
        *(c for c in answer.caveats if not (c.kind in SIDE_KINDS and c.subject in read)),
        *([caveat(K.TERM_UNNAMED, ", ".join(unnamed))] if unnamed else []),
        *([caveat(K.ONE_OF_TWO_VALUES)] if one_value else []),
        *([caveat(K.ONE_OF_TWO_TERMS)] if one_term else []),
    )
    return Holds(uncovered=uncovered, blocked=blocked, caveats=caveats)


def sides_read(sides: Sequence[str], values: Sequence[ValueAnswer]) -> set[str]:
    """The sides a cited value was read for: named by a period ("FY2018") the value's inputs cover (a
    computation's inputs cover the periods it compares, whichever passage the extractive answer chose),
    or named by the value's column, row or section ("Heron 2" over "Battery swap | about 25 min")."""
    periods = {p for v in values for cell in v.cells for p in cell.periods}
    places = [stems(f"{cell.column} {cell.label} {cell.context}") for v in values for cell in v.cells]
    return {
        side for side in sides
        if ((named := periods_in(side)) and set(named) <= periods)
        or (not named and (words := stems(side)) and any(words <= place for place in places))
    }  # fmt: skip
