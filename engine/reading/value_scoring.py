"""Scoring helpers of ``value_match``: which question words restate what another says, how rare a label's words
are among a document's rows, and whether a cell's column holds the period asked. Pure."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from engine.documents.text import stems
from engine.reading.periods import Period, without_periods
from engine.reading.sentence_values import own_words
from engine.reading.statement_sense import in_primary_statement
from engine.reading.table_values import SCALE_FACTOR, Cell

_ADJUSTED = re.compile(r"\b(?<!un)adjusted\b", re.I)
_NON_GAAP = re.compile(r"\bnon[-\s]?(?:gaap|ifrs)\b", re.I)


def basis_restated(question: str) -> set[str]:
    """The stems of "non-GAAP" when the question also says "adjusted": both say the measure is the company's own
    restatement, which filings label "Adjusted EBITDA" under a non-GAAP heading, so the label need not repeat it.
    Alone, "non-GAAP" stays a term (it tells the adjusted figure from the reported one)."""
    if not (_ADJUSTED.search(question) and _NON_GAAP.search(question)):
        return set()
    return {w for m in _NON_GAAP.finditer(question) for w in stems(m.group(0))}


MOVED = re.compile(r"(?:changed|increased|decreased|grew|grown|declined|rose|risen|fell|fallen|improved|dropped)", re.I)
"""A keyword that is the verb of how a metric moved ("how much has the tax rate changed"): it asks for the change,
it names no line item (the noun, "change in working capital", may)."""

RARITY_LABELS = 20
"""Distinct row labels needed before a word's rarity among them is read: a page or two of rows tells no common
word from a rare one (a document's statements and notes print hundreds)."""


def word_weights(terms: Sequence[frozenset[str]], labels: Sequence[set[str]]) -> dict[str, float]:
    """Each word of the terms weighed by its rarity among the labels: within "restructuring costs", the label
    that holds only "costs" ("Cost of sales", one of many cost rows) names the common half of the item, the one
    that holds "restructuring" the half that tells it from its siblings."""
    n = max(1, len(labels))
    words = {w for term in terms for w in term}
    return {w: max(0.2, math.log((n + 1) / (sum(1 for label in labels if w in label) + 0.5))) for w in words}


def term_share(term: frozenset[str], label: set[str], rarity: dict[str, float] | None) -> float:
    """The share of a term's words a label holds, each word weighed by its rarity when ``rarity`` is given."""
    if rarity is None:
        return len(term & label) / len(term)
    return sum(rarity.get(w, 1.0) for w in term & label) / sum(rarity.get(w, 1.0) for w in term)


def period_match(asked: Sequence[Period], cell: Cell) -> bool | None:
    """Whether the cell's period is one asked for; a quarter, or the months to date ("nine months ended"),
    never stands for a fiscal year. Unknown (None) for a column of "three months ended" a date in the
    year of a quarter asked, or the year before: which fiscal quarter it is depends on the company's
    fiscal calendar (a retailer whose year ends in late January prints "three months ended July 30, 2016" for the
    second quarter of its fiscal 2017)."""
    if not asked or not cell.periods:
        return None
    if _compares_years(cell):
        return False  # "2031 vs. 2030": the change between two years is neither year's value
    if any(period == want for period in cell.periods for want in asked):
        return True
    if any(p.months == 3 and w.quarter and 0 <= w.year - p.year <= 1 for p in cell.periods for w in asked):
        return None
    return False


_COMPARISON = re.compile(
    r"\bvs\.?|\bversus\b|\bcompared\b|\bchange\b|\bincrease\b|\bdecrease\b|\bgrowth\b|%|[-–—]", re.I
)
"""What a column header prints between or around two years when its figures are the change from one to the other
("2031 vs. 2030", "Change 2031-2030", "% Increase 2031 compared to 2030")."""


def _compares_years(cell: Cell) -> bool:
    """A column of changes between years: its header names two years or more and a comparison. Its figures
    (the difference, the growth) are no single year's amount, so neither year it names may claim them."""
    years = {p.year for p in cell.periods}
    return len(years) >= 2 and bool(_COMPARISON.search(re.sub(r"\d", " ", cell.column)))


def in_wanted_scale(cell: Cell, wanted: str) -> str | None:
    """The cell's value restated in the scale the question asks for ("$4,625 million" -> "$4.625 billion")."""
    if not wanted or cell.unit == "%" or cell.scale == wanted or not cell.scale:
        return None
    value = cell.scaled / SCALE_FACTOR[wanted]
    digits = 3 if abs(value) < 100 else 1
    sign = "-" if value < 0 else ""
    return f"{sign}{cell.unit}{abs(value):,.{digits}f} {wanted}"


def _places(raw: str) -> int:
    match = re.search(r"\.(\d+)", raw)
    return len(match.group(1)) if match else 0


def agreeing(best: Cell, others: Sequence[Cell], limit: int = 2) -> tuple[Cell, ...]:
    """Other printings of the value read, when it is not read from a primary statement: rows of the same label and
    period on other pages whose figure agrees with it to the coarser one's rounding (a note's 22.9% and the
    discussion's 23%). Citing them shows where else the filing states the figure; a row that disagrees is never
    cited as agreeing."""
    if not best.is_row or not best.periods or in_primary_statement(best.context):
        return ()  # a primary statement's figure is the authority: its other printings add nothing to cite
    label = stems(best.label)
    found: dict[int, Cell] = {}
    for cell in others:
        if (
            not cell.is_row
            or cell.page == best.page
            or cell.page in found
            or cell.doc_id != best.doc_id
            or cell.unit != best.unit
            or cell.periods[:1] != best.periods[:1]
            or stems(cell.label) != label
        ):
            continue  # fmt: skip
        slack = 0.5 * 10 ** -min(_places(cell.raw), _places(best.raw))
        if cell.unit != "%":
            slack *= SCALE_FACTOR.get(cell.scale or best.scale, 1.0)
        if abs(cell.scaled - best.scaled) <= slack + 1e-9:
            found[cell.page] = cell
        if len(found) >= limit:
            break
    return tuple(found.values())


_CONTENTS = re.compile(r"\s*(?:table of )?contents\s*", re.I)


def page_number(cell: Cell) -> bool:
    """A row of a table of contents: its figure is the page a title starts on (a bare whole number under a
    "Contents" heading), never a value of what the title names."""
    return cell.is_row and bool(_CONTENTS.fullmatch(cell.context)) and not (cell.unit or cell.scale or cell.measure)


_WANTED_SCALE = re.compile(r"\b(?:in|as)\s+(?:(?:USD|US\$|\$|EUR|dollars?)\s+)?(thousands|millions|billions)\b", re.I)


def wanted_scale(text: str) -> str:
    """The scale a question wants its answer in ("Answer in USD millions" -> "million"), else ""."""
    scale = _WANTED_SCALE.search(text)
    return {"thousands": "thousand", "millions": "million", "billions": "billion"}.get(
        scale.group(1).lower() if scale else "", ""
    )


COLUMN_WORD = 0.1
"""Score per question word a cell's column header names (at most three): small, it tells apart the columns of one
period ("Boats Launched", "Boats at Season End") and never outweighs the label or the period."""


def _column_words(cell: Cell) -> set[str]:
    return {w for w in stems(without_periods(cell.column)) if not w.isdigit()}


def column_word_bonuses(found: Sequence[tuple[Cell, bool | None]], question: set[str]) -> list[float]:
    """What each (cell, period match) gains over the others of its row or sentence: of one row's columns in the same
    period, the one whose header shares more of the question's words leads ("Boats at Season End" over "Boats
    Launched" for the boats a fleet had at the season's end); of one sentence's numbers, the one whose own phrase
    does ("0.72 for the second task"). Of columns sharing as many, the one whose header adds fewer words the
    question does not use ("Archive" over "Deep Archive" for the archive tier). Across rows the label decides."""
    owns = [_own_words(cell) & question for cell, _ in found]
    extras = [len(_column_words(cell) - question) if cell.is_row else 0 for cell, _ in found]
    groups: dict[tuple[str, str, bool | None], list[tuple[set[str], int]]] = {}
    for (cell, matched), own, extra in zip(found, owns, extras, strict=True):
        groups.setdefault((cell.chunk_id, cell.label, matched), []).append((own, extra))
    bonuses = []
    for (cell, matched), own, extra in zip(found, owns, extras, strict=True):
        group = groups[(cell.chunk_id, cell.label, matched)]
        shared = set.intersection(*(o for o, _ in group))  # tell none apart
        fewest = min(e for o, e in group if o == own)
        bonuses.append(COLUMN_WORD * min(3, len(own - shared)) - COLUMN_EXTRA * min(3, extra - fewest))
    return bonuses


COLUMN_EXTRA = 0.02
"""What a column header gives up per word the question does not use, against a column of the same row that
shares as many of the question's words: a tie-break, never more than a tenth of a shared word's gain."""


def _own_words(cell: Cell) -> set[str]:
    """A row's column header, or the phrase a prose number's preposition opens ("0.72 for the second task")."""
    return _column_words(cell) if cell.is_row else own_words(cell)
