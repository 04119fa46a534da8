"""Lists in the evidence: a lead sentence and the items that follow it.

A sentence that ends in a colon ("The committee reviews the following matters:", "We use three kinds
of sensors:") announces what follows it; quoted alone it says only that something follows. A reader
reads on: the items in the same passage ("(a) ... (b) ..."), then the passages after it in the same
section, bullet lines, numbered lines, bold run-in paragraphs, across a page break, skipping the
tables and figures set between them (a float is placed where it fits, not where the prose is). The
reader stops at a heading, at another section, or at the first plain paragraph after the items.
Pure: reads ``Unit`` objects of the evidence (``engine.reading.passages``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import replace

from engine.contracts import EvidenceItem
from engine.documents.layout import has_rows
from engine.documents.list_marks import (
    ITEM_MARK,
    counted_items,
    introduces_list,
    opens_with_head,
    points_ahead,
    resumes_list,
    sibling_of,
)
from engine.documents.text import (
    COUNT_THEN,
    count_value,
    enumeration_count,
    find_cardinality_cue,
    normalize_space,
    stems,
)
from engine.reading.passages import Unit

MAX_ITEMS = 12
"""Items read under one lead: enough for any list a person asks about; a longer run is a table's body."""
ITEM_SENTENCES = 2
"""An item passage is quoted by its first sentences (its term and what it says of it), not whole."""
MAX_PAGES_ON = 1
"""A list runs across one page break at most (its continuation); further on is another passage."""

_INLINE = re.compile(r"(?:^|(?<=[\s;:,]))\((?:[a-h]|[ivx]{1,4}|\d{1,2})\)\s+")
"""Items run together in one sentence: "... as follows: (a) the audit plan; (b) the fees; (c) ..."."""
_FOLLOWING = re.compile(
    r"\b(?:the following(?:\s+[\w\-]+){0,3}|as follows|include|includes|including|are|is|were)\s*:\s*$", re.I
)
"""What a lead says of what follows: "the following:", "the following three steps:", "as follows:", "include:"."""


def block_position(unit: Unit) -> tuple[str, int, int]:
    """(document, page, block) of a unit's passage, from its chunk id ("doc:p8:b10" -> block 10)."""
    match = re.search(r":b(\d+)$", unit.item.chunk_id)
    return unit.item.doc_id, unit.item.page, int(match.group(1)) if match else 0


_TABLE_LEAD = re.compile(r"\b(?:the following (?:table|schedule|list)|the table below)\b", re.IGNORECASE)
"""A sentence that points at the table right after it ("The following table summarizes ...")."""


def is_lead(text: str) -> bool:
    """Whether a sentence announces items: it ends with a colon (what follows is what it announces), or it
    points at the table that follows it."""
    text = normalize_space(text)
    return len(text.split()) >= 3 and (text.endswith(":") or bool(_TABLE_LEAD.search(text)))


def list_leads(units: Sequence[Unit]) -> set[int]:
    """The ids of the units that lead a list: a lead sentence (``is_lead``), or a short paragraph of one sentence
    that two list items of its section follow in the evidence (``documents.list_marks.introduces_list``: "You can
    help the pump last longer." over "• Flush it monthly.")."""
    passages = {block_position(u): u.item for u in units}
    leads: set[int] = set()
    for unit in units:
        if is_lead(unit.text) or _heads_items(unit, passages):
            leads.add(id(unit))
        elif normalize_space(unit.item.text) == unit.text or points_ahead(unit.text):
            # a sentence inside a paragraph introduces nothing, unless it points at the following things
            doc, page, block = block_position(unit)
            after = [passages[k] for k in ((doc, page, block + 1), (doc, page, block + 2)) if k in passages]
            if introduces_list(unit.item, after):
                leads.add(id(unit))
    return leads


def _heads_items(unit: Unit, passages: dict[tuple[str, int, int], EvidenceItem]) -> bool:
    """A heading right over two list items of its section ("SPARE PARTS" over "• Impeller", "• Shaft seal kit"):
    it introduces them as a lead sentence would, and the section's items are its list."""
    if unit.item.kind != "heading":
        return False
    doc, page, block = block_position(unit)
    after = [passages.get((doc, page, block + n)) for n in (1, 2)]
    return all(a is not None and a.kind == "list_item" and a.section_path == unit.item.section_path for a in after)


def _group_asked(unit: Unit, asked: AbstractSet[str]) -> bool:
    """A heading every word of which the question names (``asked``: its stems)."""
    words = stems(unit.text)
    return unit.item.kind == "heading" and bool(words) and words <= asked


def announces(text: str) -> bool:
    """A lead that names what follows ("the following", "as follows:", "include:") or counts it."""
    return is_lead(text) and (bool(_FOLLOWING.search(normalize_space(text))) or find_cardinality_cue(text) is not None)


def is_item(unit: Unit) -> bool:
    """A unit that opens an item: a marker, a list-item block, or a run-in term at its start (bold, or a title-case
    head ending in a full stop)."""
    if unit.item.kind == "list_item" or ITEM_MARK.match(unit.text):
        return True
    if any(t.strip() and unit.text.startswith(t.strip()) for t in unit.item.bold_terms):
        return True
    passage = normalize_space(unit.item.text)
    return opens_with_head(passage) and passage.startswith(unit.text[:20])  # the passage's first unit only


def _is_float(unit: Unit) -> bool:
    """A table or figure set between a list's lead and its items (its caption or its rows, "cell | cell"); not a
    list printed in columns, each cell an item ("• Leeds | • York", a list-item passage)."""
    if unit.item.kind == "list_item":
        return False
    return unit.item.kind in ("caption", "table", "figure") or unit.is_row or has_rows(unit.item.text)


def inline_items(text: str) -> list[str]:
    """Items written in one sentence after their markers: "(a) X; (b) Y" -> ["(a) X", "(b) Y"]."""
    starts = [m.start() for m in _INLINE.finditer(text)]
    if len(starts) < 2:
        return []
    ends = [*starts[1:], len(text)]
    return [text[s:e].strip(" ;,.") for s, e in zip(starts, ends, strict=True) if text[s:e].strip(" ;,.")]


def items_after(lead: Unit, units: Sequence[Unit], limit: int = MAX_ITEMS) -> list[Unit]:
    """The items under ``lead`` among ``units`` (module doc): one unit per item, in document order.

    In the lead's own passage, the units after it are its items when they carry markers (or, for a
    passage that is itself a list, every line after the lead). In later passages of its section, the
    first unit of each item-shaped passage is an item; a passage that is no item ends the list, unless
    nothing was found yet and it is the very next passage (the table or paragraph the lead announces).
    """
    doc, page, block = block_position(lead)
    section = lead.item.section_path
    own = _in_text_order([u for u in units if u.item.chunk_id == lead.item.chunk_id and u.order == lead.order])
    at = next((i for i, u in enumerate(own) if u is lead), None)
    after = own[at + 1 :] if at is not None else []
    items = [u for u in after if is_item(u)] or (after if lead.item.kind == "list_item" else [])
    later: dict[str, Unit] = {}
    for unit in units:
        u_doc, u_page, u_block = block_position(unit)
        if u_doc != doc or (u_page, u_block) <= (page, block) or u_page > page + MAX_PAGES_ON:
            continue
        if unit.item.section_path != section and unit.item.kind != "caption":
            continue
        if unit.item.chunk_id not in later or _at(unit) < _at(later[unit.item.chunk_id]):
            later[unit.item.chunk_id] = unit  # the passage's first unit stands for it
    following = sorted(later.values(), key=block_position)
    for position, unit in enumerate(following):
        if len(items) >= limit:
            break
        if unit.item.kind == "heading":
            break
        if _is_float(unit):
            captions_only = all(p.item.kind == "caption" for p in following[:position])
            if not items and captions_only and _TABLE_LEAD.search(lead.text):  # the table it points at: its rows
                rows = [u for u in units if u.item.chunk_id == unit.item.chunk_id and u.order == unit.order]
                rows = _in_text_order([u for u in rows if u.is_row])
                if rows:
                    return rows[:limit]
            continue
        if is_item(unit):
            if items and sibling_of(lead.text, unit.text):
                break
            items.append(_item_unit(unit, units))
            continue
        if not items and position == 0 and _next_block(lead, unit):
            items.append(unit)  # the one passage the lead announces: a table or a paragraph
        elif items and _between_items(items[-1], unit, following[position + 1 : position + 2]):
            continue  # an item's second paragraph, printed between it and the next item
        elif (
            items
            and counted_items(lead.text) > len(items)
            and any(map(is_item, following[position + 1 : position + 4]))
        ):
            continue  # an item's own paragraphs (an example, a prompt) while the lead's count is not reached
        break
    return items[:limit]


def _between_items(last: Unit, unit: Unit, nxt: Sequence[Unit]) -> bool:
    """Whether a plain passage sits right between two list items (``list_marks.resumes_list``; the evidence holds
    the block after each)."""
    return bool(nxt) and resumes_list(last.item, nxt[0].item) and _next_block(last, unit) and _next_block(unit, nxt[0])


def _item_unit(first: Unit, units: Sequence[Unit]) -> Unit:
    """An item passage as one unit: its first ``ITEM_SENTENCES`` sentences (a run-in term and its first
    sentence say little of what the item does)."""
    own = [u for u in units if u.item.chunk_id == first.item.chunk_id and u.order == first.order and not u.is_row]
    own = _in_text_order(own)
    if len(own) < 2 or first.item.kind == "list_item":
        return first
    return replace(first, text=" ".join(u.text for u in own[:ITEM_SENTENCES]))


def _at(unit: Unit) -> int:
    """Where a unit starts in its passage's text (units may come ranked by score, not in reading order)."""
    found = normalize_space(unit.item.text).find(unit.text[:40])
    return found if found >= 0 else len(unit.item.text)


def _in_text_order(units: list[Unit]) -> list[Unit]:
    return sorted(units, key=_at)


def in_reading_order(units: Sequence[Unit]) -> list[Unit]:
    """``units`` as the document prints them: by page, passage and place in the passage (not by evidence rank)."""
    return sorted(units, key=lambda u: (*block_position(u), _at(u)))


def _next_block(lead: Unit, unit: Unit) -> bool:
    _, page, block = block_position(lead)
    _, u_page, u_block = block_position(unit)
    return (u_page == page and u_block == block + 1) or (u_page == page + 1 and u_block == 0)


def split_inline(text: str) -> tuple[str, list[str]] | None:
    """A sentence that announces and holds its items ("... as follows: (a) X; (b) Y.", "... has two parts: the
    pump and the valve.") as (lead, items)."""
    for colon in (m.start() for m in re.finditer(":", text)):  # a run-in title may come first ("2) Parts: it has ...:")
        head, rest = text[:colon], text[colon + 1 :]
        items = inline_items(rest)
        found = (f"{head}:", items) if len(items) >= 2 else _counted_enumeration(head, rest)
        if found is not None:
            return found
    for dash in re.finditer(r"\s[–—-]\s", text):  # "there are four committees – A, B, C and D": counted, as a colon
        found = _counted_enumeration(text[: dash.start()], text[dash.end() :])
        if found is not None:
            return found
    for verb in _COPULA_LIST.finditer(text):  # "... five segments. The segments are Retail, Cargo and Energy."
        found = _counted_enumeration(text[: verb.end()].rstrip(), text[verb.end() :], names=True)
        if found is not None:
            return found
    return None


_COPULA_LIST = re.compile(r"\b(?:are|were|include|includes)\s+(?=[A-Z])")
"""A verb that names a counted subject's items ("Its five segments are Retail, Cargo, ..."), when they are names."""


MAX_INLINE_ITEM_WORDS = 6
"""An item named inline is a name ("the Crawler", "grid search"), not a clause."""


_RELATIVE = re.compile(r",\s*(?:which|who|whose|where)\b[^,;]*")
"""A relative clause set off by commas after an item ("deep berths, which take tankers,"): it describes the item."""


def _counted_enumeration(head: str, rest: str, names: bool = False) -> tuple[str, list[str]] | None:
    """Items named after a colon ("A and B", "A, B and C") by a lead that counts exactly as many ("consists of
    two agents:"): the count is what tells a list from a clause that merely holds an "and". Items whose names
    hold an "and" ("Safety and Graphics, Health Care, and Consumer") are split at the commas when that gives
    the count. ``names``: every item must be a name (capitalised), as after a verb rather than a colon."""
    rest = _RELATIVE.sub("", rest)  # "A, which ..., and B, which ...": the items are A and B
    counts = {count_value(m.group("count")) for m in _COUNTED.finditer(head)}
    for parts in (_and_parts(rest), _comma_parts(rest)):
        fits = len(parts) >= 2 and len(parts) in counts and all(len(p.split()) <= MAX_INLINE_ITEM_WORDS for p in parts)
        if fits and (not names or all(p[:1].isupper() for p in parts)):
            return f"{normalize_space(head)}:", parts
    return None


def _comma_parts(rest: str) -> list[str]:
    """The items of "A, B and C, D" (or "A; B and C; D") split at commas or semicolons only, the last one's "and"
    dropped; up to the sentence's end."""
    sentence = re.split(r"(?<=[a-z)])\.\s|\.$", rest.strip(), maxsplit=1)[0]
    pieces = [p.strip() for p in re.split(r"[,;]", sentence)]
    if ";" not in sentence and not re.match(r"(?:and|or)\s", pieces[-1]):
        return []  # "A, B and C" without a comma before its "and" is split at the "and" (``_and_parts``)
    parts = [re.sub(r"^(?:and|or)\s+", "", p) for p in pieces]
    return [p for p in parts if p]


def _and_parts(rest: str) -> list[str]:
    """The items of "A, B and C" split at commas and "and"/"or", up to the item after the last "and"."""
    pieces = re.split(r"(,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)", rest.strip().rstrip("."))
    parts: list[str] = []
    for separator, part in zip(["", *pieces[1::2]], pieces[0::2], strict=True):
        if part.strip():
            parts.append(part.strip())
        if re.search(r"\b(?:and|or)\s+$", separator):
            break  # "A, B and C, as shown in Figure 3": the "and" marks the last item; what follows is a clause
    return parts


_COUNTED = re.compile(COUNT_THEN + r"(?P<noun>[A-Za-z\-]{3,})\b", re.I)
"""A count and the noun it counts within two words ("five weekly checks", "three types of sensors")."""


def counts_without_items(text: str, subject: AbstractSet[str]) -> bool:
    """Whether a sentence only announces or counts the items a listing question asks for ("The crew runs five
    checks each week.", "We use the following sensors:") and names none of them: it tells how many, or that
    some follow, which is no answer to "which ...?". Text after a colon, or a run of commas, names items."""
    text = normalize_space(text)
    if is_lead(text):
        return True
    _, colon, rest = text.partition(":")
    if (colon and rest.strip()) or text.count(",") >= 2:
        return False
    for match in _COUNTED.finditer(text):
        value = enumeration_count(match.group("count"))
        if value is not None and stems(match.group("noun")) & subject:
            return True
    cue = find_cardinality_cue(text)  # "three types of regularization" counts the techniques asked
    return cue is not None and bool(subject & stems(text))


def best_lead(
    units: Sequence[Unit], floor: float, subject: AbstractSet[str] = frozenset(), asked: AbstractSet[str] = frozenset()
) -> tuple[Unit, list[Unit]] | None:
    """The best lead with items under it, and those items. A lead must score at least ``floor`` unless it
    names the listed ``subject`` (stems of "regularization techniques": "three types of regularization:"
    is the list asked for, whatever else scores higher); one that names what follows ("the following", a
    count) comes before one that only ends in a colon. First of all comes a heading every word of which the
    question names (``asked``: its stems): a list grouped under headings ("Northern Region" over its depots), and
    the question asks for one group's items."""
    leading = list_leads(units)
    groups = {id(u) for u in units if id(u) in leading and _group_asked(u, asked)}
    leads = [u for u in units if (u.coverage > 0 or id(u) in groups) and id(u) in leading]
    names = {id(u) for u in leads if subject & stems(u.text)}
    leads = sorted((u for u in leads if id(u) in names or u.score >= floor or id(u) in groups),
                   key=lambda u: (id(u) not in groups, id(u) not in names, not announces(u.text), -u.score))  # fmt: skip
    for lead in leads:
        items = items_after(lead, units)
        if items:
            return lead, items
    return None


__all__ = [
    "MAX_ITEMS",
    "announces",
    "best_lead",
    "block_position",
    "counts_without_items",
    "inline_items",
    "is_item",
    "is_lead",
    "items_after",
    "list_leads",
    "split_inline",
]
