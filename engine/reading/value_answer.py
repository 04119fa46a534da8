"""A value question answered from the evidence: the value with its label, period and scale, or the
arithmetic the question asks for with every input cited. Pure: the caller supplies the pages.

``answer_value`` returns None when the evidence holds no cell that names the metric (the caller
then answers as for any other question); otherwise a ``ValueAnswer`` whose statement leads the
answer and whose quotes are the rows or sentences the value came from.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from engine.contracts import EvidenceItem
from engine.documents.text import stems
from engine.reading.answer_type import asks_quotient
from engine.reading.computed_text import computed_statement
from engine.reading.counts import asks_mean, counted_row, counted_things, wrong_count
from engine.reading.entities import identifier_names, named_in_another_clause
from engine.reading.formula_values import Working, columns_of_other_measures, evaluate
from engine.reading.formulas import Node, parse_formula, question_period
from engine.reading.line_items import company_defined, other_definitions, standard_definition, variant_definitions
from engine.reading.part_asked import asked_part, names_part
from engine.reading.periods import Period
from engine.reading.qualifiers import broader_row, names_qualifier, qualifiers
from engine.reading.sentence_values import cells_in
from engine.reading.signed_amounts import signed_amount
from engine.reading.statement_sense import (
    balance_change,
    doubts,
    percent_unasked,
    qualified,
    stated_change,
    unasked_per_share,
)
from engine.reading.table_values import Cell
from engine.reading.value_match import (
    ValueMatch,
    broader,
    narrower_head,
    narrows,
    rank_cells,
    unnamed_doubt,
)
from engine.reading.value_scoring import agreeing, in_wanted_scale, wanted_scale
from engine.reading.value_spec import ValueSpec, value_spec

logger = logging.getLogger(__name__)

OPERAND_COVER = 0.75
"""An input of a computation must be named by its row label: three quarters of its terms, or a
document phrase for it whole (half a name is how "Cash and cash equivalents" would stand in for
"cash from operations")."""

OPERAND_PRECISION = 0.6
"""And most of the label's words must be the input's: "Deferred revenue" is not "revenue"."""

Alternatives = Callable[[str], Sequence[str]]
"""The document phrases for a metric phrase ("capex" -> "purchases of property and equipment")."""

_DIMENSIONLESS_ASKED = re.compile(
    # each word names a quantity without a currency: a ratio of two amounts, a share, a rate, a count of times
    r"\b(?:ratio|percent|percentage|margin|rate|times|multiple)s?\b|%",
    re.I,
)


@dataclass(frozen=True)
class ValueAnswer:
    """The statement of a value and where it was read."""

    statement: str
    cells: tuple[Cell, ...]
    """The cells the value was read from (one, or a formula's inputs), in citation order."""
    label_cover: float
    period_ok: bool
    """Every input's period is the one asked (or the question names none)."""
    missing: tuple[str, ...] = ()
    """Inputs of the asked arithmetic that the evidence does not hold."""
    narrower: bool = False
    """The row's label names a narrower item than the metric asked (``value_match.narrows``)."""
    unsure: str = ""
    """The input of a ratio of two line items that may not be the item asked: a row naming a narrower
    item ("Total long-term debt" for "total debt"), or a sentence, not a statement's row."""
    doubts: tuple[str, ...] = ()
    """Why the row read may be another figure than the one asked (``statement_sense.doubts``): a percentage, a
    per-share figure, a partial table's row, a label whose head names another thing."""
    also: tuple[Cell, ...] = ()
    """Other printings of the value read, on other pages (``value_scoring.agreeing``), cited beside it."""
    kind_ok: bool = True
    """False when the question asks for a ratio, share or rate and the value read is a currency amount, or
    for a count and the value read is an amount, a percentage or a count of other things."""


def answer_value(
    question: str,
    keywords: Sequence[str],
    alternatives: Alternatives,
    pages: Sequence[Sequence[EvidenceItem]],
    entity_words: Sequence[str] = (),
) -> ValueAnswer | None:
    """Answer ``question`` from the cells of ``pages`` (each a page's chunks in reading order)."""
    return answer_from_cells(question, keywords, alternatives, cells_in(pages), entity_words)


def answer_from_cells(
    question: str,
    keywords: Sequence[str],
    alternatives: Alternatives,
    cells: Sequence[Cell],
    entity_words: Sequence[str] = (),
    asked_as: str = "",
) -> ValueAnswer | None:
    """Answer ``question`` from ``cells`` (best-retrieved pages first: earlier pages weigh more).

    ``asked_as`` is the question as the user wrote it, answer-format instructions included ("Answer in
    USD millions.", "Round to two decimals."): the value is restated and rounded as it asks."""
    counted = counted_things(question)
    cells = [c for c in cells if not c.bare or (counted and stems(c.measure) & counted)]  # counts of what is asked
    if counted is not None:  # things are counted in whole numbers: "1.2" is a score or a rate, not how many
        cells = [counted_row(c, counted) for c in cells]
        whole = not asks_mean(question)  # how many on average, or per thing, is a mean: "5.27 claims per table"
        cells = [
            c for c in cells if c.value == int(c.value) or not whole or c.scale or c.unit or stems(c.measure) & counted
        ]
    if not cells:
        return None
    formula = parse_formula(question, standard_definition)
    spec = value_spec(question, keywords, alternatives(question), entity_words)
    unread: ValueAnswer | None = None  # a share computed without its inputs, when no stated share answers
    if formula is not None and not _printed_ratio(spec, cells):
        unread = _computed_answer(question, f"{question} {asked_as}", formula, cells, alternatives, entity_words)
        if unread is None or not unread.missing or formula.op != "pct_of":
            return unread
        cells = [c for c in cells if c.unit == "%"]  # a share whose inputs are not printed may be stated itself
    # a value of another period than the one asked is never stated as the answer
    ranked = [m for m in rank_cells(spec, cells) if m.period_match is not False]
    ranked = [m for m in ranked if not wrong_count(counted, m.cell)] or ranked  # a count before a price
    if not ranked:
        return unread
    for m in ranked[:3] if logger.isEnabledFor(logging.DEBUG) else []:
        logger.debug(
            "value %.2f cover=%.2f p.%d %s | %s", m.score, m.label_cover, m.cell.page, m.cell.label[:50], m.cell.column
        )
    # a number stated in prose for another thing than the one the question names ("X reaches 70%, which beats
    # GPT-4 by 8 points" for GPT-4's figure) comes after every number that is not
    names = identifier_names(question)
    ranked.sort(key=lambda m: bool(_elsewhere(names, m.cell)))
    best = ranked[0]
    asked = stems(question).union(*spec.terms, *spec.alternatives)
    return ValueAnswer(
        statement=_statement(best, spec.wanted_scale or wanted_scale(asked_as)),
        cells=(best.cell,),
        label_cover=best.label_cover,
        period_ok=best.period_match is not False and (best.period_match is True or not spec.periods),
        narrower=narrows(spec, best.cell, [m.cell for m in ranked]) or broader(spec, best.cell),
        doubts=(
            *doubts(best.cell, question, asked),
            *(f"the sentence states it for another thing than {name}" for name in _elsewhere(names, best.cell)),
            *unnamed_doubt(spec, best.cell),
            *_unplaced_tie(ranked),
        ),
        kind_ok=not (asks_dimensionless(question) and is_amount(best.cell)) and not wrong_count(counted, best.cell),
        also=agreeing(best.cell, [m.cell for m in ranked]),
    )


def _unplaced_tie(ranked: list[ValueMatch]) -> tuple[str, ...]:
    """A doubt on the best figure when it ties with others of its row and no column names any of them ("GPT-4 |
    78.22 | 64.80" under a header the reader could not place): the row is found, but which of its figures is asked
    cannot be told, and the first is no likelier than the others."""
    best = ranked[0]
    if not best.cell.is_row or best.cell.column:
        return ()
    row = (best.cell.chunk_id, best.cell.quote)
    tied = [m for m in ranked if (m.cell.chunk_id, m.cell.quote) == row and abs(m.score - best.score) < 1e-9]
    return ("no column names it, and its row's other figures match as well",) if len(tied) > 1 else ()


PRINTED_COVER = 0.9
"""How fully a table row (with its column and caption) must name the ratio asked to be read instead of computed."""


def prints_ratio(cell: Cell) -> bool:
    """Whether a table row is a ratio as printed: its label, column or table caption names one ("Table 2: Ratios
    of failures to trips")."""
    return cell.is_row and "ratio" in stems(f"{cell.label} {cell.column} {cell.caption}")


def _printed_ratio(spec: ValueSpec, cells: Sequence[Cell]) -> bool:
    """Whether a table prints the ratio asked: it is read as printed, not computed from two values read elsewhere."""
    rows = [c for c in cells if prints_ratio(c)]
    return any(m.label_cover >= PRINTED_COVER for m in rank_cells(spec, rows)[:3]) if rows else False


def _elsewhere(names: Sequence[str], cell: Cell) -> list[str]:
    """Of the question's identifier names, those a prose cell's sentence names only outside its number's clause."""
    if not names or cell.is_row or cell.position < 0:
        return []
    return named_in_another_clause(names, cell.label, cell.position)


@dataclass(frozen=True)
class _Fixed:
    """A standard-definition lookup that gives one definition for whatever standard metric a text names."""

    definition: str

    def __call__(self, text: str) -> str | None:
        return self.definition if standard_definition(text) is not None else None


def asks_dimensionless(question: str) -> bool:
    """Whether ``question`` asks for a ratio, share, rate or count of times (no currency in the answer)."""
    return bool(_DIMENSIONLESS_ASKED.search(question))


def is_amount(cell: Cell) -> bool:
    """A currency amount or a number in a stated scale ("$1,577", "3,890 million"): not a ratio."""
    return cell.unit not in ("", "%") or (bool(cell.scale) and cell.unit != "%")


def _statement(match: ValueMatch, wanted_scale: str) -> str:
    cell = match.cell
    if not cell.is_row:  # a number stated in prose: the value, then the sentence that states it
        restated = in_wanted_scale(cell, wanted_scale)
        return f"{cell.display()}{f' ({restated})' if restated else ''}: \u201c{cell.quote}\u201d"
    where = f", {cell.column}" if cell.column else ""
    return f"{cell.label}{where}: {signed_amount(cell, wanted_scale)}"


# --------------------------------------------------------------------------------------------
# Arithmetic
# --------------------------------------------------------------------------------------------


def _computed_answer(
    question: str, asked: str, formula: Node, cells: list[Cell], alternatives: Alternatives, entity_words: Sequence[str]
) -> ValueAnswer | None:
    """``formula`` over ``cells``; a standard metric missing an input is read as printed, then by other definitions."""
    value, own = _computed(asked, formula, cells, alternatives, entity_words), parse_formula(question)
    if value is None or own == formula:
        return value  # the question's own arithmetic has no other reading
    if not value.missing:
        return _beside_other_definitions(question, asked, value, cells, alternatives, entity_words)
    if own is not None:  # the question's own arithmetic, over the item as printed rather than as defined
        again = _computed(asked, own, cells, alternatives, entity_words)
        if again is not None and not again.missing:
            return again
    for definition in other_definitions(question):  # the textbook's other way, from line items printed
        other = parse_formula(question, _Fixed(definition))
        again = _computed(asked, other, cells, alternatives, entity_words) if other else None
        if again is not None and not again.missing:
            return again
    return value


VARIANT_DOUBT = "textbooks also compute it as"  # how the doubt of a metric with a textbook variant begins


def _beside_other_definitions(
    question: str, asked: str, value: ValueAnswer, cells: list[Cell], alternatives: Alternatives,
    entity_words: Sequence[str],
) -> ValueAnswer:  # fmt: skip
    """A metric textbooks define two ways (the quick ratio: cash and receivables, or current assets less
    inventories, over current liabilities) is doubted, which one is the analyst's call: the other's value is
    stated beside when it differs and is read from the same statement (not another table's row of that name)."""
    if not value.statement:
        return value  # one printed number read as two periods' values: nothing stated to set another beside
    for definition in variant_definitions(question):
        other = parse_formula(question, _Fixed(definition))
        again = _computed(asked, other, cells, alternatives, entity_words) if other else None
        if again is not None and again.statement and _result(again) == _result(value):
            continue  # both measures agree
        if again is None or again.missing or not {c.page for c in again.cells} <= {c.page for c in value.cells}:
            doubt = f"{VARIANT_DOUBT} {definition}, which the statement read does not give"
            return replace(value, doubts=(*value.doubts, doubt))
        return replace(
            value,
            statement=f"{value.statement}; computed as {definition}: {again.statement}",
            cells=(*value.cells, *(c for c in again.cells if c not in value.cells)),
            doubts=(*value.doubts, f"{VARIANT_DOUBT} {definition}, which gives {_result(again)}"),
        )
    return value


def _result(value: ValueAnswer) -> str:  # a computed statement without its inputs ("Yes: 0.04, from 0.53 ...")
    return value.statement.split(" (computed from ")[0]


def _computed(
    question: str, formula: Node, cells: list[Cell], alternatives: Alternatives, entity_words: Sequence[str]
) -> ValueAnswer | None:
    unsure: list[str] = []
    quotient = asks_quotient(question)
    asked = question_period(question)
    part = asked_part(question, entity_words, cells)  # "the Harbour segment's margin": each input is the segment's

    def lookup(phrase: str, period: Period | None) -> Cell | None:
        spec = value_spec(f"{phrase} {period.label() if period else ''}", [phrase], alternatives(phrase), entity_words)
        spec = replace(spec, sources=question, named=spec.named or part)
        # a row naming the item, or the part a qualified item names ("Charter services" for "charter service revenue");
        # never a broader row than the qualified item (the company's "Total revenues" for it)
        every = rank_cells(spec, cells)
        qualifying = qualifiers(phrase, spec)  # a qualifier no row prints ("unadjusted") names no part of the item
        qualifying = (
            qualifying if any(m.cell.is_row and names_qualifier(qualifying, m.cell) for m in every) else frozenset()
        )
        ranked = [
            m for m in every
            if (m.label_cover >= OPERAND_COVER or (m.cell.is_row and names_qualifier(qualifying, m.cell)))
            and (m.precision >= OPERAND_PRECISION or not m.cell.is_row) and not broader_row(qualifying, m.cell)
        ]  # fmt: skip
        words = stems(phrase).union(*spec.terms, *spec.alternatives)
        usable = [
            m for m in ranked
            if (period is None or m.period_match is True) and not _never_operand(m.cell, phrase)
        ]  # fmt: skip

        # a statement's row before a sentence that mentions the metric; a row no statement-sense rule doubts
        # before one read from a partial table or a note; a row naming the input plainly before one naming a
        # narrower item ("Operating cash flows from operating leases"): the first of each kind down the ranking
        def order(m: ValueMatch) -> tuple[bool, bool, bool, bool, bool]:
            other = bool(part) and not names_part(m.cell, part)  # the part asked before the company's total
            blurred = len({p.year for p in m.cell.periods}) > 1  # a column naming two years is either's only maybe
            return not m.cell.is_row, other, blurred, bool(doubts(m.cell, phrase, words)), narrower_head(spec, m.cell)

        for match in sorted(usable, key=order):
            if quotient and (not match.cell.is_row or narrows(spec, match.cell)):
                unsure.append(match.cell.label)
            elif company_defined(phrase) and not company_defined(match.cell.label):
                unsure.append(match.cell.label)  # "adjusted EBIT" read from the reported operating income
            elif part and not names_part(match.cell, part):
                unsure.append(match.cell.label)  # the company's operating income for the segment's margin
            elif doubts(match.cell, phrase, words) and not part:  # the part's own table is no doubt when asked
                unsure.append(match.cell.label)  # an input read from a segment's table, another head noun, ...
            return match.cell
        return None

    working = evaluate(formula, lookup, asked)
    mixed = _mixed_periods(working) if asked is None else None
    if mixed is not None:
        # no period asked and the inputs were read for different years (this year's net income over last
        # year's assets): a ratio's terms describe one period, so all are read again for the latest one
        unsure.clear()
        again = evaluate(formula, lookup, mixed)
        working, asked = (again, mixed) if again.value is not None else (working, asked)
    if columns_of_other_measures(working):
        unsure.append(working.inputs[-1][2].label)  # the row's figures under two measures' columns
    if working.value is None or _one_number_for_two_periods(working):
        return ValueAnswer(statement="", cells=_cited(working), label_cover=0.0, period_ok=False,
                           missing=tuple(working.missing))  # fmt: skip
    return ValueAnswer(
        statement=computed_statement(question, formula, working),
        cells=_cited(working),
        label_cover=1.0,
        period_ok=asked is not None or (all(cell.periods for _, _, cell in working.inputs) and mixed is None),
        narrower=bool(unsure),
        unsure=unsure[0] if unsure else "",
    )


def _one_number_for_two_periods(working: Working) -> bool:
    """The same printed number read as an item's value in two periods: a sentence naming both years states one
    of them, and a change computed from it would be zero."""
    seen: dict[tuple[str, str, int, str], Period] = {}
    for _, period, cell in working.inputs:
        key = (cell.chunk_id, cell.label, cell.position, cell.column)
        if seen.setdefault(key, period) != period:
            return True
    return False


def _mixed_periods(working: Working) -> Period | None:
    """The latest year of a computation's inputs when they were read for different years, else None."""
    years = {p for _, _, cell in working.inputs for p in cell.periods[:1] if p.quarter is None and not p.months}
    return max(years, key=lambda p: p.year) if len(years) > 1 else None


def _never_operand(cell: Cell, phrase: str) -> bool:
    """A row that is another quantity than the input named, whatever else the evidence holds: a per-share figure
    or a percentage for an amount (dividing a total by shares, or stating it as a share of sales, changes what it
    measures), or a label qualified into another item ("Other income (loss), net" is not net income,
    "Comprehensive income" adds unrealized gains), or a count of other things than the count named. Such an input
    is missing, not read: the search goes on."""
    own = unasked_per_share(cell, phrase) or percent_unasked(cell, phrase) or qualified(cell, phrase)
    counts_other = wrong_count(counted_things(phrase), cell)  # "2.1 million shares" is no count of employees
    return own or counts_other or balance_change(cell, phrase) or stated_change(cell, phrase)  # nor a change


def _cited(working: Working) -> tuple[Cell, ...]:
    return tuple(dict.fromkeys(cell for _, _, cell in working.inputs))
