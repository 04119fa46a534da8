"""The scale and currency a document states once and its table rows leave unsaid.

Filings print "(in millions)" and the "$" once per statement (often on the first row and the total only);
a row that prints neither is read in the scale and currency most of its document's rows state. Pure.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import lru_cache

from engine.reading.periods import fiscal_instant, fiscal_quarter
from engine.reading.statement_sense import head_noun
from engine.reading.table_rows import PER_UNIT_LABEL
from engine.reading.table_values import Cell

COUNT_ROW = re.compile(
    r"\bshares\b|\bemployees\b|\bheadcount\b|\bnumber of\b|\bstores\b|\bunits\b|\bsquare (?:feet|foot|metres?)\b|"
    r"\bcustomers\b|\bsubscribers\b|\bmembers\b|\blocations\b|\bpeople\b|\bmemberships\b|\bsubscriptions\b|"
    r"\baccounts\b|\busers\b|\bhouseholds\b|\bconnections\b|\bvehicles\b|\bdeliveries\b|\borders\b|"
    r"\bpatients\b|\bstudents\b|\brestaurants\b|\bbranches\b|\brooms\b|\bbeds\b",
    re.I,
)
"""Rows that count things ("Weighted average shares outstanding", "Number of stores", "Paid memberships at end of
period", "Aircraft deliveries"): the people, places and items an operating-data table counts. In their own
table's scale (thousands of memberships), never in the document's currency."""
_MONEY_HEAD = re.compile(
    r"^(?:sales|revenues?|income|earnings|costs?|expenses?|dividends?|payments?|proceeds|repurchases?|purchases?)$",
    re.I,
)
"""Head nouns of money: a row that names the things counted only after its head ("Sales to customers", "Proceeds
from issuance of shares") is an amount of money, not a count."""


def _most_common(counts: dict[str, Counter[str]]) -> dict[str, str]:
    return {doc: count.most_common(1)[0][0] for doc, count in counts.items()}


Stated = tuple[dict[str, str], dict[str, str]]
"""(scale, currency) most rows of each document state, by document id."""


SCALE_PAGES = 2
"""Pages on which a document's tables must state a scale for it to be the document's: a filing states "(in millions)"
over every statement and note, while one table in millions in a proxy statement says nothing of its compensation
tables, which print whole dollars and state no scale."""


def stated_units(cells: list[Cell]) -> Stated:
    """The scale most of each document's table rows state (of those stated on ``SCALE_PAGES`` pages or more), and
    the currency most of them print (of a tie, the one printed first). Counted in one pass: a value question counts
    every table row of its documents."""
    scales: dict[str, Counter[str]] = {}
    pages: dict[tuple[str, str], set[int]] = {}
    currencies: dict[str, Counter[str]] = {}
    for cell in cells:
        if cell.is_row:
            if cell.scale:
                scales.setdefault(cell.doc_id, Counter())[cell.scale] += 1
                pages.setdefault((cell.doc_id, cell.scale), set()).add(cell.page)
            if cell.unit and cell.unit != "%":
                currencies.setdefault(cell.doc_id, Counter())[cell.unit] += 1
    for doc, counted in scales.items():
        for scale in [s for s in counted if len(pages[(doc, s)]) < SCALE_PAGES]:
            del counted[scale]
    return _most_common({doc: counted for doc, counted in scales.items() if counted}), _most_common(currencies)


WHOLE_UNITS = re.compile(r"\(\s*([$€£¥])\s*\)")
"""A column header stating its currency alone in parentheses ("Total ($)"): figures in whole units of it."""


def with_document_scale(cells: list[Cell], stated: Stated | None = None) -> list[Cell]:
    """A table row with no scale of its own takes the scale most of its document's tables state (a page may
    lose its caption), and a row with no currency the currency most of its rows print ("Cost of sales |
    16,682" under "Net sales | $ 32,765"): except per-share amounts, ratios, percentages and counts (a table
    of store counts with no caption is not in millions). ``stated``: the documents' units, when they were
    counted over more cells than these (default: counted over ``cells``)."""
    scales, currencies = stated or stated_units(cells)
    return [in_units(cell, scales.get(cell.doc_id, ""), currencies.get(cell.doc_id, "")) for cell in cells]


def in_units(cell: Cell, scale: str, currency: str) -> Cell:
    """``cell`` read in its document's ``scale`` and ``currency`` ("" when the document states none)."""
    if not cell.is_row or cell.unit == "%":
        return cell
    counted, per_share = _label_kind(cell.label)
    counts = bool(cell.measure) or counted or _label_kind(cell.column)[0]  # "Harbour North" under "Boats Launched"
    whole = WHOLE_UNITS.search(cell.column)
    if whole and not cell.scale:
        # "Salary ($)", "Retainer ($)": the column states its unit, whole dollars; a proxy
        # statement's compensation table is never in the millions its financial tables are
        return cell if cell.unit else replace(cell, unit=whole.group(1))
    if not per_share:
        if not cell.scale and not counts and scale:
            cell = replace(cell, scale=scale)  # a count is in its own table's unit, if any
        if not cell.unit and not counts and cell.scale and currency:
            cell = replace(cell, unit=currency)
    return cell


@lru_cache(maxsize=65_536)
def _label_kind(label: str) -> tuple[bool, bool]:
    """(the row counts things, the row is per share or a ratio) of a row label. Kept per label: a document's
    table rows are read again by every value question about it, and their labels repeat across periods."""
    counted = bool(COUNT_ROW.search(label)) and not _MONEY_HEAD.search(head_noun(label))
    return counted, bool(PER_UNIT_LABEL.search(label))


def in_fiscal_quarters(cells: list[Cell], end_months: Mapping[str, int | None]) -> list[Cell]:
    """A "three months ended <date>" column read as the fiscal quarter it is, and a balance sheet's date column as
    the fiscal quarter (and year) it closes, in a document whose fiscal year ends in a known month (``end_months``
    by document): "Q2 2024" can then be asked for."""
    out = []
    for cell in cells:
        end = end_months.get(cell.doc_id)
        quarter = fiscal_quarter(cell.column, end) if end and cell.is_row else None
        instant = fiscal_instant(cell.column, end) if end and cell.is_row and not quarter else ()
        out.append(  # the fiscal quarter first, the calendar span printed kept ("three months ended July 29, 2041")
            replace(cell, periods=(quarter, *cell.periods))
            if quarter
            else replace(cell, periods=instant)
            if instant
            else cell
        )
    return out


def in_table_currency(cell: Cell, table: Sequence[Cell]) -> Cell:
    """``cell`` with the currency its table prints on another row of the same scale (a statement prints "$" on a
    section's first row and its total only: "$ 6,021" over "4,796"), when it prints none; else as it is."""
    if cell.unit or cell.measure or COUNT_ROW.search(cell.label) or PER_UNIT_LABEL.search(cell.label):
        return cell
    currency = next((c.unit for c in table if c.unit not in ("", "%") and c.scale == cell.scale), "")
    return replace(cell, unit=currency) if currency else cell
