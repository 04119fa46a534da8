"""Passages of evidence cut into sentences (prose) or rows (tables), and scored against a question.

Shared by the offline answer rule and the generation brick's supporting citations. A unit's
``coverage`` is the share of the question's terms it holds; its ``score`` weighs those terms by how
rare they are in the evidence, adds the retrieval score, and follows the question's shape (numbers
for value questions). Every unit's text occurs in its chunk (whitespace-normalised).
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import lru_cache

from engine.contracts import ComparisonSide, EvidenceItem, ParsedQuestion
from engine.documents.layout import ROW_SEPARATOR, header_row
from engine.documents.text import DOT_LEADERS, SPELLED_NUMBERS, frozen_stems, normalize_space, split_sentences, stems
from engine.reading.abbreviations import capital_forms, with_capital_forms
from engine.reading.answer_shape import WHERE_TITLE_BONUS, asked_form, shape_bonus
from engine.reading.entities import Focus, focus_of, focus_score
from engine.reading.periods import periods_in

NUMBER = re.compile(r"(?<![A-Za-z])[$€£]?\d[\d,]*(?:\.\d+)?%?")
_COUNT_WORD = re.compile(rf"\b(?:{'|'.join(w for w in SPELLED_NUMBERS if w != 'one')})\b", re.I)
"""Numbers written as words ("five modules"): prose states small counts this way, so a sentence holding
one states a value as much as one holding a digit. ("one" is left out: it is as often a pronoun.)"""
_CITED_YEAR = re.compile(r"\(\s*[A-Z][^()]{0,80}?\b(?:19|20)\d\d[a-z]?\s*\)|\bet al\.,?\s*(?:19|20)\d\d")
"""A reference's year ("(Ouyang et al., 2022)"): a citation, not a value the passage states."""


def stated_numbers(text: str, question_numbers: Collection[str] = ()) -> list[str]:
    """The values a text states: digits and number words, without references' years and the numbers the
    question itself holds."""
    text = _CITED_YEAR.sub(" ", text)
    digits = [n for n in NUMBER.findall(text) if n not in question_numbers]
    return digits + _COUNT_WORD.findall(text)


@dataclass
class Unit:
    """One candidate sentence or table row, with its chunk and score."""

    text: str
    item: EvidenceItem
    order: int
    coverage: float = 0.0
    anchor_coverage: float = 0.0
    weighted_coverage: float = 0.0
    """Share of the question's terms present, each weighted by its rarity in the evidence."""
    score: float = 0.0
    is_row: bool = False
    caption: str = ""
    lead_in: str = ""
    """The sentence that announces a table's rows ("... are expected to be paid as follows:"), when the
    evidence holds it: it names what the rows' numbers are; for a sentence opening with a pronoun, the
    sentence before it (``_POINTS_BACK``)."""


def _is_tabular(text: str, kind: str) -> bool:
    if kind == "table":
        return True
    lines = [line for line in text.splitlines() if line.strip()]
    numeric = sum(1 for line in lines if len(NUMBER.findall(line)) >= 2)
    return len(lines) >= 3 and numeric / len(lines) >= 0.5


def split_units(evidence: Sequence[EvidenceItem]) -> list[Unit]:
    """Sentences of prose chunks, lines of tabular chunks; every text occurs in its chunk (normalised)."""
    units: list[Unit] = []
    announcing = {item.chunk_id: item.text for item in evidence if item.text.rstrip().endswith(":")}
    for order, item in enumerate(evidence):
        parts, rows, caption = _parts(item.text, item.kind)
        lead_in = announcing.get(_previous_chunk_id(item.chunk_id), "") if rows else ""
        previous = ""
        for part in parts:
            if len(part) >= 2:
                before = previous if not rows and _POINTS_BACK.match(part) else lead_in
                units.append(Unit(text=part, item=item, order=order, is_row=rows, caption=caption, lead_in=before))
                previous = part
    return units


@lru_cache(maxsize=4096)
def _parts(text: str, kind: str) -> tuple[tuple[str, ...], bool, str]:
    """A chunk's units' texts, whether they are table rows, and the rows' header. Kept per chunk text: every
    reading of a question's evidence (its answer, its support, its checks, each pass) cuts the same chunks."""
    if _is_tabular(text, kind):
        lines = [normalize_space(line) for line in text.splitlines()]
        return tuple(lines), True, _header(lines)
    return tuple(_merge_run_ins(split_sentences(text))), False, ""


def _header(lines: Sequence[str]) -> str:
    """A table's header as its rows are read with: its first line, and the column names under it when that line
    only titles the table or states its scale ("(dollars in millions)" over "Year | Pension | Health care")."""
    if not lines:
        return ""
    if len(lines) > 1 and ROW_SEPARATOR not in lines[0] and header_row(list(lines[1:2])) == lines[1]:
        return f"{lines[0]} {lines[1]}"
    return lines[0]


CONTENTS_LINE_PENALTY = 0.6
"""A table-of-contents line ("Mission, Vision and Values ....... 3") holds a section's title words, so it matches a
question about the section as well as the section does, but says nothing of it: it leads only a where-question
("Which section ..."), which a contents line does answer."""

_POINTS_BACK = re.compile(r"^(?:It|Its|This|These|They|Their|Such|The latter|The former|He|She|His|Her)\b")
"""A sentence that opens with a pronoun speaks of what the sentence before it names ("It is charged on every
paved square metre" is about the levy named before; "She chairs the board" about the person named before): it
is matched, and quoted, with that sentence as its lead-in."""


def _previous_chunk_id(chunk_id: str) -> str:
    """The id of the chunk just before ``chunk_id`` on its page ("d:p94:b5" -> "d:p94:b4")."""
    head, _, block = chunk_id.rpartition(":b")
    return f"{head}:b{int(block) - 1}" if block.isdigit() else ""


def _merge_run_ins(parts: list[str]) -> list[str]:
    """Join a run-in header ("Median smoothing.") to the sentence that follows it."""
    merged: list[str] = []
    pending = ""
    for part in parts:
        if pending:
            part = f"{pending} {part}"
            pending = ""
        if len(part.split()) < 4 and part is not parts[-1]:
            pending = part
            continue
        merged.append(part)
    if pending:
        merged.append(pending)
    return merged


# --------------------------------------------------------------------------------------------
# Scoring
# --------------------------------------------------------------------------------------------


_FISCAL = re.compile(r"^fy'?((?:19|20)?\d\d)$")


def _plain(stem: str) -> str:
    """ "fy2018" -> "2018", "fy19" -> "2019": documents write the year, questions the fiscal label."""
    match = _FISCAL.match(stem)
    if not match:
        return stem
    year = match.group(1)
    return year if len(year) == 4 else f"20{year}"


def term_stems(terms: Sequence[str]) -> list[set[str]]:
    """The stems of each question term (fiscal labels read as years)."""
    return [s for s in ({_plain(x) for x in stems(t)} for t in terms) if s]


def label_share(label: str, unit: Unit) -> float:
    """Share of a side's label a unit names (in its text or its table's header row; a section title names
    every passage under it, so it tells none apart), a fiscal label read as its year ("FY2019" is
    written "2019")."""
    words = set().union(*term_stems([label]))
    return len(words & (stems(unit.text) | stems(unit.caption))) / max(1, len(words))


def question_terms(parsed: ParsedQuestion) -> list[set[str]]:
    """The stems of each of the question's keywords (of the whole question when it has none)."""
    return term_stems(parsed.keywords) or term_stems([parsed.original_question])


def unit_terms(unit: Unit) -> set[str]:
    """The stems a unit is matched on: its text, its chunk's section title, its table's header row and the
    sentence that announces the table."""
    return stems(unit.text) | stems(" ".join(unit.item.section_path[-1:])) | stems(unit.caption) | stems(unit.lead_in)


def mark_coverage(units: list[Unit], parsed: ParsedQuestion) -> None:
    """Fill only ``coverage`` (the share of the question's terms a unit holds) of every unit, in place."""
    keywords = question_terms(parsed)
    for unit in units:
        unit.coverage = coverage(keywords, unit_terms(unit))


def coverage(term_sets: list[set[str]], unit_stems: set[str]) -> float:
    if not term_sets:
        return 0.0
    return sum(len(t & unit_stems) / len(t) for t in term_sets) / len(term_sets)


def _item_stems(units: list[Unit]) -> list[frozenset[str]]:
    """The stems of each evidence chunk the units come from (the last unit's item of each chunk id), each
    chunk's text stemmed once however many units it was cut into."""
    items = {u.item.chunk_id: u.item for u in units}
    return [frozen_stems(item.text) for item in items.values()]


SELF_REFERENCE = re.compile(r"\b(?:[Tt]he Company|[Ww]e|[Oo]ur|us)\b")
"""How a document names its own author: a filing's "the Company", "we", "our"."""


def _self_named(unit: Unit, names: list[set[str]]) -> set[str]:
    """The question's names a passage refers to as its document's author: the passage says "the Company" or "we",
    and its file is named for the name ("Acme_2041_10K.pdf" for Acme)."""
    if not names or not SELF_REFERENCE.search(unit.text):
        return set()
    own = stems(unit.item.file_name.replace("_", " ").lower())  # "ACME_2041_10K.pdf": capitals are no acronym
    return {stem for name in names if name <= own for stem in name}


def _weights(term_sets: list[set[str]], items: list[frozenset[str]]) -> list[float]:
    """Inverse evidence frequency of each term: a term most passages share (the document's own
    subject, "Transformer" in the Transformer paper) tells less about which passage answers."""
    total = len(items)
    weights = []
    for term in term_sets:
        df = sum(1 for item_stems in items if 2 * len(term & item_stems) >= len(term))
        weights.append(max(0.1, math.log((total + 1) / (df + 0.5))))
    return weights


def _weighted_coverage(term_sets: list[set[str]], weights: list[float], unit_stems: set[str]) -> float:
    if not term_sets:
        return 0.0
    return sum(w * len(t & unit_stems) / len(t) for t, w in zip(term_sets, weights, strict=True)) / sum(weights)


def score_units(units: list[Unit], parsed: ParsedQuestion) -> None:
    """Fill coverage and score of every unit in place.

    ``coverage`` (share of the question's terms present) decides whether a sentence answers at
    all; the score weighs each term by how rare it is in the evidence.
    """
    keywords = question_terms(parsed)
    anchors = term_stems(parsed.retrieval.anchor_keywords) or keywords
    items = _item_stems(units)
    keyword_weights, anchor_weights = _weights(keywords, items), _weights(anchors, items)
    phrases = [k.lower() for k in parsed.keywords if " " in k]
    question_numbers = set(NUMBER.findall(parsed.original_question))
    top = max((u.item.score for u in units), default=0.0) or 1.0
    asked = focus_of(parsed.original_question)
    form, term = asked_form(parsed.original_question) if not parsed.asks_for_value else (None, "")
    names = term_stems([k for k in parsed.keywords if (k[:1].isupper() or k[:1].isdigit()) and not periods_in(k)])
    terms = [unit_terms(unit) | _self_named(unit, names) for unit in units]
    for unit, unit_stems in zip(units, terms, strict=True):
        unit.weighted_coverage = _weighted_coverage(keywords, keyword_weights, unit_stems)
    best_relevance = max((u.weighted_coverage for u in units), default=0.0) or 1.0
    for unit, unit_stems in zip(units, terms, strict=True):
        unit.coverage = coverage(keywords, unit_stems)
        unit.anchor_coverage = coverage(anchors, unit_stems)
        low = unit.text.lower()
        score = unit.weighted_coverage
        score += 0.8 * _weighted_coverage(anchors, anchor_weights, unit_stems)
        score += 0.3 * sum(1 for p in phrases if p in low) / max(1, len(phrases))
        score += 0.25 * max(0.0, unit.item.score) / top - 0.01 * unit.order
        words = len(unit.text.split())
        if parsed.asks_for_value:
            score += _value_shape(unit, question_numbers, relevance=unit.weighted_coverage / best_relevance)
        if words < 4 and not unit.is_row:
            score -= 0.3
        if words >= 6 and not unit.is_row and unit.text.rstrip().endswith((".", "!", "?")):
            score += 0.15  # a whole sentence reads better than a fragment of layout text
        if words > 80:
            score -= 0.2
        if unit.item.kind == "heading" and form == "where" and term and stems(term) <= stems(unit.text):
            score += WHERE_TITLE_BONUS  # the very title a where-question asks the place of: that place itself
        elif unit.item.kind == "heading":
            score -= 0.4  # a heading says little
        if form != "where" and DOT_LEADERS.search(unit.text):
            score -= CONTENTS_LINE_PENALTY
        if not asked.empty:
            score += _focus_bonus(unit, asked)
        if form is not None and not unit.is_row:
            score += shape_bonus(unit.text, form, term, " ".join(unit.item.section_path[-1:]))
        unit.score = score


def _value_shape(unit: Unit, question_numbers: set[str], relevance: float) -> float:
    """For a value question, a passage that states a value gains and one that states none loses; the gain
    grows with the passage's relevance (its weighted coverage against the best passage's), so a number
    in a passage about something else does not outweigh the passage that speaks of what is asked."""
    numbers = stated_numbers(unit.text, question_numbers)
    if not numbers:
        return -0.3
    gain = 0.45 + (0.2 if unit.is_row or unit.item.kind == "table" else 0.0)
    return gain * min(1.0, 0.4 + relevance)


def _focus_bonus(unit: Unit, asked: Focus) -> float:
    """A passage about a sibling of what is asked (the Heron 3 for the Heron 2, only other years than
    the one asked) never leads; one that names it gains a little."""
    context = f"{unit.text} {' '.join(unit.item.section_path)}"
    if unit.is_row:
        context = f"{context} {unit.caption}"
    verdict = focus_score(context, asked)
    if verdict < 0:
        return -0.6 if asked.entities and focus_score(context, Focus(entities=asked.entities)) < 0 else -0.3
    return 0.15 if verdict > 0 else 0.0


def side_question(parsed: ParsedQuestion, side: ComparisonSide) -> ParsedQuestion:
    """The question as one document side reads it: the side's own terms (no other side's name) plus
    the document words for them ("employed people" for "headcount"), no anchors of its own."""
    terms = tuple(dict.fromkeys([*(side.keywords or parsed.keywords), *parsed.retrieval.expansions]))
    retrieval = parsed.retrieval.model_copy(update={"anchor_keywords": ()})
    return parsed.model_copy(update={"keywords": terms, "retrieval": retrieval})


def side_units(evidence: Sequence[EvidenceItem], parsed: ParsedQuestion, side: ComparisonSide) -> list[Unit]:
    """The units of one document side's evidence, scored on the side's terms, that share a term with it."""
    own = [e for e in evidence if e.doc_id == side.doc_id and e.kind != "heading"]
    units = split_units(own)
    score_units(units, side_question(parsed, side))
    return [u for u in units if u.coverage > 0]


def with_caption(unit: Unit, question: str = "") -> str:
    """A unit as an answer quotes it: a table row with its header (and the one cell the question names)."""
    if unit.is_row and unit.caption and unit.caption != unit.text:
        cell = _named_cell(unit, question)
        if cell:
            return f"{cell} (table row: {unit.text}; columns: {unit.caption})"
        return f"{unit.text} ({unit.caption})"
    if not unit.is_row and unit.lead_in:  # a pronoun's sentence is read with the one naming what it stands for
        return f"{unit.lead_in} {unit.text}"
    return unit.text


def _named_cell(unit: Unit, question: str) -> str | None:
    """ "Mean turbidity, Heron 3: 4.6" when the question names one column of a row's header."""
    header = [c.strip() for c in unit.caption.split(" | ")]
    row = [c.strip() for c in unit.text.split(" | ")]
    if len(header) != len(row) or len(row) < 3:
        return None
    asked, forms = stems(question), capital_forms(question)
    words = {i: with_capital_forms(stems(name), forms) for i, name in enumerate(header) if i > 0 and len(name) > 1}
    named = {i: len(w) for i, w in words.items() if w and w <= asked}  # every word of the header is asked
    most = max(named.values(), default=0)
    best = [i for i, n in named.items() if n == most]  # "TQA Hard" over "TimeQA" for the hard part of TimeQA
    if len(best) != 1 or not row[best[0]]:
        return None
    return f"{row[0]}, {header[best[0]]}: {row[best[0]]}"
