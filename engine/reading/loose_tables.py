"""Tables whose columns the text layer does not separate: a paper's results table read as header and rows.

A paper's table often reaches the text layer as a header line of column names ("Model | Acc. Prec. Rec.
F1") over lines of a row label followed by one number per column, several rows sometimes run together on
one line ("GPT-4 91.2 88.0 79.5 83.5 Llama-2 70.1(0.4) ..."). With the header's column count known, the
token stream splits back into rows: a label (the words) and then exactly that many numbers. A table is
read only when at least two rows come out whole; anything else is left unread (a row that does not fit
is dropped, never guessed). Pure functions: no I/O, no engine state.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise

from engine.contracts import EvidenceItem
from engine.documents.layout import ROW_SEPARATOR
from engine.documents.text import STOPWORDS
from engine.reading.table_values import Cell

VALUE = re.compile(
    r"^(?P<num>[-−+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|[-−+]?\.\d+)(?P<pct>%)?"
    r"(?:\((?P<spread>[\d.]+)\)|±[\d.]+)?[*†‡§¶]*$"
)
"""A cell of a results table: a number, maybe a percent sign, maybe the spread printed right after it with
no space ("81.5(1.1)", "71.3±0.4") and footnote marks. A number in parentheses standing alone ("(0.5)") is
not a cell: it belongs to the label before it ("Kestrel (0.7)", a setting of the model)."""
EMPTY_CELL = frozenset("-–—")
"""A dash after a row's first number is an empty cell (a result not reported), not a label."""
MIN_ROWS = 2
"""A table is read when this many rows come out whole: one row is no evidence that the split is right."""
MAX_LABEL_WORDS = 8
"""A row label is a name, not a sentence: more words than this is prose that happened to precede numbers.
A label of marks only ("-", "+") names nothing: its row is dropped."""
PROSE_WORDS = 3
"""A line without numbers and with at least this many words, after rows were read, ends the table (a
caption or a paragraph; a label wrapped onto its own line is shorter)."""
SPLIT_CELLS = 2
"""A line with this many cell separators had its values split by the table finder (a label cell alone is
split off by its wider gap): it is not a loose row."""
MAX_COLUMN_CHARS = 24
"""A column header is a short name ("Acc.", "BLEU-4", "Harbor-east"): longer tokens are prose."""


@dataclass
class _Header:
    columns: list[str]
    upper: list[str] = field(default_factory=list)
    bare: list[str] = field(default_factory=list)
    """Every word of a header line with no cell separator: its first word may be a column's name as well
    as the label column's ("Acc. F1" over "Kestrel 70.0 60.2"), which only the rows tell."""


def _cells_of(line: str) -> list[str]:
    return [c.strip() for c in line.split(ROW_SEPARATOR)]


def _tokens(line: str) -> list[tuple[str, int, int]]:
    """The tokens of a line with their spans; the table finder's separators are only gaps."""
    return [(m.group(0), m.start(), m.end()) for m in re.finditer(r"[^\s|]+", line)]


def _is_value(token: str) -> bool:
    return bool(VALUE.match(token))


def _header(line: str) -> _Header | None:
    """A header line: a label column's header (the first "|"-cell, or the first word) and then column
    names only, none of them a number. Several "|"-cells after the first are names of their own
    ("Dataset | Exact Match | F1"); one cell of several words is one name per word ("Acc. Prec. Rec.")."""
    cells = [c for c in _cells_of(line) if c]
    if len(cells) > 2:
        columns = cells[1:]
    elif len(cells) == 2:
        columns = cells[1].split()
    else:
        columns = line.split()[1:]
    if len(cells) == 1 and len(columns) == 1 and not _is_value(columns[0]):
        columns = []  # two bare words: maybe two columns with no label header (the rows tell)
    bare = line.split() if len(cells) == 1 else cells if len(cells) > 2 else []
    if (
        len(bare) >= 2
        and not columns
        and not _phrase(bare)
        and not any(_is_value(w) or len(w) > MAX_COLUMN_CHARS for w in bare)
    ):
        return _Header([], bare=bare) if all(re.search(r"[A-Za-z]", w) for w in bare) else None
    if len(columns) < 2 or any(_is_value(c) or len(c) > MAX_COLUMN_CHARS for w in columns for c in w.split()):
        return None
    if not all(re.search(r"[A-Za-z]", c) for c in columns) or _phrase(columns):
        return None
    return _Header(columns, bare=bare)


def _phrase(words: list[str]) -> bool:
    """Words joined by a stop word are a phrase ("Revenue (in $000's)", "Loans in millions"), not column
    names ("Acc. Prec. F1"): a table's columns are each named by a name."""
    stripped = (re.sub(r"[^\w]", "", w) for c in words for w in c.split())
    return any(w.islower() and w in STOPWORDS for w in stripped)  # "PER" (persons) is a name, "per" a joint


@dataclass
class _Row:
    label: list[str] = field(default_factory=list)
    values: list[str] = field(default_factory=list)
    start: tuple[int, int] = (-1, 0)
    """(line index, character offset) where the row's label starts."""
    end: tuple[int, int] = (-1, 0)
    """(line index, character offset) where its last value ends."""
    places: list[tuple[int, int]] = field(default_factory=list)
    """(line index, character offset) of each label word."""
    group: str = ""
    """The title of the rows' group it sits in ("Data: Lakes" over them), else ""."""


def _regrouped(row: _Row, group: str) -> str:
    """The group title a row's label opens with, taken off the label, else the group it was in: a title
    ("Data: Rivers") ends its own line and the row's label starts the next one."""
    marks = [n for n, w in enumerate(row.label[:-1]) if w.endswith(":") and len(w) > 1]
    if not marks:
        return group
    line = row.places[marks[-1]][0]
    first = next((k for k in range(marks[-1] + 1, len(row.label)) if row.places[k][0] > line), None)
    if first is None or first == marks[-1] + 1:
        return group
    title = " ".join(row.label[marks[-1] + 1 : first])
    row.label, row.places, row.start = row.label[first:], row.places[first:], row.places[first]
    return title


def _with_upper(header: _Header, above: _Header | None) -> _Header:
    """A spanning header above ("Algorithms | Dataset A | Dataset B") names groups of equal width of the
    columns below ("H@3 H@5 H@3 H@5"): each column is named with its group. Only a "|"-separated line
    with a label cell of its own spans columns this way (a line of two bare words may span unequal groups)."""
    if above is None or len(above.upper) < 2 or not header.columns or len(header.columns) % len(above.upper):
        return header
    width = len(header.columns) // len(above.upper)
    return _Header([f"{above.upper[n // width]} {c}" for n, c in enumerate(header.columns)])


def _with_groups(columns: list[str], above: _Header | None) -> list[str]:
    """Columns named with the groups a plain header line above spans ("Lakes Rivers" over "P R P R"): the
    columns repeat their names once per group, so the repeat says how many groups there are, and the line
    above splits into that many names, each starting with a capital or a digit (a parenthesised or lower-case
    word continues a name: "Lakes (dev)"); its words left over name the label column. Columns that do not
    repeat, or a line above that does not split so, keep their own names."""
    if above is None or above.upper or not above.bare or _group_title(above.bare):
        return columns
    width = next((w for w in range(1, len(columns) // 2 + 1) if len(columns) % w == 0
                  and all(c == columns[n % w] for n, c in enumerate(columns))), 0)  # fmt: skip
    groups = _split_groups(above.bare, len(columns) // width) if width else None
    return [f"{groups[n // width]} {c}" for n, c in enumerate(columns)] if groups else columns


def _split_groups(words: list[str], count: int) -> list[str] | None:
    """The last ``count`` names of a plain header line, each starting at a capitalised word or a number."""
    starts = [n for n, w in enumerate(words) if w[0].isupper() or w[0].isdigit()]
    if len(starts) < count:
        return None
    bounds = [*starts[-count:], len(words)]
    groups = [" ".join(words[a:b]) for a, b in pairwise(bounds)]
    return groups if all(len(g) <= MAX_COLUMN_CHARS for g in groups) else None


def _group_title(words: Sequence[str]) -> str:
    """The name a "Data: Lakes" title gives the rows under it: the words after a word ending in a colon."""
    marks = [n for n, w in enumerate(words) if w.endswith(":") and len(w) > 1]
    return " ".join(words[marks[-1] + 1 :]) if marks and marks[-1] < len(words) - 1 else ""


def _spanning(line: str) -> list[str]:
    cells = [c for c in _cells_of(line) if c]
    return cells[1:] if len(cells) >= 3 else []


def loose_tables(items: Sequence[EvidenceItem]) -> list[list[Cell]]:
    """The tables of one page (its chunks in reading order) whose columns the text does not separate,
    each as its cells, row by row."""
    lines = [(item, line.strip()) for item in items for line in item.text.split("\n") if line.strip()]
    tables: list[list[Cell]] = []
    above: _Header | None = None
    n = 0
    while n < len(lines):
        header = _header(lines[n][1])
        if header is None:
            above, n = None, n + 1
            continue
        group = _group_title(above.bare) if above is not None else ""
        header = _with_upper(header, above)
        cells, used = _read_rows(lines, n + 1, header.columns, group) if header.columns else ([], 0)
        if len(header.bare) > len(header.columns) and all(not w[0].islower() for w in header.bare):
            # with no label header every word names a column; column names print capitalised or as symbols
            # ("Gold Open", "EN-DE F1"): a lower-case word continues a phrase ("Geographic region"), a heading.
            # The reading with more whole rows is the table's ("P | R | F1" over rows of three numbers).
            bare, bare_used = _read_rows(lines, n + 1, _with_groups(header.bare, above), group)
            if len(bare) > len(cells):
                cells, used = bare, bare_used
        if cells and used:
            tables.append(cells)
            above, n = None, n + 1 + used
        else:
            above = _Header(header.columns, _spanning(lines[n][1]), header.bare)
            n += 1
    return tables


def _read_rows(
    lines: list[tuple[EvidenceItem, str]], first: int, columns: list[str], group: str = ""
) -> tuple[list[Cell], int]:
    """The rows after a header, as cells, and how many lines they took (0 when fewer than ``MIN_ROWS``);
    ``group`` names the group the rows sit in (a title above the header), if any."""
    width = len(columns)
    rows: list[_Row] = []
    row = _Row()
    used = 0
    for offset, (_, line) in enumerate(lines[first:]):
        tokens = _tokens(line)
        if not any(_is_value(t) for t, _, _ in tokens) and (rows and len(tokens) >= PROSE_WORDS):
            break  # a caption or a paragraph after the rows
        if _header(line) is not None:
            break  # the next table's header (or, before any row, a lower header line: it is read next)
        if line.count(ROW_SEPARATOR.strip()) >= SPLIT_CELLS:
            break  # the table finder split this row into its cells: ``table_values`` reads it
        used = offset + 1
        for token, start, end in tokens:
            if (_is_value(token) and row.label) or (token in EMPTY_CELL and row.values):
                row.values.append(token)
                row.end = (first + offset, end)
            elif row.values or _is_value(token):
                if rows:
                    return _whole(lines, rows, columns), used  # a row cut short: the table's rows are over
                row = _Row()  # a number with no label, or a row cut short before any: dropped, never guessed
                if not _is_value(token):
                    row.label, row.start, row.places = [token], (first + offset, start), [(first + offset, start)]
            else:
                if not row.label:
                    row.start = (first + offset, start)
                row.label.append(token)
                row.places.append((first + offset, start))
            if len(row.values) == width:
                group = row.group = _regrouped(row, group)
                if len(row.label) <= MAX_LABEL_WORDS and re.search(r"[A-Za-z0-9]", " ".join(row.label)):
                    rows.append(row)
                row = _Row()
    return _whole(lines, rows, columns), used


def _whole(lines: list[tuple[EvidenceItem, str]], rows: list[_Row], columns: list[str]) -> list[Cell]:
    """The cells of the rows read, when there are enough of them to trust the split."""
    if len(rows) < MIN_ROWS:
        return []
    return [cell for r in rows for cell in _row_cells(lines, r, columns)]


def _row_cells(lines: list[tuple[EvidenceItem, str]], row: _Row, columns: list[str]) -> list[Cell]:
    item, line = lines[row.start[0]]
    label = " ".join(row.label)
    quote = line[row.start[1] : row.end[1]] if row.end[0] == row.start[0] else line[row.start[1] :]
    found = []
    for raw, column in zip(row.values, [f"{row.group} {c}" if row.group else c for c in columns], strict=True):
        m = VALUE.match(raw)
        if m is None:
            continue  # an empty cell
        number = m.group("num").replace(",", "").replace("−", "-")
        found.append(
            Cell(
                chunk_id=item.chunk_id, doc_id=item.doc_id, page=item.page, label=label, column=column,
                raw=m.group("num") + (m.group("pct") or ""), value=float(number), scale="",
                unit="%" if m.group("pct") else "", periods=(), quote=quote, is_row=True,
                context=" ".join(item.section_path),
            )
        )  # fmt: skip
    return found
