"""Superlatives over the line items a statement's total sums: "the largest liability", "the biggest expense".

A financial statement prints no column named "liability": the liabilities are the rows its "Total
liabilities" row adds up, printed above it under a heading. So a superlative whose category (the noun
after "which", or the measure after the superlative) is named by a total row is answered from the rows
that total sums, in the column of the asked period (the first column when the question names none):

- the total is the shortest total row naming every word of the category ("Total liabilities" over "Total
  liabilities and shareholders' equity");
- its rows are those printed above it on the page, back to the first boundary: a total of another
  category ("Total assets"), or a heading line; a heading naming the category ends the walk unless a
  subtotal of the category sits right above it ("Total current liabilities" over "Long-term
  liabilities:": the current ones are summed too);
- subtotals of the category are not candidates (they sum some of the others).

Where no total names the category, its rows are read under a table header naming it down to the table's
total ("Net Sales | 2041 | 2040" over segments and "Total Company"), under a caption introducing the table down
to its end ("The following table sets forth the notional amounts of ..."), or as one row naming it under each
of several group headings ("North Sound" / "Operating income", "East Quay" / "Operating income"). When the
question asks "which <kind>" of another kind than the category, a heading or caption just above the rows must
name that kind.

Pure functions over a page's evidence items and its table cells (``table_values.table_cells``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

from engine.contracts import EvidenceItem
from engine.documents.layout import has_rows
from engine.documents.text import normalize_space, stems
from engine.reading.document_units import in_table_currency
from engine.reading.extremes import GENERIC_MEASURES, ExtremeAsk, Pick, extreme_ask, named_count
from engine.reading.periods import periods_in
from engine.reading.table_rows import INTRODUCES, row_cells
from engine.reading.table_values import TOTAL_ROW, Cell, is_amount

_HEADING_MAX = 80
"""A heading line is short (a section's name, "Current liabilities:"); a longer line without figures is prose."""


MAX_EXTRA_WORDS = 1
"""How many words a total may print beside "Total" and the category ("Total other current assets"): a longer one
("Total stock-based compensation expense", "Total revenues from contracts with customers") totals a note's
breakdown of one item, not the category's line items."""
_NOT_A_CATEGORY = GENERIC_MEASURES | {"total", "totals", "overall"}
"""Words naming no kind of line item: generic measures ("the highest value"), and "total" (every total row has
it: "the highest total score" asks a column's pick, not the rows of a "Total" row)."""


@dataclass(frozen=True)
class _Line:
    """A row label (with its cells), a heading, a caption introducing a table, or another text line of the page,
    in printed order."""

    label: str
    cells: tuple[Cell, ...]
    kind: Literal["row", "heading", "caption", "text"] = "row"

    @property
    def is_heading(self) -> bool:
        return self.kind in ("heading", "caption")


def categories(ask: ExtremeAsk) -> list[tuple[str, ...]]:
    """The words that may name the category picked among: the noun after "which" ("which liability"), then
    the measure after the superlative ("the largest liability"), words naming no measure left out."""
    asked = _kind_words(ask.asked)
    measure = _kind_words(ask.measure)
    if asked and asked[-1].lower() in _PERIOD_KINDS:
        return []  # "in which year was it lowest": a pick among periods, a time series' question
    if any(w[:1].isupper() for w in measure):
        return [asked] if asked else []  # a capitalised word is a name ("the largest for Kestrel"), not a kind
    if asked and measure and asked != measure and stems(" ".join(measure)) & _STATEMENT_SECTIONS:
        return [measure]  # "which segment had the largest net sales": the rows of net sales, each a segment's
    out = [asked] if asked else []
    return [*out, measure] if measure and measure not in out else out


_PERIOD_KINDS = frozenset(("year", "years", "quarter", "quarters", "month", "months", "period", "periods", "date"))
"""Kinds of thing asked that are periods: the pick is among a row's columns, not among line items."""


def _kind_words(words: tuple[str, ...]) -> tuple[str, ...]:
    """The words of a phrase that can name a kind of line item: no generic measure, no year ("largest in 2041")."""
    return tuple(
        w
        for w in words
        if w.lower() not in _NOT_A_CATEGORY and not periods_in(w) and re.fullmatch(r"[A-Za-z][A-Za-z'’-]*", w)
    )


_STATEMENT_SECTIONS = frozenset(
    stems("asset liability expense cost revenue sale income debt equity receivable payable")
)
"""The kinds of line item a financial statement's totals sum ("Total current liabilities", "Total operating
expenses"): a superlative over one of them is searched for by that total, which finds the statement. A
superlative over another kind ("the largest region") is read only from pages retrieved anyway."""


def summed_searches(question: str) -> list[str]:
    """A search for the total of each statement category a superlative question may pick among ("total current
    liability"): the statement printing that total holds the rows to pick from, which the question's own words
    may not find."""
    ask = extreme_ask(question)
    found = categories(ask) if ask else []
    return [f"total {' '.join(c)}" for c in found if stems(c[-1]) <= _STATEMENT_SECTIONS]


def section_pick(ask: ExtremeAsk, question: str, page: Sequence[EvidenceItem], cells: Sequence[Cell]) -> Pick | None:
    """The extreme line item among the rows a total naming the category sums (module doc), else None."""
    found = ranked_section_pick(ask, question, page, cells)
    return found[1] if found else None


def ranked_section_pick(
    ask: ExtremeAsk, question: str, page: Sequence[EvidenceItem], cells: Sequence[Cell]
) -> tuple[int, Pick] | None:
    """``section_pick`` with the number of words its total prints beside "Total" and the category: 0 for the
    statement's own "Total current assets", more for a note's "Total other current assets"."""
    printed = _lines(page, cells)
    lines = [line for line in printed if line.kind != "text"]  # a statement's walks step over notes between rows
    for category in categories(ask):
        summed = _summed_rows(lines, category) or _under_header(printed, category)
        grouped = _grouped_rows(lines, category) if summed is None else None
        if summed is None and grouped is None:
            continue
        extra, rows = summed if summed is not None else (0, grouped or [])
        if not _kind_named(ask, category, printed, rows):
            continue
        among = [c for c in _in_asked_column(rows, question) if c.unit != "%"]  # a share of revenue is no item
        if len({c.label for c in among}) < 2:
            continue
        pick_max = ask.direction in ("max", "best")
        # line items a total sums compare by size (an expense may print in parentheses); one measure's rows
        # across groups compare signed (an operating loss is the lowest operating income)
        cell = (max if pick_max else min)(among, key=lambda c: c.value if grouped else abs(c.value))
        return extra, Pick(cell, tuple(among), "row", lower_better=False)
    return None


_GROUP_TOTAL = re.compile(r"^\s*(?:total|consolidated)\b", re.I)
"""A group heading that is the whole of the others ("Consolidated", "Total company"): not one of the picks."""


def _grouped_rows(lines: list[_Line], category: tuple[str, ...]) -> list[_Line] | None:
    """The row naming ``category`` under each of several headings ("North America" / "Operating income",
    "International" / "Operating income (loss)"), named by its heading; the heading of the whole left out. None
    unless two groups or more print such a row."""
    found: list[_Line] = []
    heading = ""
    for line in lines:
        if line.is_heading:
            heading = line.label
        elif heading and _names(line.label, category) and len(line.label.split()) <= len(category) + 1:
            if not _GROUP_TOTAL.match(heading) and not TOTAL_ROW.match(line.label):
                cells = tuple(replace(c, label=f"{heading}: {c.label}") for c in line.cells)
                found.append(_Line(f"{heading}: {line.label}", cells))
            heading = ""  # one row per group
    return found if len({line.label.split(":")[0] for line in found}) >= 2 else None


KIND_REACH = 4
"""How many heading, caption or text lines above a table's first row may name the kind of its rows ("Business
Segment Information" over "Net Sales | 2041 | 2040")."""


def _kind_named(ask: ExtremeAsk, category: tuple[str, ...], printed: list[_Line], rows: list[_Line]) -> bool:
    """Whether the rows are of the kind the question asks: when "which <kind>" is not the category summed ("which
    route earned the least fare revenue"), a heading, caption or line just above the rows must name that kind
    ("Information on reportable segments is as follows:"), or an income statement's revenue lines, or one
    segment's revenue breakdown, would be read as segments."""
    kind = _kind_words(ask.asked)
    if not kind or kind == category:
        return True
    first = rows[0].cells[0] if rows and rows[0].cells else None
    at = next((n for n, line in enumerate(printed) if first and line.cells and line.cells[0].quote == first.quote
               and line.cells[0].chunk_id == first.chunk_id), None)  # fmt: skip
    if at is None:
        return False
    head = stems(kind[-1])
    above = [line.label for line in printed[:at] if line.kind != "row"][-KIND_REACH:]
    return any(head <= stems(text) for text in above)


def _lines(page: Sequence[EvidenceItem], cells: Sequence[Cell]) -> list[_Line]:
    """The page's row labels with their cells and its heading lines, in printed order."""
    by_chunk: dict[str, list[Cell]] = {}
    for cell in cells:
        by_chunk.setdefault(cell.chunk_id, []).append(cell)
    lines: list[_Line] = []
    for item in page:
        placed: list[tuple[int, _Line]] = []
        text = normalize_space(item.text.replace("\n", " \n "))
        rows: dict[tuple[str, str], list[Cell]] = {}
        for cell in by_chunk.get(item.chunk_id, []):
            rows.setdefault((cell.label, cell.quote), []).append(cell)  # a label may head a row of two tables
        start = 0
        for (label, quote), row in rows.items():
            at = text.find(quote, start)
            start = at + 1 if at >= 0 else start
            placed.append((at if at >= 0 else start, _Line(label, tuple(row))))
        offset = 0
        for raw in item.text.split("\n"):
            line = normalize_space(raw)
            at = text.find(line, offset) if line else -1
            offset = at + len(line) if at >= 0 else offset
            if not line or at < 0:
                continue
            if not has_rows(line) and (INTRODUCES.search(line) or (line.endswith(":") and len(line) > _HEADING_MAX)):
                placed.append((at, _Line(line, (), "caption")))
            elif _is_heading(line, item):
                placed.append((at, _Line(line.rstrip(":"), (), "heading")))
            elif name := _header_name(line):
                placed.append((at, _Line(name, (), "heading")))
            elif not has_rows(line):
                placed.append((at, _Line(line, (), "text")))
        lines += [line for _, line in sorted(placed, key=lambda p: p[0])]
    return lines


def _header_name(line: str) -> str:
    """The first cell of a table's header row of periods ("Net Sales | 2041 | 2040" -> "Net Sales"), else ""."""
    if not has_rows(line):
        return ""
    cells = row_cells(line)
    periods = cells[1:]
    if len(cells) < 2 or re.search(r"\d", cells[0]) or not all(periods_in(c) and not is_amount(c) for c in periods):
        return ""
    return cells[0]


def _is_heading(line: str, item: EvidenceItem) -> bool:
    """A short line without figures: a section's name over the rows below it."""
    if has_rows(line) or len(line) > _HEADING_MAX or re.search(r"\d", line) or line.endswith("."):
        return False
    return item.kind == "heading" or line.endswith(":") or line[:1].isupper()


def _names(label: str, category: tuple[str, ...]) -> bool:
    return named_count(label, category) == len(category)


def _summed_rows(lines: list[_Line], category: tuple[str, ...]) -> tuple[int, list[_Line]] | None:
    """The rows the total naming ``category`` sums (module doc), with the number of words that total prints beside
    "Total" and the category (the statement's own total has none); None without such a total."""
    totals = [n for n, line in enumerate(lines) if line.cells and TOTAL_ROW.match(line.label)
              and _names(line.label, category)]  # fmt: skip
    if not totals:
        return None
    end = min(totals, key=lambda n: (len(lines[n].label.split()), n))
    extra = len(lines[end].label.split()) - 1 - len(category)
    if extra > MAX_EXTRA_WORDS:
        return None
    rows: list[_Line] = []
    n = end - 1
    while n >= 0:
        line = lines[n]
        if line.is_heading:
            above = lines[n - 1] if n else None
            subtotal_above = above is not None and TOTAL_ROW.match(above.label) and _names(above.label, category)
            if not (_names(line.label, category) and subtotal_above):
                break
        elif TOTAL_ROW.match(line.label) and not _names(line.label, category):
            heading = _own_heading(lines, n)
            if heading is None:
                break  # a total of another category ("Total assets" above the liabilities)
            rows.append(line)  # "Total inventories" under its "Inventories" heading: one item, its parts skipped
            n = heading
        elif not TOTAL_ROW.match(line.label):
            rows.append(line)  # a subtotal of the category (naming it) is skipped: its rows are summed too
        n -= 1
    return extra, _without_deductions(rows[::-1])


def _under_header(lines: list[_Line], category: tuple[str, ...]) -> tuple[int, list[_Line]] | None:
    """The rows under a heading naming ``category`` down to the first total row, which must follow them; under a
    caption introducing the table ("The following table sets forth the notional amounts of ..."), down to the
    table's end when it prints no total."""
    for n, line in enumerate(lines):
        if not line.is_heading or not _names(line.label, category):
            continue
        rows: list[_Line] = []
        extra = len(line.label.split()) - len(category)
        for below in lines[n + 1 :]:
            if below.kind == "text" and not rows and len(below.label) <= _HEADING_MAX:
                continue  # the table's scale or unit line under its caption ("(dollars in millions)")
            if below.kind != "row":
                break
            if TOTAL_ROW.match(below.label):
                return extra, _without_deductions(rows)
            rows.append(below)
        if line.kind == "caption" and len(rows) >= 2:
            return extra, _without_deductions(rows)
    return None


_PARTS_REACH = 12
"""How many lines above a total its own heading may sit: the parts of one item ("Finished goods", "Work in
process", "Raw materials" under "Inventories")."""


def _own_heading(lines: list[_Line], total: int) -> int | None:
    """Where the heading naming what the total at ``total`` adds up sits ("Inventories" over "Total inventories"),
    with no other heading or total between; else None."""
    name = stems(TOTAL_ROW.sub("", lines[total].label))
    for n in range(total - 1, max(total - 1 - _PARTS_REACH, -1), -1):
        line = lines[n]
        if line.is_heading:
            return n if name and stems(line.label) == name else None
        if TOTAL_ROW.match(line.label):
            return None
    return None


_DEDUCTION = re.compile(r"^\s*less\b", re.I)


def _without_deductions(rows: list[_Line]) -> list[_Line]:
    """The rows without a gross amount and what is deducted from it ("Property, plant and equipment" over "Less
    accumulated depreciation"): the net row under them is the item the total sums, not the gross one."""
    dropped = {n for n, line in enumerate(rows) if _DEDUCTION.match(line.label)}
    dropped |= {n - 1 for n in dropped if n}
    return [line for n, line in enumerate(rows) if n not in dropped]


def _in_asked_column(rows: list[_Line], question: str) -> list[Cell]:
    """Each row's cell of the period the question asks (a year), else of the first column printed."""
    asked = {p.year for p in periods_in(question)}
    out = []
    for line in rows:
        fits = [c for c in line.cells if asked and any(p.year in asked for p in c.periods)]
        cell = fits[0] if fits else (line.cells[0] if not asked else None)
        if cell is not None:
            out.append(cell)
    return out


def section_statement(pick: Pick, ask: ExtremeAsk) -> str:
    """ "Ticket deposits, 2041: $1,900 million (the largest of 3 line items)." """
    cell = in_table_currency(pick.cell, pick.among)
    word = "largest" if ask.direction in ("max", "best") else "smallest"
    period = f", {cell.column}" if cell.column else ""
    return f"{cell.label}{period}: {cell.display()} (the {word} of {len(pick.among)} line items)."
