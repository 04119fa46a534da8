"""Which number answers a value question: the cell whose label names the metric and whose column
(or sentence) names the period asked, never a neighbouring period or entity.

A ``ValueSpec`` is read from the question: the metric's terms (the question's own words and the
document words a glossary gives for them), the periods it names, and the scale it wants the answer
in ("in USD billions"). ``rank_cells`` scores every ``Cell`` the evidence holds against it. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from engine.documents.text import stems
from engine.reading.abbreviations import capital_forms, with_capital_forms
from engine.reading.answer_type import asks_difference
from engine.reading.brackets import names_bracket
from engine.reading.changes import states_change
from engine.reading.counts import counted_things, people_counted
from engine.reading.entities import Focus, focus_of, focus_score, named_words, names_all, owners, with_models
from engine.reading.item_labels import item_label, owners_share
from engine.reading.located_rows import booked_in_row
from engine.reading.measures import dimension_of, dimensions_asked, measure_fit
from engine.reading.part_sentences import unasked_part_sentence
from engine.reading.periods import dates_named
from engine.reading.sentence_values import OTHER_CLAUSE, nearness
from engine.reading.statement_sense import (
    OBJECT,
    SEGMENT,
    amount_for_share,
    balance_change,
    head_unasked,
    in_notes,
    in_primary_statement,
    outside_asked_part,
    outside_asked_segment,
    percent_unasked,
    qualified,
    segment_head,
    stated_change,
    total_for_per_share,
    unasked_per_share,
    unasked_summary,
)
from engine.reading.table_values import STATEMENT_TITLE, TOTAL_ROW, Cell
from engine.reading.value_cover import SCOPE_WORDS, cover_of, qualifier_terms, term_weights
from engine.reading.value_scoring import (
    RARITY_LABELS,
    column_word_bonuses,
    page_number,
    period_match,
    word_weights,
)
from engine.reading.value_spec import ValueSpec

MIN_LABEL_COVER = 0.5
"""A cell answers only when its label holds at least half of the metric's (weighted) terms."""


@dataclass(frozen=True)
class ValueMatch:
    """A cell scored against a spec."""

    cell: Cell
    score: float
    label_cover: float
    period_match: bool | None
    """True/False when the question names a period and the cell has one; None when either has none."""
    precision: float = 1.0
    """Share of the label's words the metric's names use ("Deferred revenue" for "revenue": 0.5)."""


def _core(label: str, spec: ValueSpec) -> set[str]:
    """The stems of a row label that name its line item: without its parentheses (note references, "(Notes 1
    and 3)", and abbreviations) and without the words that state its scope ("Total inventories") unless the
    question uses them ("total debt")."""
    wanted = set().union(*spec.terms, *spec.alternatives)
    label = item_label(label)
    return stems(re.sub(r"\([^)]*\)", " ", label)) - (SCOPE_WORDS - wanted) or stems(label)


def _precision(spec: ValueSpec, label: set[str]) -> float:
    """Share of a row label's words that the question (or a document phrase for it) uses."""
    if not label:
        return 0.0
    wanted = set().union(*spec.terms, *spec.alternatives) if (spec.terms or spec.alternatives) else set()
    return len(label & wanted) / len(label)


def _head_precision(spec: ValueSpec, cell: Cell, in_named: bool) -> float:
    """Precision of a row label without its trailing object ("Depreciation and amortization of property,
    equipment and intangibles", "Interest expense, net of amounts capitalized"): what a line item is
    *of* does not make it another item. Only when the question names the statement it is read in."""
    if not cell.is_row or not in_named:
        return 0.0
    head = OBJECT.sub("", cell.label)
    return _precision(spec, stems(head)) if head != cell.label else 0.0


def narrows(spec: ValueSpec, cell: Cell, others: Sequence[Cell] | None = None) -> bool:
    """Whether a row's label names a narrower item than the metric asked: a word of the label (outside
    parentheses, which hold abbreviations and units) that neither the question nor a document phrase for
    the metric uses ("Total lease assets" for "total assets", "Deferred revenue" for "revenue").

    A financial line item (one the glossary knows by other names) has many narrower items under it,
    so any extra word narrows it. Any other metric, given ``others`` (the other rows that name it), is
    narrowed only when one of them names it more plainly: where "Flight endurance" is a specification
    table's only name for endurance, it is the endurance, not a part of it.
    """
    extra = _extra_words(spec, cell)
    if not extra or others is None or spec.alternatives:
        return bool(extra)
    return any(o.is_row and o.label != cell.label and len(_extra_words(spec, o)) < len(extra) for o in others)


def _extra_words(spec: ValueSpec, cell: Cell) -> set[str]:
    if not cell.is_row or spec.is_empty:
        return set()
    wanted = set().union(*spec.terms, *spec.alternatives, stems(spec.question))
    own = stems(re.sub(r"\([^)]*\)", " ", item_label(cell.label)))  # the owners' share is the item itself
    return own - wanted - SCOPE_WORDS


def _extra_head_words(spec: ValueSpec, cell: Cell) -> set[str]:
    """The words a row label adds to a known line item, its trailing object left out ("Other income (loss),
    net" adds "other" and "loss" to "net income"; "Depreciation and amortization of property" adds nothing):
    each one moves the row further from the item asked, when a plainer row names it."""
    return _extra_words(spec, replace(cell, label=OBJECT.sub("", owners_share(cell.label))))


def narrower_head(spec: ValueSpec, cell: Cell) -> bool:
    """Whether a row label adds words to the item named even without what it is of ("Operating cash flows from
    operating leases" for the operating cash flow; not "Depreciation and amortization of property")."""
    return bool(_extra_head_words(spec, cell))


def broader(spec: ValueSpec, cell: Cell) -> bool:
    """Whether a row (or a sentence) read through a document phrase names a broader item than the metric
    asked: the question's term for it qualifies the line item ("Comirnaty revenue", "comparable sales")
    with words none of which the label (a sentence is its own label), its column, section or table title holds
    ("Revenues" of the whole company). A row that prints part of the qualification ("Comparable Sales" for "the
    comparable sales change") names the qualified item, not the broader one."""
    if not spec.alternatives:
        return False
    named = stems(f"{cell.label} {cell.column} {cell.context} {cell.caption}")  # a table's title names its rows' item
    qualifying = [term - spec.triggers - SCOPE_WORDS for term in spec.terms if term & spec.triggers]
    return any(words and not words & named for words in qualifying)


def _in_named_statement(cell: Cell, named: Sequence[re.Pattern[str]]) -> bool:
    """Whether the cell is read in a financial statement the question names ("from the cash flow statement")."""
    return any(title.search(cell.context) for title in named)


def _other_segment(cell: Cell, named: set[str]) -> bool:
    """Whether the cell is read in a segment's table or section whose name shares no word with ``named``
    (the question's stems): the figures of one segment never answer for the company, nor for another."""
    for m in SEGMENT.finditer(f"{cell.context} {cell.column}"):
        words = stems(segment_head(m))
        if words and not words & named:
            return True
    return False


def _nearness(cell: Cell, spec: ValueSpec) -> float:
    """For a number in a sentence, how near the metric it sits (``sentence_values.nearness``)."""
    return nearness(cell, set().union(*spec.terms, *spec.alternatives))


NAMED_FIT = 0.8
"""When some cell names what the question qualifies its metric with, a cell that does leads by this much and one
that does not trails by it: the company's total never answers for a product, segment or region named."""
PART_TOTAL = 1.2
"""A table's total row, when a row of the same table names the part the question asks for ("Harbour" over "Total
revenue"): the part's own row answers, even when the table's lead sentence names every part."""


_WITHOUT = re.compile(r"\b(?:without|excluding|w/o)\b", re.I)
WITHOUT_MISMATCH = 0.5
"""A row that names its thing without something ("Lynx without tides", "Sales excluding fuel") when the question does
not, or the other way round: stop words to the label's cover, yet they name the other row of the pair."""

STATED_DIFFERENCE = 0.4
"""For a question that asks by how much two things differ, what a number its sentence states as the difference
gains ("outran the Heron 2 by 14.5 km") over a level the sentence also states ("a range of 310.5 km")."""


FULL_COVER = 0.99
"""A label that names the whole metric asked (a rounding margin under 1)."""


_OF_HEAD = re.compile(r"\b([A-Za-z]+) of ([A-Za-z]+)")


def measures_another(column: str, asked: set[str]) -> bool:
    """Whether a column's header measures another thing of the item asked: "Cost of revenue" heads the cost of each
    revenue row below it, never the revenue a question asks for (its head word is not asked, its object is)."""
    return any(
        not stems(m.group(1)) & asked and stems(m.group(1)) and stems(m.group(2)) & asked
        for m in _OF_HEAD.finditer(column)
    )


def rank_cells(spec: ValueSpec, cells: Sequence[Cell]) -> list[ValueMatch]:
    """Cells that name the metric, best first (label, then period, then rows over prose)."""
    if spec.is_empty or not cells:
        return []
    labels = [stems(c.label) for c in cells]
    weights = term_weights(spec.terms, labels)
    distinct = {frozenset(label) for label in labels}
    rarity = word_weights(spec.terms, [set(label) for label in distinct]) if len(distinct) >= RARITY_LABELS else None
    latest = max((p.year for c in cells for p in c.periods), default=None)
    page_rank = {key: n for n, key in enumerate(dict.fromkeys((c.doc_id, c.page) for c in cells))}
    exact = set(spec.terms) | set(spec.alternatives)
    phrases = set(spec.alternatives) - set(spec.terms)  # a document phrase names the metric, not what narrows it
    entities = Focus(entities=focus_of(spec.question).entities)
    statements = spec.statements_named
    question_stems = stems(spec.question)
    asked = question_stems.union(*spec.terms, *spec.alternatives)
    dimensions = dimensions_asked(spec.question)
    qualifiers = qualifier_terms(
        spec, (label | stems(c.column) for c, label in zip(cells, labels, strict=True) if c.is_row)
    )
    differs = asks_difference(spec.question)
    without = bool(_WITHOUT.search(spec.question))
    names = [bool(spec.named) and names_all(f"{c.label} {c.column} {c.context} {c.caption}", spec.named) for c in cells]
    naming = any(names)  # some cell names what the question qualifies its metric with
    bracketed = any(c.is_row and names_bracket(c.label, spec.question) for c in cells)
    part_rows = {c.chunk_id for c in cells if c.is_row and spec.named and names_all(c.label, spec.named)}
    matches: list[ValueMatch] = []
    covers = cover_of(spec, weights, rarity, qualifiers)
    proper = owners(spec.question) | stems(" ".join(named_words(spec.question)))  # names written ("Dana Lund's")
    term_words = set().union(*spec.terms)
    counted = counted_things(spec.question)
    named_stems = stems(" ".join(spec.named))
    forms = capital_forms(spec.question)  # "TQA" heads the column of the "TimeQA" asked
    dates = dates_named(spec.question)
    dated_rows = {(c.chunk_id, c.quote) for c in cells if c.is_row and c.periods} if spec.periods else set()
    for cell, label, named in zip(cells, labels, names, strict=True):
        # the column may name part of the metric too ("Mean turbidity" under "Heron 3 flights"), and so may the
        # table's numbered caption ("Table 4: Stops per hundred hours")
        # a row labelled by the very thing named ("Dana Lund | 231,400" for Dana Lund's pay) names no metric: its
        # column, caption and section title do ("Total ($)" under "Director Compensation Table")
        titled = stems(cell.context) if cell.is_row and label and label <= proper and not label & term_words else set()
        if counted and not cell.is_row and people_counted(cell.measure, cell.label, counted):
            label = label | counted  # "employed 8,300 people" counts the employees asked
        # a segment's table sits under the segment's heading: its rows name the metric only, the heading the part
        heading_names = stems(cell.context) & named_stems if cell.is_row and named else set()
        # a sentence giving a measure of the kind asked ("wait 30 minutes" for "how long") under a section heading
        # that names what is measured ("Skin temperature"): the heading says what the sentence is about
        topic = stems(cell.context) & term_words if dimensions and dimension_of(cell.measure) in dimensions else set()
        another = cell.is_row and measures_another(cell.column, asked)  # "Cost of revenue" over a revenue row
        column = "" if another else cell.column  # a column measuring another thing names no item asked
        cover = covers(
            label | with_capital_forms(with_models(stems(f"{column} {cell.caption}")), forms) | titled | heading_names
            if cell.is_row
            else label | topic | stems(cell.lead)
        )
        if cover < MIN_LABEL_COVER or page_number(cell):
            continue
        if cell.is_row and not cell.periods and (cell.chunk_id, cell.quote) in dated_rows:
            continue  # a period asked: a row's undated column beside its period columns is a change, not a period's
        # a column dated the very day the question names ("the quarter ended March 31, 2041") is the period asked
        matched = True if cell.is_row and dates & dates_named(cell.column) else period_match(spec.periods, cell)
        core = _core(cell.label, spec) if cell.is_row else label
        score = 2.0 * cover + (0.6 * _precision(spec, core) if cell.is_row else 0.0)
        if matched is True:
            score += 1.0
        elif matched is False:
            score -= 1.5  # a neighbouring period must not lead the answer
        elif spec.periods and not cell.is_row and not cell.periods:
            score -= 0.4  # a sentence that names no period may speak of any
        if not spec.periods and latest is not None and any(p.year == latest for p in cell.periods):
            score += 0.3  # no period asked: the latest one reported
        near = 0.2 if cell.is_row else _nearness(cell, spec)
        if near == OTHER_CLAUSE:
            continue  # "Half rate it safe, while 24% rate it crowded": 24% is not the share rating it safe
        score += near
        # "3.5 days" for "how long", not "300,000 steps"; a row's unit may be printed in its header
        score += measure_fit(dimensions, cell.measure, cell.is_row, f"{cell.label} {cell.column} {cell.caption}")
        if naming:  # "Zorbex revenue": the row naming Zorbex, not the company's revenues
            score += NAMED_FIT if named else -NAMED_FIT
        if bracketed:  # "of those earning $50,000-$74,999": that bracket's row, not the other brackets'
            score += NAMED_FIT if cell.is_row and names_bracket(cell.label, spec.question) else -NAMED_FIT
        # the label is the metric's very name, and names what the question narrows it to
        label_set = frozenset(label)
        score += (
            0.3 if cell.is_row and label_set in exact and (cover >= FULL_COVER or label_set not in phrases) else 0.0
        )
        if cell.is_row and TOTAL_ROW.match(cell.label):  # the table's total, not one segment's, unless one is asked
            score += -PART_TOTAL if cell.chunk_id in part_rows else 0.25
        # "Net income attributable to <the company>" over the consolidated "Net income" above it: the owners' share
        # is the company's net income (what EPS and returns on equity divide), the other includes minority holders
        score += 0.4 if cell.is_row and owners_share(cell.label) != cell.label else 0.0
        in_named = _in_named_statement(cell, statements)
        primary = STATEMENT_TITLE.search(cell.context) or in_primary_statement(cell.context)
        score += 0.35 if primary else 0.0  # a financial statement over a discussion
        score -= 0.3 if in_notes(cell, spec.question) else 0.0  # a note's table restates the statement's row
        # a row labelled with the very part the question names ("Zorbex" in a segment's table) is that part's own
        own_name = cell.is_row and bool(spec.named) and names_all(cell.label, spec.named)
        score -= 1.0 if unasked_summary(cell, spec.question) and not own_name else 0.0  # a guarantor group's net sales
        score -= 1.0 if unasked_part_sentence(cell, spec.question) else 0.0  # "..., the Coastal Segment employs"
        # the company's figure for a segment's, a joint venture's, a guarantor group's
        part = outside_asked_segment(cell, spec.question) or outside_asked_part(cell, spec.question)
        score -= 1.2 if part else 0.0
        score -= 1.0 if unasked_per_share(cell, spec.question) else 0.0  # earnings per share for net earnings
        score -= 1.5 if total_for_per_share(cell, spec.question) else 0.0  # net earnings for earnings per share: never
        score -= 1.0 if balance_change(cell, spec.question) else 0.0  # a receivable's change, not its balance
        score -= 1.0 if stated_change(cell, spec.question) else 0.0  # "EPS increased by $0.18"
        score += STATED_DIFFERENCE if differs and not cell.is_row and states_change(cell.label, cell.position) else 0
        score -= 1.5 if percent_unasked(cell, spec.question) else 0.0  # % of sales for R&D
        score -= 1.0 if another else 0.0  # the cost of a revenue row is never the revenue asked
        score -= 1.5 if booked_in_row(cell, spec.question) else 0.0  # a hedge's gain booked in net sales
        score -= 1.5 if amount_for_share(cell, spec.question) else 0.0  # R&D in dollars for its share of sales
        score -= 0.6 if head_unasked(cell, asked) else 0.0  # "Income tax benefits" for the income tax expense
        score -= (
            WITHOUT_MISMATCH if bool(_WITHOUT.search(cell.label)) != without else 0.0
        )  # "X without Y" for "X with Y"
        extra = _extra_head_words(spec, cell) if spec.alternatives else set()
        score -= 0.2 * min(3, len(extra)) + (0.8 if qualified(cell, spec.question) else 0.0)  # "Other income"
        score += 0.4 if in_named else 0.0  # "D&A (from the cash flow statement)"
        score -= 1.5 if broader(spec, cell) else 0.0  # the whole company's revenue for "comparable sales"
        score -= (
            0.6 if _other_segment(cell, question_stems) and not own_name else 0.0
        )  # a segment's row for the company
        # earlier (better retrieved) pages first; a page beyond the first ten weighs no less than the tenth
        score -= 0.03 * min(10, page_rank[(cell.doc_id, cell.page)])
        if entities.entities:  # the Heron 3's row never answers for the Heron 2
            verdict = focus_score(f"{cell.label} {cell.column} {cell.context}", entities)
            score += 0.4 * verdict - (1.2 if verdict < 0 else 0.0)
        precise = (
            1.0 if frozenset(label) in exact else max(_precision(spec, core), _head_precision(spec, cell, in_named))
        )
        matches.append(
            ValueMatch(cell=cell, score=round(score, 4), label_cover=round(cover, 3), period_match=matched,
                       precision=round(precise, 3))
        )  # fmt: skip
    bonuses = column_word_bonuses([(m.cell, m.period_match) for m in matches], question_stems)
    scored = [replace(m, score=round(m.score + b, 4)) if b else m for m, b in zip(matches, bonuses, strict=True)]
    return sorted(scored, key=lambda m: -m.score)


def unnamed_doubt(spec: ValueSpec, cell: Cell) -> tuple[str, ...]:
    """A doubt when the question qualifies its metric by names ("the Zorbex model's F1") that a sentence read for
    it (with its section) never prints: the figure may be another thing's. A statement's row is the document's own
    figure for its line item, whoever the question names as its owner."""
    where = f"{cell.label} {cell.column} {cell.context} {cell.caption}"
    if cell.is_row or not spec.named or names_all(where, spec.named):
        return ()
    return (f"its passage does not name {' '.join(spec.named)}",)
