"""Superlatives among options the question lists: "Among ferries, tugs and barges, which earned the most?",
"Which route had the highest revenue: North Sound, East Quay or Harbour Loop?".

Each option is read from the table row whose label names it (of several, the row naming most of the
question's other words, then the shortest), in the column of the asked year (the first column printed when
the question names none); the pick is the extreme of those values, signed as printed ("lost the least" is the
largest of negative amounts). Nothing is picked unless every option names a row of one table. Pure functions.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from engine.documents.text import stem, stems
from engine.reading.document_units import in_table_currency
from engine.reading.extremes import ExtremeAsk, named_count, question_terms
from engine.reading.lexicon import GENERIC
from engine.reading.metric_words import ASKING_STEMS
from engine.reading.periods import periods_in
from engine.reading.table_values import Cell

MIN_OPTIONS = 2
"""Two options or more ("which scores higher: A or B?", "Among A, B and C, which ...?"): each is read from its own
row, so an option with a longer name ("Kestrel (N=5)") is not read from a sibling row that shares its words."""
MAX_OPTION_WORDS = 4
"""An option is a short name ("pilotage works", "North Sound"); a longer run is a clause, not a list item."""

_AMONG = re.compile(r"^\W*among\s+(?:the\s+)?(?P<options>[^?]+?)\s*,\s*(?=(?:which|what|who)\b)", re.I)
_LISTED_AFTER = re.compile(r"\b(?:which|what)\b[^?:]*?:\s*(?P<options>[^?:]+?)\s*\??\s*$", re.I)
_SPLIT = re.compile(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+", re.I)


def listed_options(question: str) -> list[str]:
    """The options a question lists before "which" ("Among A, B, and C, which ...") or after a colon ("Which ...: A,
    B or C?"); [] for fewer than three short ones."""
    text = " ".join(question.split())
    found = _AMONG.search(text) or _LISTED_AFTER.search(text)
    if found is None:
        return []
    options = [o.strip(" .") for o in _SPLIT.split(found.group("options")) if o.strip(" .")]
    if len(options) < MIN_OPTIONS or any(len(o.split()) > MAX_OPTION_WORDS for o in options):
        return []
    return options


def _option_words(options: list[str]) -> list[tuple[str, ...]]:
    """Each option's words; a head noun only the last option prints is shared by all ("dredging, towage and
    pilotage works"), so the last option is named by its first word like the others."""
    words = [tuple(o.split()) for o in options]
    if all(len(w) == 1 for w in words[:-1]) and len(words[-1]) > 1:
        words[-1] = words[-1][:1]
    return words


@dataclass(frozen=True)
class OptionPick:
    """The extreme option, its cell, and every option's cell."""

    option: str
    cell: Cell
    among: tuple[tuple[str, Cell], ...]


def pick_option(ask: ExtremeAsk, question: str, tables: Sequence[Sequence[Cell]]) -> OptionPick | None:
    """The extreme of the options' values in the first table whose rows name every option (module doc)."""
    options = listed_options(question)
    if not options:
        return None
    terms = question_terms(question)
    asked = {p.year for p in periods_in(question)}
    measure = compared_by(question, options, terms)
    for table in tables:
        read = [_option_cell(words, table, terms, asked) for words in _option_words(options)]
        cells = [c for c in read if c is not None]
        if len(cells) != len(options) or len({(c.label, c.column) for c in cells}) != len(cells):
            continue
        if measure and not any(named_count(f"{c.label} {c.column} {c.caption} {c.context}", measure) for c in cells):
            continue  # the options' rows in a table of another measure ("net sales" for "more concentrated")
        pick_max = ask.direction in ("max", "best")
        option, cell = (max if pick_max else min)(zip(options, cells, strict=True), key=lambda oc: oc[1].value)
        return OptionPick(option, cell, tuple(zip(options, cells, strict=True)))
    return None


def _option_cell(words: tuple[str, ...], table: Sequence[Cell], terms: Sequence[str], asked: set[int]) -> Cell | None:
    """The cell of the row naming the option, in the asked year's column (else the column the question names)."""
    rows: dict[str, list[Cell]] = {}
    for cell in table:
        if cell.is_row and all(_named_loosely(cell.label, w) for w in words):
            rows.setdefault(cell.label, []).append(cell)
    if not rows:
        return None
    label = max(rows, key=lambda r: (named_count(r, terms), -len(r.split())))
    row = rows[label]
    if not asked:  # the column the question's words name most ("Rivers Dev"), else the first printed
        return max(row, key=lambda c: (named_count(c.column, terms), -row.index(c)))
    dated = [c for c in row if any(p.year in asked for p in c.periods)]  # of the asked year's, the one named most
    return max(dated, key=lambda c: (named_count(c.column, terms), -dated.index(c))) if dated else None


_KIND = re.compile(r"\b(?i:which|what)\s+(?:(?:[A-Z][\w&.'-]*|the)\s+)*(?P<kind>[a-z][\w-]*)")
"""The kind of thing the options are ("Which Kestrel route ...": route): their common noun, no measure."""


def compared_by(question: str, options: Sequence[str], terms: Sequence[str]) -> list[str]:
    """The question's lower-case content words outside its options and the options' kind ("concentrated", "customers"
    of "Which segment is more concentrated in a few customers: A or B?"): what the options are compared by."""
    kind = _KIND.search(question)
    skip = {w.lower() for o in options for w in o.split()} | ({kind.group("kind").lower()} if kind else set())
    skip |= GENERIC  # comparatives and superlatives say how to compare, not by what
    return [t for t in terms if t[:1].islower() and t.lower() not in skip and not stems(t) <= ASKING_STEMS]


_SHARED_STEM = 5
"""Letters two words' stems must share for a label to name an option in another form ("Operating activities" for
"operations", "Investments" for "investing"): the stemmer keeps the noun's and the verb's endings apart."""


def _named_loosely(label: str, word: str) -> bool:
    if named_count(label, (word,)):
        return True
    target = stem(word.lower())[:_SHARED_STEM]
    return len(target) == _SHARED_STEM and any(
        stem(part.lower()).startswith(target) for part in re.findall(r"[A-Za-z]+", label)
    )


def option_statement(pick: OptionPick, ask: ExtremeAsk) -> str:
    """ "operations: Total cash provided by operating activities, 2041: $1,200 million (the highest of 3 options;
    dredging: -$300 million; pilotage: -$700 million)." """
    word = "highest" if ask.direction in ("max", "best") else "lowest"
    cells = [c for _, c in pick.among]
    cell = in_table_currency(pick.cell, cells)
    column = f", {cell.column}" if cell.column else ""
    others = "; ".join(f"{o}: {in_table_currency(c, cells).display()}" for o, c in pick.among if c is not pick.cell)
    return f"{pick.option}: {cell.label}{column}: {cell.display()} (the {word} of {len(pick.among)} options; {others})."
