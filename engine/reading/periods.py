"""Periods a text names: fiscal years, quarters, and the span a column covers.

"FY2018", "fiscal 2022", "Q2 2023" and "the third quarter of fiscal 2016" name a year or a quarter.
An earnings release or a 10-Q prints the same year twice, under "Three months ended" and under
"Twelve months ended" (or "Nine months ended"): the span a year's column covers is read from the
phrase before it, so a quarter's or a year-to-date figure never stands for a fiscal year's. Pure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from engine.documents.text import YEAR, stems

_QUARTER_WORD = {"first": 1, "second": 2, "third": 3, "fourth": 4, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4}
_PERIODS = re.compile(
    rf"\b(?:FY\s?'?(?P<fy>{YEAR}|\d\d)(?:\s?Q(?P<fyq>[1-4]))?"
    rf"|Q(?P<q>[1-4])\s?(?:'|(?:of\s+)?(?:FY\s?|fiscal\s+(?:year\s+)?)|of\s+)?(?P<qy>{YEAR}|'?\d\d\b)"
    rf"|(?P<qword>first|second|third|fourth|1st|2nd|3rd|4th)[-\s]quarter(?:\s+of)?(?:\s+(?:fiscal|FY))?\s*(?:year\s+)?(?P<qwy>{YEAR})?"
    rf"|(?:fiscal(?:\s+year)?\s+)?(?P<y>{YEAR})(?:\s?Q(?P<yq>[1-4]))?)\b",
    re.I,
)

_SPAN_MONTHS = {
    # the number of months (or weeks) a financial statement's column covers, as filings print it
    "three": 3, "3": 3, "thirteen": 3, "13": 3, "quarter": 3,  # a quarter (13 weeks in retail calendars)
    "six": 6, "6": 6, "twenty-six": 6, "26": 6,  # a half-year to date
    "nine": 9, "9": 9, "thirty-nine": 9, "39": 9,  # nine months to date
    "twelve": 12, "12": 12, "fifty-two": 12, "52": 12, "fifty-three": 12, "53": 12, "year": 12,  # a whole year
}  # fmt: skip
_SPAN = re.compile(
    r"\b(?:(?P<n>"
    + "|".join(sorted((k for k in _SPAN_MONTHS if k not in ("quarter", "year")), key=len, reverse=True))
    + r")[\s-](?:months?|weeks?)|(?P<unit>quarter|(?:fiscal\s+)?year))s?\s+(?:ended|ending)\b",
    re.I,
)
"""A column's span: "Three months ended", "13 weeks ended", "Quarter ended", "Fiscal year ended"."""
_SPAN_REACH = 60
"""How far before a year its span phrase may stand ("For the three months ended March 31, 2023 and 2022")."""


@dataclass(frozen=True)
class Period:
    """A fiscal year, a quarter of one, or a part of one printed as a span ("three months ended")."""

    year: int
    quarter: int | None = None
    months: int | None = None
    """Months covered when fewer than a year and no quarter is named (3, 6 or 9); None for a year."""

    def label(self) -> str:
        """The period as a header prints it ("Q3 2041", "9 months ended 2041", "2041"): ``periods_in`` reads it back
        as this period, so a computation's inputs are looked up by it."""
        if self.quarter:
            return f"Q{self.quarter} {self.year}"
        return f"{self.months} months ended {self.year}" if self.months else str(self.year)


def _year(text: str | None) -> int | None:
    if not text:
        return None
    digits = text.strip("'")
    return int(digits) if len(digits) == 4 else 2000 + int(digits)


_WHOLE_YEAR = re.compile(r"\b(?:full|whole|entire|calendar)[-\s]year\b", re.I)
"""A year named whole ("the full year 2041", "full-year sales"): the period asked, as "fiscal year" is."""


def period_words(text: str) -> set[str]:
    """The stems of the span phrases and dates ``text`` names ("three months ended July 29", "the full year"): the
    period asked, read from a column's header, never the line item."""
    dates = list(_DATE.finditer(text))  # "July 29, 2041": its month and day, the year is dropped as a period
    words = {word for m in _SPAN.finditer(text) for word in stems(m.group(0))}
    words |= {word for m in _WHOLE_YEAR.finditer(text) for word in stems(m.group(0))}
    return words | {word for m in dates for word in stems(m.group("month"))} | {m.group("day") for m in dates}


def without_spans(text: str) -> str:
    """``text`` without its span phrases ("the three months ended June 30"): a period, never a count of things."""
    return _SPAN.sub(" ", text)


def span_months(phrase: str) -> int | None:
    """The months a span phrase covers ("Nine Months Ended" -> 9, "Year ended" -> 12), else None."""
    m = _SPAN.search(phrase)
    if not m:
        return None
    return _SPAN_MONTHS[(m.group("n") or m.group("unit").split()[-1]).lower()]


_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_DATE_PARTS = re.compile(rf"\b(?:{'|'.join(_MONTHS)})[a-z]*\.?(?![a-z])|\d+|[^\w\s]", re.I)
"""Month names, numbers and punctuation: what a header line prints around its spans."""
_HEADER_SLACK = 3
"""Words a span header line may hold besides spans and dates ("For the", "and", "(Unaudited)")."""


def span_headers(line: str) -> list[str]:
    """The span phrases of a table's header line, in order ("Three months ended | Twelve months ended"),
    or none when the line is prose that mentions a span (it holds more than a few other words)."""
    spans = [m.group(0) for m in _SPAN.finditer(line)]
    if not spans:
        return []
    rest = _DATE_PARTS.sub(" ", _SPAN.sub(" ", line)).split()
    return spans if len(rest) <= _HEADER_SLACK else []


def _months_before(text: str, end: int) -> int | None:
    """The span of the nearest span phrase before ``end`` within reach, in the same cell and sentence."""
    window = re.split(r"\||[.;](?:\s|$)", text[max(0, end - _SPAN_REACH) : end])[-1]
    found = list(_SPAN.finditer(window))
    months = span_months(found[-1].group(0)) if found else None
    return months if months and months < 12 else None


def without_periods(text: str) -> str:
    """``text`` with every period it names blanked out ("revenue in FY2022 was 5.1" -> "revenue in   was 5.1")."""
    return _PERIODS.sub(" ", text)


@lru_cache(maxsize=32_768)
def periods_in(text: str) -> tuple[Period, ...]:
    """Years and quarters a text names, in order: "FY2018", "fiscal 2022", "Q2 2023", "second quarter of fiscal 2024";
    a year after "three (six, nine) months ended" is that part of the year. Kept per text (the result is
    immutable): a table's column headers are read again for every row, and its rows for every question."""
    found: dict[Period, None] = {}
    orphans: list[int] = []
    for m in _PERIODS.finditer(text):
        if m.group("fy"):
            period = Period(_year(m.group("fy")) or 0, int(m.group("fyq")) if m.group("fyq") else None)
        elif m.group("q"):
            period = Period(_year(m.group("qy")) or 0, int(m.group("q")))
        elif m.group("qword"):
            year = _year(m.group("qwy"))
            if year is None:
                orphans.append(_QUARTER_WORD[m.group("qword").lower()])
                continue  # "the second quarter" with no year names no period of its own
            period = Period(year, _QUARTER_WORD[m.group("qword").lower()])
        else:
            quarter = int(m.group("yq")) if m.group("yq") else None
            months = None if quarter else _months_before(text, m.start())
            period = Period(_year(m.group("y")) or 0, quarter, months)
        found.setdefault(period, None)
    return _quarter_of_the_year(tuple(found), orphans, text)


HEADER_WORDS = 12
"""A column header is a short phrase; a longer text is a sentence whose quarter and year may be two periods."""


def _quarter_of_the_year(found: tuple[Period, ...], orphans: list[int], text: str) -> tuple[Period, ...]:
    """A header that names one fiscal year and, apart from it, one quarter ("Fiscal 2031 Stores at End of Second
    Quarter") names that quarter of that year: its figures are the quarter's, not the year's."""
    if len(orphans) != 1 or len(found) != 1 or len(text.split()) > HEADER_WORDS:
        return found
    (year,) = found
    if year.quarter or year.months:
        return found
    return (Period(year.year, orphans[0]),)


def with_spans(columns: list[str], spans: list[str] | None) -> list[str]:
    """Year columns under a row of span headers, each prefixed with its span: ["2022", "2021", "2022",
    "2021"] under "Three months ended | Twelve months ended" -> ["Three months ended 2022", ...]. Columns
    that already name a span, or that do not divide evenly among the spans, are left as they are."""
    if not spans or not columns or len(columns) % len(spans) or any(_SPAN.search(c) for c in columns):
        return columns
    per_span = len(columns) // len(spans)
    return [f"{spans[n // per_span]} {column}" for n, column in enumerate(columns)]


_DATE = re.compile(rf"\b(?P<month>{'|'.join(_MONTHS)})[a-z]*\.?\s+(?P<day>\d{{1,2}}),?\s+(?P<year>{YEAR})\b", re.I)
_FISCAL_YEAR_END = re.compile(rf"\bfiscal\s+years?\s+end(?:ed|ing|s)?\s+(?:on\s+)?{_DATE.pattern}", re.I)
"""How filings name their fiscal year: "the fiscal year ended January 28, 2023", "fiscal year ending June 30, 2024"."""
_WEEK_SLACK = 7
"""A 52/53-week year ends within a week of its month's end: "February 3, 2024" closes a January year."""


@lru_cache(maxsize=32_768)
def dates_named(text: str) -> frozenset[tuple[int, int, int]]:
    """The full dates ``text`` prints, as (year, month, day): "March 31, 2041" -> (2041, 3, 31)."""
    return frozenset(
        (int(m.group("year")), _MONTHS.index(m.group("month")[:3].lower()) + 1, int(m.group("day")))
        for m in _DATE.finditer(text)
    )


def starts_with_date(text: str) -> bool:
    """Whether ``text`` opens with a date written with its month's name ("May 31, 2030", "May 31 2030")."""
    return _DATE.match(text) is not None


def _month_of(m: re.Match[str]) -> int:
    """The month a date closes: a date in a month's first week closes the month before (52/53-week years)."""
    month = _MONTHS.index(m.group("month")[:3].lower()) + 1
    return (month - 2) % 12 + 1 if int(m.group("day")) <= _WEEK_SLACK else month


def fiscal_year_end_month(text: str) -> int | None:
    """The month a document's fiscal year ends in, from its own "fiscal year ended <date>" (the most
    frequent one), else None."""
    months = [_month_of(m) for m in _FISCAL_YEAR_END.finditer(text)]
    return max(set(months), key=months.count) if months else None


def fiscal_quarter(column: str, end_month: int) -> Period | None:
    """The fiscal quarter a "three months ended <date>" column covers, in a fiscal year that ends in
    ``end_month`` and is named by the calendar year it ends in (the filings' convention: Best Buy's
    "three months ended July 29, 2023" is Q2 of fiscal 2024, which ends in January 2024)."""
    date = _DATE.search(column)
    if span_months(column) != 3 or date is None:
        return None
    month, year = _month_of(date), int(date.group("year"))
    if month == 12 and int(date.group("day")) <= _WEEK_SLACK:
        year -= 1  # "January 2, 2022" closes December 2021
    fiscal_year = year if month <= end_month else year + 1
    return Period(fiscal_year, (month - end_month - 1) % 12 // 3 + 1)


def fiscal_instant(column: str, end_month: int) -> tuple[Period, ...]:
    """The fiscal periods a balance-sheet date column closes ("July 29, 2023", no span before it), in a fiscal
    year that ends in ``end_month``: the quarter it ends, and the year too when it is the year's last day. A
    retailer whose year ends in late January prints the balance that closes its second fiscal quarter under a
    late-July date of the calendar year before; read as that calendar year it would answer for the wrong fiscal
    year. () when the column is not a lone date at a quarter's end."""
    date = _DATE.search(column)
    if date is None or _SPAN.search(column) or len(_DATE.sub(" ", column).split()) > 2:
        return ()
    month, year = _month_of(date), int(date.group("year"))
    if (month - end_month) % 3:
        return ()  # not a quarter's end of this fiscal calendar
    if month == 12 and int(date.group("day")) <= _WEEK_SLACK:
        year -= 1
    fiscal_year = year if month <= end_month else year + 1
    quarter = (month - end_month - 1) % 12 // 3 + 1
    return (Period(fiscal_year), Period(fiscal_year, 4)) if quarter == 4 else (Period(fiscal_year, quarter),)
