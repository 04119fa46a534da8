"""How a table's rows meet its columns where the layout reader lost the grid: a row printed as plain text (a label
then as many amounts as the table has period columns), a header led by the period over entity columns. Pure."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from engine.documents.layout import FOOTNOTE_MARK, ROW_SEPARATOR, is_figure
from engine.documents.text import STOPWORDS, split_sentences
from engine.reading.periods import YEAR, Period, periods_in

AMOUNT = r"\$?\s?\(?\s?[-−–]?\d[\d,]*(?:\.\d+)?\s?\)?\s?%?"
"""A printed amount: a sign, a currency, parentheses and a percent sign may stand around its digits."""
_UNSPLIT = re.compile(
    rf"^(?P<label>[A-Za-z][^|]{{1,80}}?[A-Za-z)\]:,])(?:\s?[.·…_]{{3,}})?\s+(?P<amounts>{AMOUNT}(?:\s+{AMOUNT})+)\s*$"
)
"""A label (words, ending in a letter, a parenthesis or a colon; dot leaders may follow it) then two or more
amounts, nothing else."""
_ONE = re.compile(AMOUNT)
_DIGIT = re.compile(r"\d")


def cell_lines_end(lines: Sequence[str]) -> int:
    """How many of a page's lines a reader of its table cells must read: up to the last line that may be a row
    holding a number (a row, or a line :func:`unsplit_row` may make one; a cell's value is a number printed in
    its row). The lines after it only set up tables whose rows never come, so reading them changes no cell."""
    for n in range(len(lines) - 1, -1, -1):
        line = lines[n]
        if _DIGIT.search(line) and (ROW_SEPARATOR in line or _UNSPLIT.match(line.strip())):
            return n + 1
    return 0


def unsplit_row(line: str, columns: int) -> str | None:
    """``line`` as a table row (cells joined by the row separator) when it is a label followed by exactly
    ``columns`` amounts, the number of value columns of the table it sits in; else None. The layout reader
    keeps a row's cells apart only where it sees column gaps: a row printed with narrow gaps comes out as one
    line of text, and its figures belong to the table's columns all the same. Requiring the table's own count
    keeps a sentence that ends in numbers from being read as a row."""
    m = _UNSPLIT.match(line.strip())
    if m is None or columns < 2:
        return None
    amounts = [a.group(0).strip() for a in _ONE.finditer(m.group("amounts"))]
    if len(amounts) != columns or any(re.fullmatch(r"(?:19|20)\d\d", a) for a in amounts):
        return None  # a line of years is a header, not a row
    return ROW_SEPARATOR.join([m.group("label").strip(), *amounts])


def period_led_columns(header: list[str], values: int) -> list[str] | None:
    """The columns of a header whose first cell is the table's period and whose others name entities ("2022 |
    Consumer | Business" over segment figures), else None. The period heads the label column and holds for
    every column: each value's column is its entity in that period ("2022 Consumer"), left to right; a value
    beyond the named columns (a total whose header wrapped onto the lines below) has no column of its own."""
    lead, names = (header[0].strip(), header[1:]) if header else ("", [])
    if not names or len(lead) > 20 or not periods_in(lead) or any(periods_in(name) for name in names):
        return None
    columns = [f"{lead} {name}" for name in names][:values]
    return columns + [""] * (values - len(columns))


_FOOTNOTE = re.compile(f"{FOOTNOTE_MARK}$")
"""A footnote marker ending a row label: "Total assets(b)", "Total Operating Revenues(2)", "Other (1)", "Revenue*"."""


def footnoted(label: str) -> str:
    """A row label without its footnote marker: the marker points to a note below the table, it names nothing,
    and left on it makes "Total assets(b)" another label than the "Total assets" asked."""
    return _FOOTNOTE.sub("", label) or label


INTRODUCES = re.compile(r"\bthe following tables?\b|\bas follows:?\s*$|\bare summari[sz]ed below\b", re.I)
"""A long sentence that introduces the table under it ("The following table presents information on assets and
liabilities related to VIEs ..."): its words say whose figures the table prints, as a short caption would."""


_MONTH_DAY = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2},?"
_ENDS_IN_DATE = re.compile(rf"\b({_MONTH_DAY})\s*$", re.I)


def dated_years(previous: str, line: str, years: list[str]) -> list[str]:
    """The year columns a header line names, each with the month and day printed before it ("December 31, 2022"),
    on this line or, for a line's first year, ending the line above ("July 2," over "2023 December 31,
    2022"): a balance sheet's date says which fiscal quarter closes there, the bare year does not."""
    out = []
    for n, year in enumerate(years):
        here = re.search(rf"\b({_MONTH_DAY})\s*{year}\b", line, re.I)
        above = _ENDS_IN_DATE.search(previous) if n == 0 and line.lstrip().startswith(year) else None
        date = here or above
        out.append(f"{date.group(1)} {year}" if date else year)
    return out


def repeated_columns(columns: list[str]) -> set[str]:
    """Column headers a header prints more than once ("2023 | 2022 | 2023 | 2022" whose spans, the quarter's and
    the year's, were lost): a figure under one of them may be either period's, so none is read for a period."""
    named = [c for c in columns if c.strip()]
    return {c for c in named if named.count(c) > 1}


_COLUMN_LABEL = re.compile(r"(?:(?:fiscal|fy)\s*(?:year\s+)?)?(?:19|20)\d{2}|%\s*change|\$\s*change|\bchange\b", re.I)
"""The labels of a header's columns when the text layer runs them into one cell: periods and change columns."""


def split_run_together(header: list[str]) -> list[str]:
    """A header whose column labels the text layer ran into one cell ("FISCAL 2023 FISCAL 2022 % CHANGE") with
    each label a column of its own; a cell that holds anything but such labels is left whole."""
    out = header[:1]
    for cell in header[1:]:
        labels = [" ".join(m.group(0).split()) for m in _COLUMN_LABEL.finditer(cell)]
        if len(labels) >= 2 and not re.search(r"[A-Za-z0-9]", _COLUMN_LABEL.sub(" ", cell)):
            out += labels
        else:
            out.append(cell)
    return out


def word_columns(header: list[str], values: int) -> list[str] | None:
    """The columns of a header whose one-word labels the text layer ran into fewer cells than the row has values
    ("Test run | Hours Stops Faults" over "Kestrel | 412 9 2"): each word heads one value, left to right, when
    the words are exactly as many as the values; else None."""
    words = name_line(" ".join(header[1:]))
    return words if words is not None and len(header) - 1 < values == len(words) else None


def period_columns(header: list[str], values: int) -> list[str] | None:
    """A row printing one value per period under a header that also has change columns ("2023 | 2022 | %
    Change" over a margin's "43.5% | 46.0%"): its values are the periods', left to right; else None."""
    periods = [c for c in header[1:] if periods_in(c)]
    return periods if 2 <= len(periods) == values < len(header) - 1 else None


def wrapped_change_columns(header: list[str], values: list[str]) -> list[str] | None:
    """A row printing one value per period and then a percentage, under a header of periods only ("2022 | 2021 |
    2020" over "4,968 | 4,321 | 3,591 | 15 %"): the header's change column ("% Change") was printed on a line of
    its own. The values are the periods', left to right, and the percentage is the change; else None (read
    right-aligned, each amount would sit under the year after its own)."""
    periods = [c for c in header[1:] if periods_in(c)]
    if len(periods) < 2 or len(periods) != len(header) - 1 or len(values) != len(periods) + 1:
        return None
    if not values[-1].rstrip().endswith("%") or values[0].rstrip().endswith("%"):
        return None
    return [*periods, "% Change"]


CURRENCY_SIGN = re.compile(r"[$€£¥]")
"""A currency sign as a cell prints it ("$ 412" in two cells, or in one)."""


def row_cells(line: str) -> list[str]:
    """A row's cells, empty ones dropped and a lone currency sign joined to its amount (the table
    finder's grid: "TOTAL ASSETS | $ | 59,268 |  | $ | 55,556"). A row whose label cell is empty ("| 2041 | 2040", a
    header over no label once the line is stripped) keeps the empty label."""
    line = f" {line}" if line.startswith(ROW_SEPARATOR.lstrip()) else line
    cells = [c.strip() for c in line.split(ROW_SEPARATOR)]
    out: list[str] = []
    for n, cell in enumerate(cells):
        if out and CURRENCY_SIGN.fullmatch(out[-1]) and cell:
            out[-1] = f"{out[-1]} {cell}"
        elif n and _SEVERAL.fullmatch(cell):
            out += [m.group(0).strip() for m in _ONE_AMOUNT.finditer(cell)]
        elif cell or not out:
            out.append(cell)
    return out


_ONE_AMOUNT = re.compile(
    r"[$€£¥]?\s?\(?\s?[-−–]?\d[\d,]*(?:\.\d+)?(?![\d,.])(?:\((?:\d[\d.]*|[−–-])\))?\s?\)?\s?%?|[—–-](?=\s|$)"
)
_SEVERAL = re.compile(rf"\s*(?:{_ONE_AMOUNT.pattern})(?:\s+(?:{_ONE_AMOUNT.pattern}))+\s*")
"""A value cell that holds several amounts ("$ 51,217 $ 46,710 $ 44,538", "(90) (90) (6.0)", a paper's "53.8(0.5)
54.0(1.4)": a spread set right after its value, with no space, is the value's own); the table finder
missed the column gaps; each amount is its own column, left to right (else the first would be read under
the last column's year). An amount ends where its digits end and amounts are apart by whitespace, so a long
run of digits is never tried as many amounts (linear time)."""


MIN_SHARED_PARTS = 2
"""Labels two headings' rows must share for the headings to be measures of the same parts."""


def measure_headings(lines: Sequence[str]) -> dict[int, str]:
    """The rows under a heading that names a measure of parts ("Net sales:" over "Harbour North | 412.5", "Pet
    Ferries | 61.3", then "Operating profit:" over the same parts): each row's line index -> the measure. Only
    when two headings head the same parts (two labels in common or more): the parts are segments or regions
    measured twice, not line items under a class ("Current liabilities:" over "Accounts payable"), which name
    their item by themselves."""
    blocks: list[tuple[str, list[int], set[str]]] = []
    current: tuple[str, list[int], set[str]] | None = None
    for n, line in enumerate(lines):
        if ROW_SEPARATOR not in line:
            current = (line[:-1].strip(), [], set()) if line.endswith(":") and len(line) <= MAX_HEADING else None
            blocks += [current] if current is not None else []
        elif current is not None:
            current[1].append(n)
            current[2].add(line.split(ROW_SEPARATOR)[0].strip().lower())
    out: dict[int, str] = {}
    for name, rows, labels in blocks:
        if any(other[2] is not labels and len(labels & other[2]) >= MIN_SHARED_PARTS for other in blocks):
            out.update(dict.fromkeys(rows, name))
    return out


MAX_HEADING = 60
"""A measure's heading is short ("Operating profit (loss):"); a longer line ending in a colon introduces a list."""


def value_offset(columns: list[str], values: list[str]) -> int:
    """Where a row's values start among the columns: on the right (a blank label column), unless the
    header's extra columns are not periods while its first ones are ("2021 | 2020 | Change" over
    two amounts: the change column was left empty)."""
    extra = len(columns) - len(values)
    if extra <= 0:
        return extra
    lead, tail = columns[: len(values)], columns[len(values) :]
    if all(periods_in(c) for c in lead) and not any(periods_in(c) for c in tail):
        return 0
    return extra


_PART_LABEL = re.compile(
    r"(?:basic|diluted|domestic|international|foreign|federal|state(?: and local)?|local|current|deferred|"
    r"u\.?s\.?|non-u\.?s\.?|united states|other countries)\s*(?:\(\d\))?",
    re.I,
)
"""Row labels that name only a part of what the heading above them names ("Diluted" under "Earnings per common
share:", "Federal" under "Current:"): read with the heading. Any other label ("Capital expenditures" under "Cash
flows from investing activities:") names its line item by itself."""
PER_SHARE_LABEL = re.compile(r"\bper (?:common |ordinary |diluted |basic )?(?:share|unit)\b|\beps\b", re.I)
"""A per-share row: its amounts are not in the table's scale ("in millions, except per share data")."""
PER_UNIT_LABEL = re.compile(
    r"\bper (?!cent\b|annum\b|year\b|quarter\b|month\b|week\b)[a-z]|\beps\b|\bratio\b|\bdays?\b", re.I
)
"""A row of an amount per thing ("per share", "per paying member", "per passenger mile"), a ratio or a count of days:
never in its table's scale ("in thousands, except per member data"). An amount per period ("per year") is a total
over that period and keeps it; "per cent" is a percentage."""
_OPEN_HEADING = re.compile(r"\b(?:for|of|in|on|from|to|by|with|under)$", re.I)
"""A heading that ends in a preposition ("Cash paid during the year for:"): each row under it finishes its phrase."""


def read_under(heading: str, label: str) -> bool:
    """Whether a row is read with the heading above it: a per-share heading's rows, a part's ("Diluted" under
    "Earnings per common share:"), and any row under a heading its rows finish ("Interest" under "Cash paid
    during the year for:" is the interest paid, not the interest expense)."""
    return bool(
        PER_SHARE_LABEL.search(heading) or _PART_LABEL.fullmatch(label.strip()) or _OPEN_HEADING.search(heading)
    )


_NAME_WORD = re.compile(r"[A-Z][\w.+/→-]*|[a-z]+[A-Z0-9][\w.+/→-]*|\d+-[A-Za-z][\w.+/→-]*")
"""A column name written as one word: capitalised, or with a capital or a digit inside ("KestrelNet", "HB7", "iOS"),
a direction between two such ("En→Fr"), or a count joined to its noun ("5-shot", "3-layer": never a value)."""
_ARROW_APART = re.compile(r"\s+(→)")
"""An arrow set apart from the name before it ("Fr →Es"): a direction's name is both ends."""


def name_line(line: str) -> list[str] | None:
    """The one-word column names of a line printed over a table's rows without cell breaks ("Kestrel Osprey
    Heron-2"), else None: three to fifteen names and nothing else (no connective, no sentence). Two capitalised
    words are as often one name ("North Sound", a group of rows) as two columns."""
    words = _ARROW_APART.sub(r"\1", line).split()  # "Fr →Es" is one direction's name
    if not 3 <= len(words) <= 15 or any(w.lower() in STOPWORDS or not _NAME_WORD.fullmatch(w) for w in words):
        return None
    return words


_LABEL_DECIMAL = re.compile(r"^(?P<label>.*[A-Za-z)\]].*?)\s+(?P<value>[-−–]?\d+\.\d+)$")


def peeled(row: list[str], columns: int = 0) -> list[str]:
    """A row whose label cell ran into its first values ("Hard trials (τ < 0.6) 1.28 | 2.68", "Lynx with tides
    30.87% 23.50% | 6.42%") as the label and those values apart. With the table's count of value ``columns``
    known, the measured figures (``layout.is_figure``) that end the label are peeled when that makes the row
    exactly as long; else one decimal only, so a label's own number ("Notes due 2031", "Tier 1") stays in it."""
    if not row:
        return row
    words = row[0].split()
    kept = len(words)
    while columns and kept > 1 and (is_figure(words[kept - 1]) or _signed(words, kept - 1)):
        kept -= 1
    label, values = " ".join(words[:kept]), words[kept:]
    if any(CURRENCY_SIGN.fullmatch(v) for v in values):  # "Net income .... $ 81,201 $ 70,114": a sign and its amount
        values = [m.group(0).strip() for m in _ONE_AMOUNT.finditer(" ".join(values))]
    if values and re.search(r"[A-Za-z)\]]", label) and len(row) - 1 < columns == len(row) - 1 + len(values):
        return [label, *values, *row[1:]]
    found = _LABEL_DECIMAL.match(row[0])
    return [found.group("label"), found.group("value"), *row[1:]] if found else row


_GROUPED = re.compile(r"\(?\d{1,3}(?:,\d{3})+(?:\.\d+)?\)?")
"""An amount printed with thousands separators ("81,201", "(1,450)")."""


def _signed(words: list[str], n: int) -> bool:
    """A currency sign printed apart from its amount ("$ 81,201"), or the amount after such a sign: a value, where
    a bare whole number may be the label's own ("Notes due 2031")."""
    if CURRENCY_SIGN.fullmatch(words[n]):
        return n + 1 < len(words) and bool(is_figure(words[n + 1]) or _GROUPED.fullmatch(words[n + 1]))
    return n > 0 and bool(CURRENCY_SIGN.fullmatch(words[n - 1]) and _GROUPED.fullmatch(words[n]))


TABLE_CAPTION = re.compile(r"\b(?:Table|TABLE)\s+(?:\d{1,2}[A-Za-z]?|[IVXL]{1,5})\s*[:.]\s*(?P<caption>[A-Za-z].*)$")
"""A table's numbered caption ("Table 4: Stops per hundred hours.", "TABLE II: Comparison of test sets"), also
where the text layer ran a figure's last label into it."""


@dataclass
class TableState:
    """What a page's earlier lines said about the table being read."""

    header: list[str] | None = None
    scale: str = ""
    served: bool = False
    """Rows were read in ``scale`` since it was stated: another table's header below does not inherit it (store
    counts under a revenue table's "(in millions)"); the document's scale still reaches money rows."""
    years: list[str] | None = None
    """Column years read from lines that are not rows ("August 29, 2021 August 30," / "2020")."""
    in_rows: bool = False
    title: str = ""
    """A financial statement's title printed above the table ("CONSOLIDATED STATEMENTS OF CASH FLOWS")."""
    spans: list[str] | None = None
    """The spans the header prints over the year columns ("Three months ended", "Twelve months ended")."""
    parent: str = ""
    """A heading row ending in a colon ("Earnings per share:"): rows under it labelled "Basic", "Diluted" are parts."""
    groups: list[str] | None = None
    """A header row of periods only, each over several sub-columns ("Twelve Months Ended June 30, 2022 |
    Twelve Months Ended June 30, 2023" over "EBITDA | EBIT | Net income" each)."""
    percent: bool = False
    """The table's caption or first header cell says its figures are percentages ("(Percent of net sales)")."""
    pending: str = ""
    """The text line just above, when no row came after it: a row label's first part ("... included in Other")."""
    measure: str = ""
    """The measure the row's heading names, when it heads the same parts as another (``measure_headings``)."""
    above: list[str] | None = None
    """The header row just above, when nothing came between: the measures over a header of periods."""
    caption: str = ""
    """The numbered caption printed over the table ("Table 4: Stops per hundred hours"): what its rows measure."""
    names: list[str] | None = None
    """A line of one-word column names just above the rows ("Kestrel Osprey Heron"), while its rows last."""
    title_line: str = ""
    """The last line read that could title a table below it (``title_of``), until a header takes it."""
    header_title: str = ""
    """The title line read before the current header: what the rows measure when no numbered caption says so
    ("Subscription revenue by segment is as follows:" over rows named "Harbour", "Inland")."""
    spanning: tuple[str, int] | None = None
    """The label of a row "label | year | figures" and its cell count, while rows below continue it by year."""


def label_year(label: str) -> tuple[Period, ...]:
    """The period of a row labelled by a year alone ("2024 | 1,097 | 862" in a schedule of payments by year)."""
    return periods_in(label) if re.fullmatch(r"(?:FY\s?)?(?:19|20)\d\d", label.strip()) else ()


MAX_TITLE_WORDS = 30
"""A title is a heading or one sentence; a longer line is a paragraph."""
MAX_ANNOUNCING_WORDS = 60
"""A sentence ending in a colon announces the table under it however many clauses it runs to ("Assuming ...
conditions, the largest award each officer could earn, at its grant date value, is set forth below:"); longer, the
sentence splitter missed a stop and the text is a paragraph."""


def title_of(line: str) -> str | None:
    """What a line that is no row says of the table below it: a sentence announcing it ("Fees by unit are as
    follows:") or a heading-like line ("Details of the Directors' Pay") is its title; a prose line ends any
    title (""); a short line wholly in parentheses, the table's units ("(in thousands)", "(Rs. in Lakhs)"), leaves
    it as it was (None)."""
    text = line.strip()
    if re.fullmatch(r"\([^()]{1,60}\)", text):
        return None
    last = split_sentences(text)[-1] if text else ""
    if text.endswith(":") and len(last.split()) <= MAX_ANNOUNCING_WORDS:
        return last
    # a survey's table title opens with the share it shows ("% of riders who …")
    heading = (text[:1].isupper() or text.startswith("% ")) and not text.endswith(".") and 2 <= len(text.split()) <= 16
    return text if heading else ""


def value_columns(state: TableState) -> int:
    """How many value columns the table being read has: its header's period columns, else its one-word column
    names ("Model | Recall Precision F1", ``name_line``); else the years read above it; 0 when no table is read."""
    if state.header is not None:
        periods = sum(1 for c in state.header[1:] if periods_in(c))
        names = name_line(" ".join(state.header[1:])) if not periods else None
        return len(names) if names else periods
    return len(state.years or [])


def unsplit_line(line: str, state: TableState) -> str:
    """``line`` as a row when it is one printed without cell breaks (``unsplit_row``), also when the last year of
    the date header above wrapped onto its start ("March 5," / "2031 Revenue: Charters ... $ 812,400 $ 640,100 $
    512,900"): the year is the header's, the rest the table's first row."""
    wrapped = re.match(rf"^({YEAR})\s+(\S.*)$", line)
    if wrapped and state.years and not state.in_rows:
        row = unsplit_row(wrapped.group(2), len(state.years) + 1)
        if row is not None:
            state.years.append(wrapped.group(1))
            return row
    return unsplit_row(line, value_columns(state)) or line
