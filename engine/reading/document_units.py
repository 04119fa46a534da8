"""The scale and currency a document states once and its table rows leave unsaid.

Filings print "(in millions)" and the "$" once per statement (often on the first row and the total only);
a row that prints neither is read in the scale and currency most of its document's rows state. Pure.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import replace

from engine.reading.periods import fiscal_quarter
from engine.reading.statement_sense import head_noun
from engine.reading.table_values import Cell

PER_SHARE = re.compile(
    r"\bper (?:common |ordinary |diluted |basic )?(?:share|unit)\b|\beps\b|\bratio\b|\bdays?\b", re.I
)
"""Rows whose amounts are not in the statement's scale ("except per share data")."""

COUNT_ROW = re.compile(
    r"\bshares\b|\bemployees\b|\bheadcount\b|\bnumber of\b|\bstores\b|\bunits\b|\bsquare (?:feet|foot|metres?)\b|"
    r"\bcustomers\b|\bsubscribers\b|\bmembers\b|\blocations\b|\bpeople\b",
    re.I,
)
"""Rows that count things ("Weighted average shares outstanding", "Number of stores"): in their own table's
scale (millions of shares), never in the document's money scale nor its currency."""
_MONEY_HEAD = re.compile(
    r"^(?:sales|revenues?|income|earnings|costs?|expenses?|dividends?|payments?|proceeds|repurchases?|purchases?)$",
    re.I,
)
"""Head nouns of money: a row that names the things counted only after its head ("Sales to customers", "Proceeds
from issuance of shares") is an amount of money, not a count."""


def _most_common(cells: list[Cell], field: str, keep: object) -> dict[str, str]:
    counts: dict[str, Counter[str]] = {}
    for cell in cells:
        value = getattr(cell, field)
        if cell.is_row and value and keep(value):  # type: ignore[operator]
            counts.setdefault(cell.doc_id, Counter())[value] += 1
    return {doc: count.most_common(1)[0][0] for doc, count in counts.items()}


def with_document_scale(cells: list[Cell]) -> list[Cell]:
    """A table row with no scale of its own takes the scale most of its document's tables state (a page may
    lose its caption), and a row with no currency the currency most of its rows print ("Cost of sales |
    16,682" under "Net sales | $ 32,765"): except per-share amounts, ratios, percentages and counts (a table
    of store counts with no caption is not in millions)."""
    scales = _most_common(cells, "scale", lambda _: True)
    currencies = _most_common(cells, "unit", lambda unit: unit != "%")
    out = []
    for cell in cells:
        counts = bool(cell.measure) or (
            bool(COUNT_ROW.search(cell.label)) and not _MONEY_HEAD.search(head_noun(cell.label))
        )
        if cell.is_row and cell.unit != "%" and not PER_SHARE.search(cell.label):
            if not cell.scale and not counts and cell.doc_id in scales:
                cell = replace(cell, scale=scales[cell.doc_id])  # a count is in its own table's unit, if any
            if not cell.unit and not counts and cell.scale and cell.doc_id in currencies:
                cell = replace(cell, unit=currencies[cell.doc_id])
        out.append(cell)
    return out


def in_fiscal_quarters(cells: list[Cell], end_months: Mapping[str, int | None]) -> list[Cell]:
    """A "three months ended <date>" column read as the fiscal quarter it is, in a document whose fiscal
    year ends in a known month (``end_months`` by document): "Q2 2024" can then be asked for."""
    out = []
    for cell in cells:
        end = end_months.get(cell.doc_id)
        quarter = fiscal_quarter(cell.column, end) if end and cell.is_row else None
        out.append(replace(cell, periods=(quarter,)) if quarter else cell)
    return out
