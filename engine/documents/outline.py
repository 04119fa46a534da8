"""Table of contents for the parser: outline cleaning, heading anchors, page ranges, section paths.

Internal to :mod:`engine.documents.parsing`. An *anchor* is where a section starts: ``(page, unit
index on that page)``; index -1 means "top of the page" (the heading was not found in the text).
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass

from engine.contracts import TocEntry, TocSource
from engine.documents.layout import Unit, section_number

logger = logging.getLogger(__name__)

FOOT_SHARE = 0.85
"""A heading whose top is below this share of the page height sits at the page foot."""
MAX_OUTLINE_ENTRIES = 20_000
"""Outline entries kept (a 1,500-page manual rarely has 5,000; the rest of a larger outline is ignored)."""
MAX_OUTLINE_DEPTH = 16
"""Deeper outline levels are flattened to this one (section paths stay short)."""
MAX_TITLE_CHARS = 300
"""Outline titles are cut to this length."""
MAX_ANCHOR_STEPS = 200_000
"""Candidate headings compared while anchoring one outline (real outlines need a few per entry)."""
_KEY_CHARS = 4
"""Units are indexed by the first 1..4 characters of their normalised text."""
_NORM_CHARS = 2 * MAX_TITLE_CHARS + 60
"""Characters of a unit normalised for the index: more than any title comparison reads."""

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
    """Outline rows with bad pages clamped, empty titles dropped and level jumps flattened; at most
    ``MAX_OUTLINE_ENTRIES`` entries ``MAX_OUTLINE_DEPTH`` levels deep are kept."""
    entries: list[_Entry] = []
    prev_level = 0
    prev_page = 1
    for row in raw:
        if len(entries) >= MAX_OUTLINE_ENTRIES:
            logger.warning("the outline has more than %d entries; the rest are ignored", MAX_OUTLINE_ENTRIES)
            break
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
        level = max(1, min(level, prev_level + 1, MAX_OUTLINE_DEPTH))
        entries.append(_Entry(level, title[:MAX_TITLE_CHARS], page, len(entries), guessed=guessed))
        prev_level, prev_page = level, page
    return entries


class _Headings:
    """Finds the unit an outline entry's title starts, through an index of each page's units by the first
    characters of their normalised text: an entry compares only the few units that can match, so anchoring
    is linear in entries plus units, not their product. A hostile outline that still makes it compare more
    than ``MAX_ANCHOR_STEPS`` candidates leaves its remaining entries at the top of their pages."""

    def __init__(self, units_by_page: list[list[Unit]]) -> None:
        self.units_by_page = units_by_page
        self.used: set[tuple[int, int]] = set()
        self.steps = 0
        self._index: dict[int, dict[str, list[int]]] = {}

    def exhausted(self) -> bool:
        return self.steps > MAX_ANCHOR_STEPS

    def _page_index(self, page: int) -> dict[str, list[int]]:
        index = self._index.get(page)
        if index is None:
            index = {}
            for i, unit in enumerate(self.units_by_page[page - 1]):
                norm = _norm(unit.text[:_NORM_CHARS])
                for n in range(1, min(len(norm), _KEY_CHARS) + 1):
                    index.setdefault(norm[:n], []).append(i)
            self._index[page] = index
        return index

    def match(self, page: int, target: str, headings_only: bool) -> int | None:
        """The first unused unit of ``page`` whose text starts with ``target`` (a heading, or bold text)."""
        units = self.units_by_page[page - 1]
        for i in self._page_index(page).get(target[:_KEY_CHARS], ()):
            self.steps += 1
            if self.exhausted():
                return None
            unit = units[i]
            if (page, i) in self.used or (headings_only and unit.kind != "heading"):
                continue
            text = _norm(unit.text[: len(target) * 2 + 40])
            if text == target or (text.startswith(target) and (headings_only or unit.bold_terms)):
                return i
        return None

    def search_all(self, entry: _Entry, target: str) -> int | None:
        """The heading of an entry whose page was invalid, on any page; moves the entry there."""
        for page in range(1, len(self.units_by_page) + 1):
            self.steps += 1
            found = self.match(page, target, headings_only=True)
            if found is not None:
                logger.info("outline entry %r had no valid page; found its heading on page %d", entry.title, page)
                entry.page = page
                return found
            if self.exhausted():
                return None
        return None


def _anchor_outline(entries: list[_Entry], units_by_page: list[list[Unit]]) -> None:
    headings = _Headings(units_by_page)
    for entry in entries:
        target = _norm(entry.title)
        if not target or headings.exhausted():
            continue
        found = headings.match(entry.page, target, headings_only=True)
        if found is None and len(target) >= 4:
            found = headings.match(entry.page, target, headings_only=False)
        if found is None and entry.guessed:
            found = headings.search_all(entry, target)
        if found is None:
            if entry.guessed:
                entry.anchor = 1 << 30  # after everything else on the previous entry's page
            continue
        headings.used.add((entry.page, found))
        entry.anchor = found
        unit = units_by_page[entry.page - 1][found]
        entry.number = section_number(entry.title) or section_number(unit.text)
        entry.foot = unit.page_height > 0 and unit.y0 >= FOOT_SHARE * unit.page_height
    if headings.exhausted():
        logger.warning("outline of %d entries: stopped matching headings after %d comparisons", len(entries),
                       MAX_ANCHOR_STEPS)  # fmt: skip
    for entry in entries:
        if entry.number is None:
            entry.number = section_number(entry.title)


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
        entry.level = max(1, min(entry.level, prev + 1, MAX_OUTLINE_DEPTH))
        prev = entry.level
    return entries


def _ranges(entries: list[_Entry], page_count: int) -> list[TocEntry]:
    """Page ranges: a section ends on the page where the next entry of the same or a higher level starts.

    One pass with a stack of the sections still open (linear in the number of entries).
    """
    ordered = sorted(entries, key=lambda e: (e.page, e.anchor, e.order))
    ends: dict[int, int] = {}
    open_sections: list[_Entry] = []  # levels strictly increasing from the bottom
    for entry in ordered:
        while open_sections and open_sections[-1].level >= entry.level:
            ends[open_sections.pop().order] = entry.page
        open_sections.append(entry)
    for entry in open_sections:
        ends[entry.order] = page_count
    for entry in entries:
        end = ends[entry.order]
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
