"""Table of contents for the parser: outline cleaning, heading anchors, page ranges, section paths.

Internal to :mod:`engine.bricks.parsing`. An *anchor* is where a section starts: ``(page, unit
index on that page)``; index -1 means "top of the page" (the heading was not found in the text).
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass

from engine.bricks.layout import Unit, section_number
from engine.contracts import TocEntry, TocSource

logger = logging.getLogger(__name__)

FOOT_SHARE = 0.85
"""A heading whose top is below this share of the page height sits at the page foot."""

_NON_ALNUM = re.compile(r"[^a-z0-9]+")
_LEADING_NUMBER = re.compile(r"^\s*(?:(?:item|section|chapter|part|appendix)\s+)?(?:\d+[a-z]?(?:\.\d+)*|[a-z](?:\.\d+)+)"
                             r"[.:)]?\s+", re.IGNORECASE)  # fmt: skip


@dataclass(slots=True)
class _Entry:
    level: int
    title: str
    page: int
    order: int
    anchor: int = -1
    number: str | None = None
    foot: bool = False
    guessed: bool = False  # the outline gave no valid page; placed after the previous entry


def _norm(text: str) -> str:
    return _NON_ALNUM.sub("", _LEADING_NUMBER.sub("", text.lower(), count=1))


def clean_outline(raw: list, page_count: int) -> list[_Entry]:
    """Outline rows with bad pages clamped, empty titles dropped and level jumps flattened."""
    entries: list[_Entry] = []
    prev_level = 0
    prev_page = 1
    for row in raw:
        try:
            level, page = int(row[0]), int(row[2])
            title = " ".join(row[1].split()) if isinstance(row[1], str) else ""
        except (TypeError, ValueError, IndexError):
            continue
        if not title or not any(c.isalnum() for c in title):
            continue
        guessed = page < 1 or page > page_count
        if page < 1:
            page = prev_page
        page = min(page, page_count)
        level = max(1, min(level, prev_level + 1))
        entries.append(_Entry(level, title[:300], page, len(entries), guessed=guessed))
        prev_level, prev_page = level, page
    return entries


def _anchor_outline(entries: list[_Entry], units_by_page: list[list[Unit]]) -> None:
    used: set[tuple[int, int]] = set()
    for entry in entries:
        target = _norm(entry.title)
        if not target:
            continue
        units = units_by_page[entry.page - 1]
        found = _match(units, target, used, headings_only=True)
        if found is None and len(target) >= 4:
            found = _match(units, target, used, headings_only=False)
        if found is None and entry.guessed:
            found = _search_all(entry, units_by_page, target, used)
            units = units_by_page[entry.page - 1]
        if found is None:
            if entry.guessed:
                entry.anchor = 1 << 30  # after everything else on the previous entry's page
            continue
        used.add((entry.page, found))
        entry.anchor = found
        unit = units[found]
        entry.number = section_number(entry.title) or section_number(unit.text)
        entry.foot = unit.page_height > 0 and unit.y0 >= FOOT_SHARE * unit.page_height
    for entry in entries:
        if entry.number is None:
            entry.number = section_number(entry.title)


def _search_all(entry: _Entry, units_by_page: list[list[Unit]], target: str, used: set) -> int | None:
    for page, units in enumerate(units_by_page, 1):
        found = _match(units, target, used, headings_only=True)
        if found is not None:
            logger.info("outline entry %r had no valid page; found its heading on page %d", entry.title, page)
            entry.page = page
            return found
    return None


def _match(units: list[Unit], target: str, used: set, headings_only: bool) -> int | None:
    for i, unit in enumerate(units):
        if (unit.page, i) in used or (headings_only and unit.kind != "heading"):
            continue
        text = _norm(unit.text[: len(target) * 2 + 40])
        if text == target or (text.startswith(target) and (headings_only or unit.bold_terms)):
            return i
    return None


def _numbered_level(text: str, number: str) -> int:
    keyword = text.split(None, 1)[0].lower()
    if keyword == "part":
        return 1
    if keyword == "item":
        return 2
    return number.count(".") + 1


def _heading_entries(units_by_page: list[list[Unit]]) -> list[_Entry]:
    """Entries from detected headings: numbered ones by depth, the others below them by font size."""
    heads = [(p, i, u) for p, units in enumerate(units_by_page, 1) for i, u in enumerate(units) if u.kind == "heading"]
    numbers = [section_number(u.text) for _, _, u in heads]
    base = max((_numbered_level(u.text, n) for (_, _, u), n in zip(heads, numbers, strict=True) if n), default=0)
    sizes = sorted({round(u.size * 2) / 2 for _, _, u in heads}, reverse=True)
    entries: list[_Entry] = []
    for (page, i, unit), number in zip(heads, numbers, strict=True):
        if number:
            level = _numbered_level(unit.text, number)
        else:
            level = min(base + 3, base + sizes.index(round(unit.size * 2) / 2) + 1)
        foot = unit.page_height > 0 and unit.y0 >= FOOT_SHARE * unit.page_height
        entries.append(_Entry(level, unit.text[:300], page, len(entries), i, number, foot))
    prev = 0
    for entry in entries:
        entry.level = max(1, min(entry.level, prev + 1))
        prev = entry.level
    return entries


def _ranges(entries: list[_Entry], page_count: int) -> list[TocEntry]:
    ordered = sorted(entries, key=lambda e: (e.page, e.anchor, e.order))
    ends: dict[int, int] = {}
    for pos, entry in enumerate(ordered):
        end = page_count
        for later in ordered[pos + 1 :]:
            if later.level <= entry.level:
                end = later.page
                break
        if entry.foot and end == entry.page and entry.page < page_count:
            end = entry.page + 1
        ends[entry.order] = max(entry.page, end)
    return [
        TocEntry(level=e.level, title=e.title, number=e.number, start_page=e.page, end_page=ends[e.order])
        for e in sorted(entries, key=lambda e: e.order)
    ]


def _paths(entries: list[_Entry], units_by_page: list[list[Unit]]) -> list[list[tuple[str, ...]]]:
    ordered = sorted(entries, key=lambda e: (e.page, e.anchor, e.order))
    paths: list[list[tuple[str, ...]]] = []
    stack: list[str] = []
    pos = 0
    for page, units in enumerate(units_by_page, 1):
        page_paths: list[tuple[str, ...]] = []
        for i in range(-1, len(units)):
            while pos < len(ordered) and (ordered[pos].page, ordered[pos].anchor) <= (page, i):
                entry = ordered[pos]
                stack = [*stack[: entry.level - 1], entry.title]
                pos += 1
            if i >= 0:
                page_paths.append(tuple(stack))
        paths.append(page_paths)
    return paths


def build_toc(
    raw_outline: list, units_by_page: list[list[Unit]]
) -> tuple[tuple[TocEntry, ...], TocSource, list[list[tuple[str, ...]]]]:
    """The table of contents, where it came from, and the section path of every unit.

    The outline is used when it has at least two valid entries; otherwise detected headings.
    """
    page_count = len(units_by_page)
    entries = clean_outline(raw_outline, page_count) if page_count else []
    source: TocSource = "outline"
    if len(entries) >= 2:
        _anchor_outline(entries, units_by_page)
    else:
        if raw_outline:
            logger.info("outline has %d usable entries; using detected headings", len(entries))
        entries = _heading_entries(units_by_page)
        source = "headings" if entries else "none"
    return tuple(_ranges(entries, page_count)), source, _paths(entries, units_by_page)
