"""The difference between two comparison sides' values: which is higher and by how much, when both are read
exactly (the same line item on each side, or each side's own row for the item asked), and for two periods the
growth from the earlier one. Also the test that a value read is exact: the metric, period and kind asked.
"""

from __future__ import annotations

import re
from dataclasses import replace

from engine.contracts import ComparisonSide, QuestionPart
from engine.documents.text import stems
from engine.reading.periods import periods_in
from engine.reading.signed_amounts import amount_spent
from engine.reading.table_rows import label_year
from engine.reading.table_values import SCALE_FACTOR, Cell
from engine.reading.value_answer import ValueAnswer

Pair = tuple[ComparisonSide | None, QuestionPart | None]
"""A comparison side and a question part, either absent: what one value is read for."""

GOOD_COVER = 0.7
"""A value's row label (with its column) must name most of the metric, its terms weighed by rarity, for the
answer to be complete."""


def exact(value: ValueAnswer) -> bool:
    """The value is the metric asked, for the period asked, of the kind asked."""
    return (
        value.period_ok and value.label_cover >= GOOD_COVER and value.kind_ok and not value.narrower
        and not value.doubts  # a percentage, a per-share figure, a partial table's row: never claimed complete
    )  # fmt: skip


def same_line_item(values: list[tuple[Pair, ValueAnswer]]) -> bool:
    """Every side's value is read from a row of the same name, for the period asked: the comparison's
    line item, found in each document (one row of one name is weak; the same row in each is not)."""
    labels = {_line_item(v.cells[0], p[0]) for p, v in values if len(v.cells) == 1 and v.cells[0].is_row}
    return len(labels) == 1 and all(len(v.cells) == 1 and v.cells[0].is_row and v.period_ok for _, v in values)


def _line_item(cell: Cell, side: ComparisonSide | None = None) -> frozenset[str]:
    """What a row's value measures: its label, or its column when the label is the row's year ("1890 | 2,039"
    under "Number of Farms") or the side's own name ("Dana Lund | 231,400" under "Total ($)")."""
    own_name = side is not None and stems(cell.label) <= stems(side.label)
    return frozenset(stems(cell.column if label_year(cell.label) or own_name else cell.label))


def _alike_items(values: list[tuple[Pair, ValueAnswer]]) -> bool:
    """Whether rows read for the sides name one item in words they share ("Revenues" and "Total revenue"): a
    company's "Revenue" and a region's "APAC" row are two items, whatever each was read for."""
    items = [_line_item(v.cells[0], p[0]) for p, v in values if v.cells]
    return len(items) < 2 or bool(frozenset.intersection(*items))


MIXED_SCALE_DECIMALS = 3
"""Decimals of a gap between figures printed in two scales, stated in the larger: "116.174 million" keeps the
thousands the smaller one printed."""
MIN_LEAD_WORDS = 3
"""Words two sentences must share before their numbers to say the same of each side: "sales were" is too little."""


def parallel_sentences(values: list[tuple[Pair, ValueAnswer]]) -> bool:
    """Two sides each read from a sentence that says the same of it ("In 2031 the Harbour unit made 76% of
    sales", "In 2031 the Inland unit made 24% of sales"): the sentences' words, numbers and the sides' names
    aside, are the same (or the same up to the number), so the two values measure one thing."""
    if len(values) != 2 or not all(len(v.cells) == 1 and not v.cells[0].is_row and v.period_ok for _, v in values):
        return False
    names = set().union(*(stems(pair[0].label) for pair, _ in values if pair[0] is not None))

    def said(text: str) -> set[str]:
        return {w for w in stems(text) - names if not any(c.isdigit() for c in w)}

    words = [said(v.cells[0].label) for _, v in values]
    if words[0] and words[0] == words[1]:
        return True
    # or the same up to the number, each going on in its own way ("..., was 9.5%, up from ..." / "down from ...")
    leads = [said(v.cells[0].label[: v.cells[0].position]) for _, v in values if v.cells[0].position >= 0]
    return len(leads) == 2 and len(leads[0]) >= MIN_LEAD_WORDS and leads[0] == leads[1]


def one_sentence(values: list[tuple[Pair, ValueAnswer]]) -> bool:
    """Two named sides each read from another number of one sentence ("a margin of 33% for 2041, against 27%
    for 2040"): the sentence states both, of one measure."""
    if len(values) != 2 or not all(len(v.cells) == 1 and not v.cells[0].is_row and v.period_ok for _, v in values):
        return False
    (first, a), (second, b) = values
    ca, cb = a.cells[0], b.cells[0]
    same = ca.chunk_id == cb.chunk_id and ca.label == cb.label and ca.position != cb.position
    return same and first[0] is not None and second[0] is not None


def difference(found: list[tuple[Pair, ValueAnswer]], relative: bool = False) -> list[str]:
    """For two sides read from the same line item, or each from a table row read exactly as the item asked (a
    number in prose may be a quarter's where a year's is asked), or from parallel sentences or one sentence, in the
    same unit:
    which is higher, and by how much; when the question asks for a percentage (``relative``), also the first
    side's difference as a share of the second's value ("A is 4.07% above B": the side named last is the base
    it is compared to)."""
    exact_rows = all(exact(v) and len(v.cells) == 1 and v.cells[0].is_row for _, v in found) and _alike_items(found)
    if len(found) != 2 or not (same_line_item(found) or exact_rows or parallel_sentences(found) or one_sentence(found)):
        return []  # each side's own row for the item asked ("Revenues", "Total revenue"), read exactly, compares
    (first, a), (second, b) = found
    ca, cb = a.cells[0], b.cells[0]
    if first[0] is None or second[0] is None or ca.unit != cb.unit or (ca.unit == "%" and ca.scale != cb.scale):
        return []
    if amount_spent(ca) and amount_spent(cb):  # the larger outflow is the higher spending, not the lower number
        ca, cb = replace(ca, value=-ca.value), replace(cb, value=-cb.value)
    high, low, high_cell, low_cell = (
        (first[0], second[0], ca, cb) if ca.scaled >= cb.scaled else (second[0], first[0], cb, ca)
    )
    label = a.cells[0].label if a.cells[0].is_row else ""
    what = f" in {label[:1].lower()}{label[1:]}" if label and (first[1] is not None) else ""
    if high_cell.bound or low_cell.bound:  # "about 25 min" against "under 5 min": no exact gap
        return [f"{high.label} is higher{what} ({high_cell.display()} against {low_cell.display()})"]
    if high_cell.scaled == low_cell.scaled:
        return [f"{high.label} and {low.label} are equal: {high_cell.display()}"]
    # two scales ("$998 million" against "$881,826 thousand"): the gap in the larger, as an analyst states it
    scale = max((high_cell.scale, low_cell.scale), key=lambda s: SCALE_FACTOR.get(s, 1.0))
    gap = (high_cell.scaled - low_cell.scaled) / SCALE_FACTOR.get(scale, 1.0)
    measure = f" {high_cell.measure}" if high_cell.measure and high_cell.measure == low_cell.measure else ""
    number = f"{gap:,.{decimals_of(high_cell, low_cell)}f}"
    if high_cell.scale != low_cell.scale:
        number = f"{gap:,.{MIXED_SCALE_DECIMALS}f}".rstrip("0").rstrip(".")
    if high_cell.unit == "%":
        shown = f"{number} percentage points"
    else:
        shown = f"{high_cell.unit}{number}{' ' + scale if scale else ''}{measure}"
    line = f"{high.label} is higher by {shown}{what} ({high_cell.display()} against {low_cell.display()})"
    line += period_growth(found, high_cell.unit) if not relative else ""
    if relative and high_cell.unit != "%" and cb.scaled:
        share = 100.0 * (ca.scaled - cb.scaled) / abs(cb.scaled)
        line += f"; {first[0].label} is {abs(share):.2f}% {'above' if share > 0 else 'below'} {second[0].label}"
    return [line]


def period_growth(found: list[tuple[Pair, ValueAnswer]], unit: str) -> str:
    """For two periods' amounts ("fiscal 2031", "fiscal 2029"), the change as a share of the earlier: "; +15.0% from
    fiscal 2029" (analysts state growth both ways); "" for other sides or percentages."""
    dated = [(periods_in(pair[0].label), v.cells[0]) for pair, v in found if pair[0] is not None]
    if unit == "%" or len(dated) != 2 or not all(len(p) == 1 for p, _ in dated) or dated[0][0] == dated[1][0]:
        return ""
    (_, earlier), (_, later) = sorted(dated, key=lambda d: (d[0][0].year, d[0][0].quarter or 0))
    label = next(pair[0].label for pair, v in found if pair[0] is not None and v.cells[0] is earlier)
    if not earlier.scaled:
        return ""
    return f"; {(later.scaled - earlier.scaled) / abs(earlier.scaled) * 100.0:+.1f}% from {label}"


def decimals_of(*cells: Cell) -> int:
    """The most decimal places any of the cells prints."""
    places = [re.search(r"\.(\d+)", c.raw) for c in cells]
    return max((len(m.group(1)) for m in places if m), default=0)
