"""The "where" part of a question: the place (a table or figure, and its page) that shows what it asks.

"What techniques do they use, and where do they show the effect on accuracy?" is answered in two parts:
the techniques, then a place. A place answers the second part when it shows the part's key term
("accuracy": in its caption, its rows or a passage naming it) and, when the part speaks of what the
answer listed before it ("they"), names one of those items. The place is stated with its page, the
caption's title and the sentence that says what it shows of the items.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from engine.contracts import QuestionPart
from engine.documents.text import find_references, normalize_space, stems
from engine.reading.passages import Unit
from engine.retrieval.places import Place, caption_reference, caption_title, group_places, shows

LOCATING_PART = re.compile(r"^(?:where|which (?:table|figure|section|page|chapter|part))\b", re.IGNORECASE)
"""A part that asks where something is shown: a table, figure or section answers it, and a sentence that
names none (nor its passage) does not say where."""
PRONOUN = re.compile(r"\b(?:they|them|these|those|their|it|its|this)\b", re.IGNORECASE)
"""A part whose subject is a pronoun speaks of what the answer listed before it."""


def part_key(keywords: Sequence[str]) -> set[str]:
    """The stems of a part's key term: a multi-word term, else an acronym or number, else its longest word."""
    key = min(keywords, key=lambda k: (" " not in k, not (k.isupper() or any(c.isdigit() for c in k)), -len(k)))
    return stems(key)


def located(unit: Unit) -> bool:
    """A unit that says where: a caption, a table row, or a sentence of a passage naming a table, figure
    or section."""
    return unit.item.kind in ("caption", "table") or unit.is_row or bool(find_references(unit.item.text))


def listed_terms(quotes: Iterable[tuple[str, Sequence[str]]]) -> list[set[str]]:
    """The stems of the items an answer lists, from its quotes and their chunks' bold terms: a quote that
    opens with its chunk's run-in term ("Label Smoothing During training ...") is an item, named by it."""
    terms: list[set[str]] = []
    for quote, bold in quotes:
        head = next((t.strip() for t in bold if t.strip() and quote.startswith(t.strip())), "")
        if head and stems(head) and stems(head) not in terms:
            terms.append(stems(head))
    return terms


def where_terms(part: QuestionPart, listed: Sequence[set[str]]) -> tuple[set[str], list[set[str]]]:
    """(the key term a place must show, the listed items one of which it must name): items only when the
    part points back at them with a pronoun ("where do they ..."); a part naming its own subject does not."""
    about = list(listed) if listed and PRONOUN.search(part.text) else []
    return part_key(part.keywords), about


def _places(units: Sequence[Unit]) -> dict[tuple[str, str], Place]:
    items = {u.item.chunk_id: u.item for u in units}
    return group_places(items.values())


def place_of(unit: Unit, places: dict[tuple[str, str], Place]) -> Place | None:
    """The place a unit belongs to: the one whose caption or body is its chunk, the one its sentence
    names, else the only one its passage names ("In rows (C) and (D) ..." in a passage on Table 3)."""
    for place in places.values():
        blocks = [place.caption, *place.body] if place.caption is not None else place.body
        if any(b.chunk_id == unit.item.chunk_id for b in blocks):
            return place
    named = [r for r in find_references(unit.text) if (unit.item.doc_id, r) in places]
    if not named:
        passage = [r for r in dict.fromkeys(find_references(unit.item.text)) if (unit.item.doc_id, r) in places]
        named = passage if len(passage) == 1 else []
    return places[(unit.item.doc_id, named[0])] if named else None


def place_shown(part: QuestionPart, cited: Sequence[Unit], units: Sequence[Unit], listed: Sequence[set[str]]) -> bool:
    """Whether a cited unit belongs to a place, captioned in the evidence, that shows what the part asks."""
    if not part.keywords:
        return False
    key, about = where_terms(part, listed)
    places = _places([*units, *cited])
    for unit in cited:
        place = place_of(unit, places)
        if place is not None and place.caption is not None and shows(place, key, about):
            return True
    return False


def where_units(part: QuestionPart, units: Sequence[Unit], listed: Sequence[set[str]]) -> list[Unit]:
    """The units that state the place answering a "where" part: the caption of the best place in the
    evidence (it names the most listed items, then the most passages name it), then the sentence of a
    passage naming it that speaks of the items (else of the key term). Empty when no place shows it."""
    if not part.keywords:
        return []
    key, about = where_terms(part, listed)
    places = _places(units)
    found = [p for p in places.values() if p.caption is not None and shows(p, key, about)]
    if not found:
        return []
    best = max(found, key=lambda p: (sum(1 for t in about if p.holds(t)), len(p.mentions)))
    caption = next((u for u in units if best.caption is not None and u.item.chunk_id == best.caption.chunk_id), None)
    if caption is None:
        return []
    mentions = {b.chunk_id for b in best.mentions}
    prose = [u for u in units if u.item.chunk_id in mentions and not u.is_row and len(u.text.split()) >= 6]
    wanted = list(about) or [key]
    saying = [u for u in prose if any(2 * len(t & stems(u.text)) >= len(t) for t in wanted)]
    return [caption, *saying[:1]]


def state_place(units: Sequence[Unit]) -> str:
    """The place as an answer line: "Table 3 (page 9): <its caption's title> <the sentence on the items>"."""
    if not units:
        return ""
    caption = units[0]
    reference = caption_reference(caption.item) or ""
    title = normalize_space(caption_title(caption.text))
    said = " ".join(normalize_space(u.text) for u in units[1:])
    head = f"{reference} (page {caption.item.page})" if reference else f"page {caption.item.page}"
    return " ".join(p for p in (f"{head}: {title}", said) if p)


__all__ = [
    "LOCATING_PART",
    "PRONOUN",
    "listed_terms",
    "located",
    "part_key",
    "place_of",
    "place_shown",
    "state_place",
    "where_terms",
    "where_units",
]
