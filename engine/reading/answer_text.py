"""How the offline answer states what it chose: sides, lists, and the clauses of a multi-part question.

The reader (``engine.reading.extractive``) chooses units (sentences, rows, list items), each with a
label: a side's label, ``ITEM_LABEL`` for an item under the lead sentence before it, ``CLAUSE_LABEL``
for a sentence added for a part of the question the others leave uncovered. This module writes them
out as a person reads an answer, and finds the clause sentences.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from engine.contracts import ParsedQuestion, QuestionPart
from engine.documents.list_marks import ITEM_MARK
from engine.documents.text import find_references, stems
from engine.reading.answer_shape import WHERE_QUESTION
from engine.reading.lists import split_inline
from engine.reading.passages import Unit, coverage, term_stems, with_caption
from engine.reading.signals import uncovered_parts
from engine.reading.where import LOCATING_PART, PRONOUN, located, part_key, state_place, where_units

CLAUSE_LABEL = "+"
"""Label of a sentence added for an uncovered part of the question (rendered after the main answer)."""
ITEM_LABEL = "·"
"""Label of a list item: rendered as a numbered line under the lead sentence before it."""
PLACE_LABEL = "@"
"""Label of the units stating the place that answers a "where" part (``engine.reading.where``): rendered
as one line, the place and its page first, after the main answer."""

LOCATING = LOCATING_PART
"""A part that asks where something is shown: a table, figure or section answers it, and a sentence that
names none (nor its passage) does not say where."""
_PRONOUN = PRONOUN


def render(parsed: ParsedQuestion, chosen: Sequence[tuple[str, Unit]], units: Sequence[Unit] = ()) -> str:
    """The answer's text: the main lines, then the clause sentences. A question asking where in the document
    something is gets each main line with its place: the section (its heading as printed) and page."""
    extra = [u for label, u in chosen if label == CLAUSE_LABEL]
    main = [(label, u) for label, u in chosen if label not in (CLAUSE_LABEL, PLACE_LABEL)]
    if WHERE_QUESTION.match(parsed.original_question) and len(parsed.parts) < 2:
        return "\n".join(_placed(u, units, parsed.original_question) for _, u in main)
    body = _render_main(parsed, main) if main else ""
    clauses = " ".join(_located(u, parsed.original_question) for u in extra)
    shown = state_place([u for label, u in chosen if label == PLACE_LABEL])
    return "\n".join(p for p in (body, clauses, shown) if p)


def _render_main(parsed: ParsedQuestion, chosen: Sequence[tuple[str, Unit]]) -> str:
    question = parsed.original_question
    if any(label not in ("", ITEM_LABEL) for label, _ in chosen):  # one line per side: "2018: ...", "2022: ..."
        by_side: dict[str, list[str]] = {}
        for label, unit in chosen:
            by_side.setdefault(label, []).append(with_caption(unit, question))
        return "\n".join(
            f"{label}: {' '.join(texts)}" if label else " ".join(texts) for label, texts in by_side.items()
        )
    lines: list[str] = []
    number = 0
    for label, unit in chosen:
        if label == ITEM_LABEL:
            number += 1
            lines.append(f"{number}. {ITEM_MARK.sub('', unit.text, count=1).lstrip()}")  # "1. Flush", not "1. • Flush"
            continue
        number = 0
        inline = split_inline(unit.text)
        if inline:  # "... as follows: (a) X; (b) Y." is a lead and its items: one line each
            lines += [inline[0], *(f"{i}. {text}" for i, text in enumerate(inline[1], start=1))]
        else:
            lines.append(_without_repeated_lead(unit, with_caption(unit, question), lines))
    listed = any(label == ITEM_LABEL for label, _ in chosen) or any(split_inline(u.text) for _, u in chosen)
    return "\n".join(lines) if listed else " ".join(lines)


def _without_repeated_lead(unit: Unit, quoted: str, lines: Sequence[str]) -> str:
    """A pronoun's sentence is quoted with the sentence naming what it stands for (``with_caption``), unless
    the answer already quotes that sentence on the line before: "The pump is red. The pump is red. It ..."."""
    if unit.lead_in and lines and lines[-1].endswith(unit.lead_in):
        return unit.text
    return quoted


def _placed(unit: Unit, units: Sequence[Unit], question: str) -> str:
    """A where-answer's line: the place, then what the unit says there (a heading, the place itself, once)."""
    where = place(unit, units)
    if unit.item.kind == "heading" and where.startswith(" ".join(unit.text.split())):
        return where
    return f"{where}: {with_caption(unit, question)}"


def place(unit: Unit, units: Sequence[Unit]) -> str:
    """Where a unit is: its section's heading as printed ("5.4 Regularization") when the evidence holds it,
    else its section's title, and its page."""
    section = unit.item.section_path
    heading = next((u.item.text for u in units if u.item.kind == "heading" and u.item.section_path == section), "")
    title = " ".join(heading.split()) or (section[-1] if section else "")
    return f"{title} (page {unit.item.page})" if title else f"page {unit.item.page}"


def distinct(chosen: Sequence[tuple[str, Unit]]) -> list[tuple[str, Unit]]:
    """``chosen`` without a unit that repeats the words of an earlier one under the same label (a manual prints
    the same step on two pages; the answer states it once). Each side of a comparison keeps its own quote,
    even when two documents word it alike."""
    seen: set[tuple[str, str]] = set()
    kept: list[tuple[str, Unit]] = []
    for label, unit in chosen:
        key = (label, " ".join(re.sub(r"[^\w\s]", " ", unit.text.lower()).split()))
        if key in seen:
            continue
        seen.add(key)
        kept.append((label, unit))
    return kept


def listed_count(chosen: Sequence[tuple[str, Unit]]) -> int:
    """Items the answer lists: items under a lead, or items written inline after one."""
    inline = sum(len(split[1]) for _, u in chosen if (split := split_inline(u.text)))
    return sum(1 for label, _ in chosen if label == ITEM_LABEL) + inline


def _located(unit: Unit, question: str) -> str:
    """A clause sentence; one from a passage that names one table or figure, where the sentence itself
    names none ("in rows (C) and (D) ..."), is prefixed with it: the passage speaks of that table."""
    text = with_caption(unit, question)
    if find_references(unit.text):
        return text
    named = list(dict.fromkeys(find_references(unit.item.text)))
    return f"{named[0]}: {text}" if len(named) == 1 else text


def _where_weight(unit: Unit) -> float:
    """How well a located unit says where something is shown: a table or figure (its caption, a row, a
    sentence of a passage naming one) shows results; a section reference points to where things are
    described, often back to the very passage that lists them."""
    shows = unit.item.kind in ("caption", "table") or unit.is_row
    return 0.5 if shows or any(not r.startswith("Section") for r in find_references(unit.item.text)) else 0.3


def item_terms(chosen: Sequence[tuple[str, Unit]]) -> list[set[str]]:
    """The stems of the items an answer lists (their bold run-in terms, else their first words): a
    later part's pronoun ("where do they ...") points back at them."""
    terms: list[set[str]] = []
    for label, unit in chosen:
        if label != ITEM_LABEL:
            continue
        bold = [t.strip() for t in unit.item.bold_terms if t.strip() and unit.text.startswith(t.strip())]
        head = bold[0] if bold else " ".join(re.sub(r"^\W*\w{0,4}[.)]\s*", "", unit.text).split()[:3])
        if stems(head):
            terms.append(stems(head))
    return terms


def cover_clauses(
    parts: Sequence[QuestionPart], parsed: ParsedQuestion, units: list[Unit], chosen: list[tuple[str, Unit]], limit: int
) -> list[tuple[str, Unit]]:
    """Add, for each part of a multi-part question no chosen sentence covers, its best sentence.

    A part is scored on its own key terms, with the question's anchors and the listed items as context
    (a pronoun like "they" points back at them); a part that asks *where* something is shown prefers
    captions, table text and sentences of passages that name a table or figure.
    """
    result = list(chosen)
    anchors = term_stems(parsed.retrieval.anchor_keywords or parsed.keywords)
    listed = item_terms(chosen)
    missing = set(uncovered_parts(parts, [u for _, u in result], units))
    items = sum(1 for label, _ in chosen if label == ITEM_LABEL)
    for part in (p for p in parts if p.text in missing):
        if len(result) >= limit + items:
            break
        terms = term_stems(part.keywords)
        if not terms:
            continue
        locating = bool(LOCATING.match(part.text))
        shown = where_units(part, units, listed) if locating else []
        if shown:  # the place that shows what the part asks (a table or figure, with its page) answers it
            result += [(PLACE_LABEL, u) for u in shown]
            continue
        key = part_key(part.keywords)
        back = bool(listed) and bool(_PRONOUN.search(part.text))  # "where do they ..." speaks of the items
        best, best_score = None, 0.0
        for unit in units:
            if any(unit is u or (unit.item.chunk_id == u.item.chunk_id and unit.text in u.text) for _, u in result):
                continue  # already quoted (an item passage is quoted by its first sentences)
            unit_stems = stems(unit.text) | stems(unit.caption)
            names_item = any(t & (unit_stems | stems(" ".join(unit.item.bold_terms))) for t in listed)
            if back and not names_item:
                continue  # a sentence about none of the listed items does not answer for them
            score = coverage(terms, unit_stems) + 0.5 * coverage(anchors, unit_stems) + (0.5 if names_item else 0.0)
            if locating:  # a place that shows what the part asks about: its key term in the passage or table
                shows = 2 * len(key & (stems(unit.item.text) | unit_stems)) >= len(key)
                score = score + _where_weight(unit) if located(unit) and shows else score / 2
            if score > best_score:
                best, best_score = unit, score
        if best is not None and best_score >= 0.5:
            result.append((CLAUSE_LABEL, best))
    return result


__all__ = [
    "CLAUSE_LABEL",
    "ITEM_LABEL",
    "PLACE_LABEL",
    "WHERE_QUESTION",
    "cover_clauses",
    "item_terms",
    "listed_count",
    "place",
    "render",
]
