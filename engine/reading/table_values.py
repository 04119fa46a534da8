"""Values read from evidence: numbers with their label, column, period, unit and scale.

A table row ("Purchases of property, plant and equipment | (1,577) | (1,373) | (1,420)") is read
with its header row ("(Millions) | 2018 | 2017 | 2016"): each numeric cell becomes a ``Cell`` whose
column names its period and whose scale comes from the header or the table's caption ("in
millions"). A sentence that states a number ("capital spending was $1.6 billion in 2018") yields a
cell too, with the sentence as its label. Pure functions: no I/O, no engine state.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from engine.contracts import EvidenceItem
from engine.documents.layout import has_rows
from engine.documents.text import normalize_space, stems
from engine.reading.below_captions import BelowCaption
from engine.reading.brackets import GROUP_LINE, in_group, is_bracket
from engine.reading.header_rows import BOUND, is_header
from engine.reading.leader_rows import leader_figure
from engine.reading.measures import UNITS_AFTER_NUMBER
from engine.reading.paired_rows import paired_lines
from engine.reading.periods import YEAR, Period, periods_in, span_headers, with_spans
from engine.reading.spanned_rows import spanned_row
from engine.reading.statement_sense import percent_caption, percent_column, summary_kind
from engine.reading.symbol_columns import split_symbols
from engine.reading.table_groups import grouped_names, measure_groups, named_groups, period_groups
from engine.reading.table_rows import INTRODUCES as _INTRODUCES
from engine.reading.table_rows import (
    PER_SHARE_LABEL,
    PER_UNIT_LABEL,
    TABLE_CAPTION,
    TableState,
    cell_lines_end,
    dated_years,
    footnoted,
    label_year,
    measure_headings,
    name_line,
    peeled,
    period_columns,
    period_led_columns,
    read_under,
    repeated_columns,
    row_cells,
    split_run_together,
    title_of,
    unsplit_line,
    value_columns,
    value_offset,
    word_columns,
    wrapped_change_columns,
)

_AFTER_NUMBER = "|".join(
    f"(?-i:{re.escape(unit)})" if len(unit) == 1 else re.escape(unit)  # "g", "W", "V" only as SI prints them
    for unit in sorted(UNITS_AFTER_NUMBER, key=len, reverse=True)
)
NUMBER = re.compile(
    r"(?:(?P<lead>[$€£¥])\s?(?=\())?(?P<neg>\(|-|−|–)?\s?(?P<cur>[$€£¥₹]|(?<![A-Za-z])(?-i:Rs)\.?(?=\s?\d))?\s?(?P<num>\d{1,2}(?:,\d{2})+,\d{3}(?:\.\d+)?|\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|(?<![A-Za-z])\.\d+)\s?"
    r"(?P<close>\))?\s?(?P<pct>%|percent\b)?(?:\s?(?P<word>thousand|million|billion|trillion|bn|mn)\b)?"
    rf"(?:\s?(?P<measure>(?:{_AFTER_NUMBER})(?![\w/])))?",
    re.I,
)
"""A number with its sign, currency, percent, scale word and measurement unit ("38 min", "1.2 kg",
"$1.6 billion", "(1,577)"): units of measure, time and count that documents print after numbers. Digits may be
grouped in thousands ("4,000,000") or, as Indian documents print them, in lakhs and crores ("40,00,000")."""
_SCALE = re.compile(
    r"\(\s*(?:in\s+|amounts?\s+in\s+|dollars\s+in\s+|\$\s*in\s+|€\s*in\s+|US\$\s*in\s+)?(?P<a>thousands|millions|billions)\b"
    r"|\bin\s+(?P<b>thousands|millions|billions)\b|\(\s*\$\s*(?P<c>000s?|000,000)\s*\)"
    r"|\(\s*(?:in\s+)?(?:US|A|C)?[$€£]\s*(?P<d>thousand|million|billion)s?\s*\)",  # "($ million)", "(€ million)"
    re.I,
)
_SCALE_WORD = {"thousands": "thousand", "millions": "million", "billions": "billion", "000": "thousand",
               "000s": "thousand", "000,000": "million", "bn": "billion", "mn": "million"}  # fmt: skip
_DECIMALS = re.compile(r"(?<=\d)\.(\d+)")  # "Rs.4,00,000": the currency's dot is no decimal point
SCALE_FACTOR = {"": 1.0, "thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}


@dataclass(frozen=True)
class Cell:
    """One number in the evidence with what it measures."""

    chunk_id: str
    doc_id: str
    page: int
    label: str
    """The row label, or the whole sentence for a number stated in prose."""
    column: str
    """The header cell of the number's column ("2018"); empty for prose."""
    raw: str
    """The number as printed: "(1,577)", "$ 5,363", "23.5%"."""
    value: float
    """Signed value in the printed scale: "(1,577)" -> -1577.0."""
    scale: str
    """"", "thousand", "million" or "billion": the unit the table or sentence states."""
    unit: str
    """"$", "€", "%" or ""."""
    periods: tuple[Period, ...]
    quote: str
    """The row or sentence, as it occurs in the chunk (whitespace-normalised)."""
    is_row: bool
    measure: str = ""
    """The unit of measure printed after the number ("min", "kg", "metres"), if any."""
    context: str = ""
    """The section the number sits in (its chunk's section title), for entity focus."""
    position: int = -1
    """Where the number starts in its sentence (prose only), to tell which of a sentence's numbers is meant."""
    bound: str = ""
    """The word a table cell prints before an approximate or bounding number ("about", "under"), if any."""
    caption: str = ""
    """The numbered caption of the row's table ("Table 4: Stops per hundred hours"): what its values measure."""
    bare: bool = False
    """A bare number in prose followed by what it counts ("64 survey flights"): only a count question reads it."""
    lead: str = ""
    """The sentence leading the list whose item states the number ("we had 412 staff, including:" over "• 96 …")."""

    @property
    def scaled(self) -> float:
        """The value in units ("1,577" in millions -> 1.577e9); percentages stay as they are."""
        return self.value if self.unit == "%" else self.value * SCALE_FACTOR.get(self.scale, 1.0)

    def display(self) -> str:
        """ "$1,577 million", "23.5%", "93,516"."""
        decimals = match.group(1) if (match := _DECIMALS.search(self.raw)) else ""
        number = f"{abs(self.value):,.{len(decimals)}f}"
        sign = "-" if self.value < 0 else ""
        if self.unit == "%":
            return f"{sign}{number}%"
        scale = f" {self.scale}" if self.scale else ""
        measure = f" {self.measure}" if self.measure else ""
        bound = f"{self.bound} " if self.bound else ""
        return f"{bound}{sign}{self.unit}{number}{scale}{measure}"


def measure_of(text: str) -> str:
    """The unit of measure of the first number in ``text`` ("38 min" -> "min"), else ""."""
    m = NUMBER.search(text)
    return (m.group("measure") or "") if m else ""


def parse_number(text: str) -> tuple[float, str, str, str] | None:
    """(value, currency or %, scale word, matched text) of the first number in ``text``, else None."""
    m = NUMBER.search(text)
    if m is None:
        return None
    value = float(m.group("num").replace(",", ""))
    negative = (m.group("neg") == "(" and m.group("close")) or m.group("neg") in ("-", "−", "–")
    unit = "%" if m.group("pct") else (m.group("cur") or m.group("lead") or "")  # "$ (1,577)" is in dollars
    scale = _SCALE_WORD.get((m.group("word") or "").lower(), (m.group("word") or "").lower())
    return (-value if negative else value), unit, scale, m.group(0).strip()


def table_scale(text: str) -> str:
    """The scale a table states ("(in millions, except per share data)", "(Millions)"), else ""."""
    m = _SCALE.search(text)
    word = next((g for g in m.groups() if g), "").lower() if m else ""
    return _SCALE_WORD.get(word, word if word in SCALE_FACTOR else "")  # "($ million)": singular after a currency


# --------------------------------------------------------------------------------------------
# Reading tables and sentences
# --------------------------------------------------------------------------------------------


@lru_cache(maxsize=65_536)
def is_amount(cell: str) -> bool:
    """A cell holding a number that is not just a year. Kept per cell text: a document's tables print the same
    figures and labels again and again."""
    return bool(_DIGIT.search(_YEAR_WORD.sub("", cell)))


_YEAR_WORD = re.compile(rf"\b{YEAR}\b")
_DIGIT = re.compile(r"\d")


TOTAL_ROW = re.compile(r"^\s*total\b", re.I)
"""A table's total row ("Total", "Total Company", "Total net sales"): the sum of the rows above it."""
STATEMENT_TITLE = re.compile(
    r"\b(?:statements? of (?:consolidated )?(?:operations|income|earnings|cash flows?|financial position|"
    r"comprehensive (?:income|loss)|changes in (?:stockholders|shareholders)|equity)|balance sheets?)\b",
    re.I,
)
"""The titles of the primary financial statements, where a filing's audited figures are printed."""


ROW_GROUP_WORDS = 3
"""A heading of a few words inside a table names a group of its rows ("Baselines", "Our models"), not a new table."""


def table_cells(items: Sequence[EvidenceItem]) -> list[Cell]:
    """Every numeric cell of the table rows of one page, its chunks given in reading order.

    A row is read with the nearest header row above it on the page, else with the years the lines
    above it name (one per value cell, left to right); the scale comes from the nearest caption
    ("amounts in millions"), header cell "(Millions)" or section title.
    """
    cells: list[Cell] = []
    state = TableState()
    texts = [[normalize_space(x) for x in item.text.split("\n") if x.strip()] for item in items]
    flat = [line for lines in texts for line in lines]
    end = cell_lines_end(flat)  # the lines after the last that may be a row with a number give no cell
    measures, k = measure_headings(flat) if end else {}, 0
    below, group = BelowCaption(), ""
    for n, (item, lines) in enumerate(zip(items, texts, strict=True)):
        if k >= end:
            break
        if n and item.page != items[n - 1].page:
            # a partial table's title ("... for the Guarantor Group") and a table's caption end with its page
            state.title = state.caption = ""
        state.scale = table_scale(" ".join(item.section_path[-1:])) or state.scale
        for line in lines[: end - k]:
            line = unsplit_line(line, state) if not has_rows(line) else line
            state.measure, k = measures.get(k, ""), k + 1
            if has_rows(line):
                before = len(cells)
                cells += [cell for row in paired_lines(line) for cell in _read_row(item, row, state)]
                below.rows_read(before, state)
                cells[before:] = [replace(c, label=in_group(c.label, group)) for c in cells[before:]]
                state.pending = ""
            else:
                state.title_line = title if (title := title_of(line)) is not None else state.title_line
                group = line if GROUP_LINE.fullmatch(line) else ""
                _read_caption(line, state)
                if (under := below.caption_under(line)) is not None:
                    _caption_rows(cells, *under)
                    state.caption = ""  # the rows over it were its table: the next table is not
                names = name_line(line) if item.kind != "heading" else None
                # a short heading between the names and the rows labels a group of rows ("LLM"): the names stay
                kept = state.names if item.kind == "heading" and len(line.split()) <= ROW_GROUP_WORDS else None
                state.above, state.names = None, grouped_names(state.above, names) or names or kept
                state.pending = line if len(line) <= 100 and not line.endswith((".", ":")) else ""
    if end < len(flat) and (under := below.caption_under(flat[end])) is not None:
        _caption_rows(cells, *under)  # the caption under the page's last table follows its last row
    return cells


def _caption_rows(cells: list[Cell], start: int, caption: str) -> None:
    """Give the cells from ``start`` on (in place) the caption printed under their rows."""
    cells[start:] = [replace(c, caption=caption) for c in cells[start:]]


def _read_caption(line: str, state: TableState) -> None:
    state.caption = caption.group("caption") if (caption := TABLE_CAPTION.search(line)) else state.caption
    scale = table_scale(line)  # a scale caption ("in millions, except per share data") heads no per-share rows
    heading = line.endswith(":") or (PER_SHARE_LABEL.search(line) and not scale and not re.search(r"\d|\.$", line))
    state.parent = line.rstrip(": ") if heading and len(line) <= 80 else ""
    state.scale, state.served = (scale, False) if scale else (state.scale, state.served)
    if (len(line) <= 100 or _INTRODUCES.search(line)) and (STATEMENT_TITLE.search(line) or summary_kind(line)):
        state.title = line  # a statement's title, or a partial table's ("Balance Sheet for Obligor Group")
    if len(line) <= 100 and (scale or percent_caption(line) or STATEMENT_TITLE.search(line)):
        state.percent = percent_caption(line)  # a caption starts a table: of percentages, or of amounts
    lead = re.match(rf"^({YEAR})\b", line)
    if lead and len(line) > 120 and state.years and not state.in_rows:
        state.years.append(lead.group(1))  # a date header wrapped onto the first (long) line of the table
        return
    _note_spans(span_headers(line), state)
    years = dated_years(state.pending, line, [str(p.year) for p in periods_in(line) if p.quarter is None])
    if not years or len(line) > 120:
        return
    if state.in_rows:
        state.spans = None  # rows were read: a new table begins
    if state.in_rows or state.years is None:
        state.years, state.in_rows = [], False
    state.years += years


def _note_spans(spans: list[str], state: TableState) -> None:
    """A header line of spans starts the header of a new table whose year columns they cover."""
    if not spans:
        return
    if state.in_rows:
        state.years, state.in_rows = [], False
    state.spans = spans


def _read_row(item: EvidenceItem, line: str, state: TableState) -> list[Cell]:
    row = row_cells(line)
    if is_header(row):
        # "Net sales | Operating income" over "2023 | 2022 | 2023 | 2022"; "Lakes | Rivers" over "P R P R"
        measured = measure_groups(state.above, row) or named_groups(state.above, row) or period_groups(state.above, row)
        continued = (
            not measured and not state.in_rows and state.above is not None and not any(periods_in(c) for c in row)
        )
        if continued and value_columns(state) > len(row) - 1:
            return []  # the header's second line ("Salary and | Fees" under five names): the columns stay named
        if state.in_rows:
            state.spans = None  # a new table's header
        _note_spans(span_headers(line), state)
        # a caption read since the last rows still speaks for this header ("(Percent of net sales)" above it)
        state.percent = percent_caption(row[0]) or (state.percent and not state.in_rows)
        if measured is None and all(periods_in(c) for c in row):  # every cell a period: period groups, no label
            state.groups = row
        elif state.in_rows or not state.groups or measured:
            state.groups = None  # a new table's header, not the sub-columns under a row of period groups
        header = split_symbols(split_run_together(measured or row))  # "$ %" heads a change's two columns
        if state.above is None or state.title_line:  # a header's own later line keeps the title over its first
            state.header_title, state.title_line = state.title_line, ""
        new_table = state.served and header != state.header  # a continuation repeats its table's header
        state.header, state.years, state.in_rows, state.above, state.names = header, None, False, row, None
        state.spanning = None
        state.scale = table_scale(row[0]) or ("" if new_table else state.scale)
        state.served = state.served and not new_table
        return []
    state.above, state.served = None, True
    columns_known = value_columns(state)  # the header's columns, else the years the lines above name
    row = peeled(row, columns_known) if state.names or columns_known else row
    row, row_period = spanned_row(row, state)  # "2040 | 398,000" under "Dana Okafor | 2041 | 412,000"
    row = leader_figure(row)  # "Gross margin. . . . 1,118 | 1,577": the first figure glued to its label's leaders
    values = row[1:]
    amounts = sum(1 for v in values if is_amount(v))
    if state.pending and (not row[0] or row[0][0].islower()):
        # a label cut by a line wrap ("... included in Other" / "income, net | (881)"), or printed on the line
        # above its numbers: the row is the whole label's, never the fragment's ("income, net" is no net income)
        row = [f"{state.pending} {row[0]}".strip(), *values]
    wrapped = re.match(rf"^({YEAR})\s+(\S.*)$", row[0])
    if wrapped and not state.in_rows and state.years is not None and len(state.years) + 1 == amounts:
        # a date header wrapped onto the first row ("November 29," / "2013 Cash flows from ...")
        state.years.append(wrapped.group(1))
        row = [wrapped.group(2), *values]
    state.in_rows = True
    if state.parent and read_under(state.parent, row[0]):
        # "Diluted" under "Earnings per common share:"; any row under "Basic Earnings Per Common Share" (a
        # heading without a colon whose rows repeat "Net income attributable to ..."): a per-share figure
        row = [f"{state.parent}: {row[0]}", *row[1:]]
    elif len(row[0].split()) > 2:
        state.parent = ""  # a full label: the heading's parts are over
    groups = state.groups
    if groups and amounts and amounts % len(groups) == 0 and not any(periods_in(c) for c in state.header or []):
        # sub-columns ("EBITDA | EBIT | Net income") under each period group: a value's period is its group's
        columns = [groups[n * len(groups) // amounts] for n in range(amounts)]
        values = [v for v in values if is_amount(v)]
        row = [row[0], *values]
    elif state.names and len(state.names) == len(values):
        columns = state.names  # names printed over the rows without cell breaks, newer than any header row
    elif state.header is not None and (led := period_led_columns(state.header, len(values))) is not None:
        columns = led
    elif state.header is not None and (by_period := period_columns(state.header, len(values))) is not None:
        columns = by_period  # a margin's one value per period under a header with change columns
    elif state.header is not None and (changed := wrapped_change_columns(state.header, values)) is not None:
        columns = changed
    elif state.header is not None and len(state.header) >= len(values):
        columns = state.header[len(state.header) - len(values) :]  # right-aligned: the label column may be blank
    elif state.years and len(state.years) == amounts:
        columns = list(state.years)
    elif state.header is not None and (words := word_columns(state.header, len(values))) is not None:
        columns = words
    else:
        columns = []
    columns = with_spans(columns, state.spans)
    if state.measure and not stems(state.measure) <= stems(row[0]):  # "Pet Ferries" under "Net sales:"
        columns = [f"{state.measure} {c}".strip() for c in columns]
    cells = _cells_of_row(item, line, row, columns, state.scale, state.title, state.percent, row_period)
    caption = state.caption or state.header_title  # a numbered caption, else the title line over the header
    return [replace(c, caption=caption) for c in cells] if caption else cells


def _cells_of_row(
    item: EvidenceItem,
    line: str,
    row: list[str],
    columns: list[str],
    scale: str,
    title: str = "",
    percent: bool = False,
    period: tuple[Period, ...] = (),
) -> list[Cell]:
    """The numeric cells of one row; ``percent``: the table's caption says its figures are percentages;
    ``period``: the year the row prints in a cell of its own, for columns that name none."""
    label, values = footnoted(re.sub(r"[\s.·…_]{3,}$", "", row[0])), row[1:]  # no dot leaders ("Total assets....")
    if not label or (is_amount(label) and not re.search(r"[A-Za-z]{3}", label) and not is_bracket(label)):
        return []  # a row of figures with no label; a bracket ("65-69", "$75,000+") labels its row
    offset, repeated = value_offset(columns, values), repeated_columns(columns)
    found: list[Cell] = []
    for n, raw in enumerate(values):
        parsed = parse_number(raw)
        if parsed is None or not is_amount(raw):
            continue
        value, unit, word, text = parsed
        column = columns[n + offset] if 0 <= n + offset < len(columns) else ""
        bound = BOUND.match(raw.strip())
        if unit == "" and not word and (percent or percent_column(column) or label.lstrip().startswith("%")):
            unit = (
                "%"  # a share of sales or a change ("% growth" rows too), printed without its % sign: never an amount
            )
        found.append(
            Cell(
                chunk_id=item.chunk_id, doc_id=item.doc_id, page=item.page, label=label, column=column, raw=text,
                value=value, scale=word or ("" if unit == "%" or PER_UNIT_LABEL.search(label) else scale), unit=unit,
                periods=() if column in repeated else periods_in(column) or period or label_year(label), quote=line, is_row=True,
                measure=measure_of(raw),
                context=" ".join([*item.section_path, *([title] if title else [])]),
                bound=bound.group("bound").lower() if bound else "",
            )
        )  # fmt: skip
    return found
