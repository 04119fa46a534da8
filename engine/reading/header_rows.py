"""Which table row is a row of column headers (``is_header``), and the cell shapes that tell it from data. Pure."""

from __future__ import annotations

import re
from itertools import pairwise

from engine.documents.text import ABBREVIATED_CELL
from engine.reading.periods import YEAR
from engine.reading.symbol_columns import symbol_cell

PERIODS_COMPARED = re.compile(
    r"^(?:FY\s?|Q[1-4]\s?)?['’]?\d{2,4}\s*(?:vs\.?|versus|over|compared (?:to|with))\s*(?:FY\s?|Q[1-4]\s?)?['’]?\d{2,4}$",
    re.I,
)
"""A change column's header naming the two periods it compares ("2022 vs. 2021", "22 vs. 21", "’22 vs. ’21", "FY23 vs
FY22")."""
_HEADER_CELL = re.compile(
    rf"^\(?(?:[%$€£¥]\s?)?[A-Za-z]|^\d{{1,3}}-[A-Za-z]|.*\b{YEAR}\b|{PERIODS_COMPARED.pattern}", re.I
)
"""A column header starts with a word ("Heron 3", "Fiscal 2020"), a percent or currency sign before one ("% Change",
"% of sales", "$ change"), a count hyphened to a word ("2-hop", "5-shot": a word, not a figure), names a year
("2019") or the two periods a change compares (``PERIODS_COMPARED``)."""


BOUND = re.compile(
    r"^(?P<bound>about|approx(?:\.|imately)?|around|roughly|nearly|almost|under|over|up to|at least|at most|"
    r"less than|more than|fewer than|below|above|~|<|>|≤|≥|≈)\s*(?=[$€£¥]?\s?\.?\d)",
    re.I,
)
"""The words a table cell prints before an approximate or bounding number ("about 25 min", "under 5 min"):
such a cell is a value, not a column header."""


def is_header(cells: list[str]) -> bool:
    """A row of column headers: after its first cell (a label, or the first header) only words,
    years and dates ("2019", "At December 31, 2018", "Fiscal 2020", "% Change"), none of them a sentence."""
    rest = [c.strip() for c in cells[1:] if c.strip()]
    if not rest or describes(rest):
        return False  # a row of words describing each column ("Crew | Pilot | Pilot") is data
    return all(
        symbol_cell(c)
        or (
            _HEADER_CELL.match(c)
            and not _NOT_AVAILABLE.fullmatch(c)  # "1940 | NA": a figure missing, not a header
            and not BOUND.match(c)
            and (not _NUMERIC_START.match(c) or re.fullmatch(YEAR, c))
            and not _PROSE_CELL.search(c)
            and not (_STOPPED.search(c) and not ABBREVIATED_CELL.fullmatch(c))
        )
        for c in rest
    )


_NOT_AVAILABLE = re.compile(r"N/?A|n/?a|—|–|-")
_STOPPED = re.compile(r"\w\s+\S*[a-z]\.$")
"""Words closed by a full stop: prose, unless the stops close abbreviations (``ABBREVIATED_CELL``: "JD Acc."); one
word with a stop is an abbreviation ("Prec.")."""
_PROSE_CELL = re.compile(r"\w\s?,\s+[a-z]+\s+[a-z\-]+\s+[a-z]|(?:\b[a-z][a-z\-]*\b.*){6}")
"""A cell written as prose: a comma before more lower-case words ("Reliable, inexpensive storage with real-time
access") or six lower-case words. A comparison table's rows of descriptions are data, never the column headers the
numbers below are read by ("Standard | Archive", "FISCAL 2031 % CHANGE" are)."""
_NUMERIC_START = re.compile(r"^[(\-−–$€£¥]?\s?\d[\d,.]*\s?%?\)?$")
"""A cell that is a number (an amount, not a header): "1,577", "(370)", "$ 5,363", "23.5%"."""


_REPEATED = re.compile(r"\b([A-Za-z][\w-]*(?: [A-Za-z][\w-]*)?) \1\b")


def describes(cells: list[str]) -> bool:
    """A row of words that describes each column rather than naming it: two neighbouring cells alike ("Pilot | Pilot"),
    or a phrase printed twice in a row in one cell ("Steel Hull Steel Hull"). A header names each column once."""
    alike = any(  # "22 vs. 21" heads $ and %, and "$ %" each change's two columns
        a == b and not PERIODS_COMPARED.match(a) and not symbol_cell(a) for a, b in pairwise(cells)
    )
    return alike or any(_REPEATED.search(c) for c in cells)
