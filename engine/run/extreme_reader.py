"""Superlative questions answered from a table of the strongest evidence pages, for any backend.

"Which setting gives the highest accuracy?" is answered by the table cell picked from the column whose
header names the measure (``engine.reading.extremes``), read from the same whole pages a value is read
from (``value_pages.value_pages``): both tables the table finder split into cells and tables whose
columns only the header's count separates (``engine.reading.loose_tables``) or whose column groups only
their spanning header names (``engine.reading.grouped_tables``). The answer names the picked
row (or column) and its value and cites the row. When no table of those pages names the measure, the
answer is left as it was.
"""

from __future__ import annotations

import logging

from engine.contracts import AnswerWithEvidence, Citation, EvidenceItem
from engine.contracts import CaveatKind as K
from engine.reading.extremes import ExtremeAsk, Pick, extreme_ask, pick_extreme, pick_statement
from engine.reading.grouped_tables import grouped_tables
from engine.reading.loose_tables import loose_tables
from engine.reading.option_pick import option_statement, pick_option
from engine.reading.periods import periods_in
from engine.reading.section_pick import ranked_section_pick, section_statement
from engine.reading.statement_sense import names_quarter
from engine.reading.table_lookup import lookup_cells, lookup_statement
from engine.reading.table_values import Cell, table_cells
from engine.run.evidence import RunState
from engine.run.restate import restated
from engine.run.value_pages import kept_per_page, value_pages, whole_pages

logger = logging.getLogger(__name__)

PICK_CONFIDENCE = 0.55
"""A pick is as sure as the header match that chose its column: stated, never claimed complete (a header
abbreviation may name another measure than the question's)."""


def _content(state: RunState) -> str:
    text = state.parsed.original_question
    for instruction in state.parsed.instructions:
        text = text.replace(instruction, " ")
    return " ".join(text.split())


def page_tables(state: RunState) -> list[list[Cell]]:
    """The tables of the strongest evidence pages, best page first: the loosely printed ones, then each
    page's split rows as one table; a quarter's table only for a question that asks a quarter."""
    tables: list[list[Cell]] = []
    for page in value_pages(state, None):
        tables += _loose_tables(state, page)
        split = table_cells(page)
        if split:
            tables.append(split)
    return [t for t in tables if _period_fits(t, state.parsed.original_question)]


def _loose_tables(state: RunState, page: list[EvidenceItem]) -> list[list[Cell]]:
    """The loosely printed and the column-grouped tables of one whole page, read once per page of the document."""
    index = state.layer1_index_of(page[0].doc_id) if page else None
    if index is None:
        return loose_tables(page) + grouped_tables(page)
    return list(kept_per_page(index, page, "loose_tables", lambda: loose_tables(page) + grouped_tables(page)))


def _period_fits(table: list[Cell], question: str) -> bool:
    """A table of a quarter's figures does not answer a question that asks a year's (it names a year and no
    quarter): the fourth quarter's segment sales are not the year's."""
    if not table or not periods_in(question) or names_quarter(question):
        return True
    head = table[0]
    return not names_quarter(f"{head.context} {head.column} {head.quote}")


def with_extreme(answer: AnswerWithEvidence, state: RunState) -> AnswerWithEvidence:
    """``answer`` replaced by the extreme cell of a table when the question asks for one, or by the cell of
    a paper's table at the row and column the question names (module doc)."""
    if state.top_k is not None:  # the peer baseline answers as its peers do: no table reading
        return answer
    question = _content(state)
    ask = extreme_ask(question)
    if ask is None:
        loose = [t for page in value_pages(state, None) for t in _loose_tables(state, page)]
        cells = lookup_cells(question, loose)
        logger.debug("table lookup -> %s", cells)
        return _answered(answer, lookup_statement(cells), cells) if cells else answer
    tables = page_tables(state)
    option = pick_option(ask, question, tables)
    if option is not None:  # "among A, B and C, which ...": the options' rows, the extreme of their values
        return _answered(answer, option_statement(option, ask), [c for _, c in option.among])
    if ask.comparative and any(side.doc_id for side in state.parsed.sides):
        return answer  # "which had more, A or B?" over two documents: each document's value, not one table's extreme
    summed = None if ask.comparative and len(state.parsed.sides) > 1 else _line_item_pick(ask, answer, state)
    if summed is not None:  # a kind of line item a statement's total sums ("which had more, A or B?" compares sides)
        return _answered(answer, section_statement(summed, ask), [summed.cell])
    pick = pick_extreme(ask, tables)
    logger.debug("extreme pick for %s -> %s", ask, pick)
    return _answered(answer, pick_statement(pick, ask), [pick.cell]) if pick else answer


def _line_item_pick(ask: ExtremeAsk, answer: AnswerWithEvidence, state: RunState) -> Pick | None:
    """The pick among the line items a total sums, on the page whose total names the category most closely (the
    statement's own), of the pages the answer cites (the value reader may have read the statement the category's
    total sits in) and the strongest evidence pages, each page read once."""
    question = _content(state)
    cited = whole_pages(state, list(dict.fromkeys((c.doc_id, c.page) for c in answer.citations)))
    pages = {(p[0].doc_id, p[0].page): p for p in [*cited, *value_pages(state, None)] if p}
    ranked = [(found, n) for n, page in enumerate(pages.values())
              if (found := ranked_section_pick(ask, question, page, table_cells(page)))]  # fmt: skip
    summed = min(ranked, key=lambda r: (r[0][0], r[1]))[0][1] if ranked else None
    logger.debug("line-item pick for %s -> %s", ask, summed)
    return summed


def _answered(answer: AnswerWithEvidence, text: str, cells: list[Cell]) -> AnswerWithEvidence:
    """The answer stated from table cells, their rows cited first."""
    cited = list(
        dict.fromkeys(Citation(chunk_id=c.chunk_id, doc_id=c.doc_id, page=c.page, quote=c.quote) for c in cells)
    )
    return restated(answer, text, cited, complete=False, confidence=PICK_CONFIDENCE,
                    moot=(K.UNMATCHED, K.PARTIAL_MATCH, K.VALUES_MISSING))  # fmt: skip
