"""A value at the intersection of a named row and a named column of a paper's results table.

"What is the F1 of Kestrel on the Lakes split?" names a row ("Kestrel") and a column whose header it names
whole ("Lakes F1"): the answer is that cell. Read only from tables whose columns the text layer runs
together (``loose_tables``): a table the table finder split into cells is read by the value brick
(``value_answer``), which knows periods and scales. A question that names no single row, or no column whole,
is left to the other readers. Pure functions.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from engine.reading.extremes import GENERIC_MEASURES, distinct_columns, header_named, named_count, question_terms
from engine.reading.table_values import Cell

MAX_CELLS = 4
"""At most this many cells answer a lookup (a model under a few settings, an F1 under two headings); more
is a whole table, not the cell asked."""
_ASKS_VALUE = re.compile(r"^\W*(?:what|which|how (?:much|many|high|low|well|large|small))\b", re.I)
"""A lookup answers a question that asks for something (not yes/no, not why or how in general)."""


def _unsaid(label: str, said: set[str]) -> int:
    """How many words of a row label the question does not say: of rows named alike, the one leaving least
    unsaid is the one asked ("BM25 with X" for a question saying "with X"; "BM25 without X" leaves "without")."""
    return sum(1 for w in re.findall(r"[^\s,;:?!()]+", label.lower()) if w not in said)


def lookup_cells(question: str, tables: Sequence[Sequence[Cell]]) -> list[Cell]:
    """The cells of the table whose one named row (or rows tied for it) and wholly named columns the question
    asks for (module doc); of several such tables, the one whose column names the most of the question's words
    ("Rivers F1" over a plain "F1" for "the F1 on Rivers"), the first among equals; [] when no table has both."""
    if not _ASKS_VALUE.match(question):
        return []
    terms = [w for w in question_terms(question) if w.lower() not in GENERIC_MEASURES]
    said = {w.lower() for w in re.findall(r"[^\s,;:?!()]+", question)}
    best: tuple[int, list[Cell]] = (0, [])
    for table in tables:
        named, found = _lookup_in(list(table), terms, said)
        if named > best[0]:
            best = (named, found)
    return best[1]


def _lookup_in(table: list[Cell], terms: list[str], said: set[str]) -> tuple[int, list[Cell]]:
    """How many question words the table's most fully named column names, and the cells found (or 0, [])."""
    cells = distinct_columns(table)
    named = {c: len(_column_words(c, terms)) for c in dict.fromkeys(c.column for c in cells if c.column)
             if header_named(c, terms)}  # fmt: skip
    most = max(named.values(), default=0)
    columns = [c for c, n in named.items() if n == most]  # "Rivers F1" is asked, not every "F1" beside it
    column_words = {w for c in columns for w in _column_words(c, terms)}
    # a row is named by words that do not already name the column ("F1" names the column, not a row "F1 tuned")
    row_terms = [w for w in terms if w not in column_words]
    scores = {
        label: (named_count(label, row_terms), -_unsaid(label, said)) for label in dict.fromkeys(c.label for c in cells)
    }
    top = max(scores.values(), default=(0, 0))
    rows = [label for label, score in scores.items() if top[0] and score == top]
    found = [c for c in cells if c.label in rows and c.column in columns]
    return (most, found) if columns and rows and 0 < len(found) <= MAX_CELLS else (0, [])


def _column_words(column: str, terms: list[str]) -> list[str]:
    return [w for w in terms if named_count(column, [w])]


def lookup_statement(cells: Sequence[Cell]) -> str:
    """ "Kestrel, Lakes F1: 61.2" per cell, in table order."""
    return "; ".join(f"{c.label}, {c.column}: {c.raw}" for c in cells) + "."
