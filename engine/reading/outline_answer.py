"""What a section of a document holds, read from the document's outline.

"Which subsections does the section 'Flight Planning' include?" or "What are the chapters of Part II?" ask
for the document's structure, not a passage: the answer is the titles of the entries one level under the
named entry of the outline, in order, each with its page. The section is found by its number ("Part II",
"Section 4") or by a title the question names whole (every content word of the title, or a quoted title);
a question that names no such entry, or an entry without entries under it, is left to the other readers.
Pure functions of the question and the outline.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from engine.contracts import ParsedDocument, TocEntry
from engine.retrieval.toc import find_sections, parse_number_hint, title_words

_PARTS = r"(?:sub-?sections?|sections|sub-?chapters?|chapters|subheadings?|sub-?headings?|headings|sub-?parts?|parts)"
_ASKS_PARTS = re.compile(
    rf"\b(?:which|what)\s+{_PARTS}\b.*\b(?:include|includes|included|contain|contains|cover|covers|have|has|"
    rf"comprise|comprises|consist|consists|under|in|of)\b"
    rf"|\b(?:what|which)\s+(?:are|were)\s+(?:the\s+)?{_PARTS}\s+(?:of|in|under|within)\b"
    rf"|\b(?:list|name|enumerate)\s+(?:all\s+)?(?:the\s+)?{_PARTS}\s+(?:of|in|under|within)\b",
    re.I,
)
"""A question that asks for the parts of a section: its subsections, chapters or headings."""
_QUOTED = re.compile(r"[\"“”'‘’]([^\"“”‘’]{3,120})[\"“”'‘’]")
_NAMED = re.compile(
    r"\b(?P<kind>section|chapter|part|appendix)\s+(?:called\s+|titled\s+|named\s+|on\s+)?"
    r"(?P<name>[^?,;]+?)(?=\s+(?:include|includes|contain|contains|cover|covers|have|has|comprise|comprises|"
    r"consist|consists)\b|[?,;]|$)",
    re.I,
)

_NAMED_BEFORE = re.compile(
    r"\b(?:of|in|under|within|does|do|did)\s+(?:the\s+)?(?P<name>[^?,;]+?)\s+(?P<kind>section|chapter|part|appendix)\b",
    re.I,
)
"""A section named before its kind: "the subsections of the Flight Planning section"."""


@dataclass(frozen=True)
class SectionParts:
    """A section named in the question and the outline entries one level under it, in document order."""

    section: TocEntry
    parts: tuple[TocEntry, ...]


def asked_section(question: str) -> str | None:
    """The section whose parts ``question`` asks for (a quoted title, else the words after "section",
    "chapter" or "part"), else None."""
    text = " ".join(question.split())
    if not _ASKS_PARTS.search(text):
        return None
    quoted = _QUOTED.search(text)
    if quoted:
        return quoted.group(1).strip()
    before = _NAMED_BEFORE.search(text)
    if before and title_words(before.group("name")):
        return before.group("name").strip()
    for m in reversed(list(_NAMED.finditer(text))):
        name = m.group("name").strip(" .")
        if re.fullmatch(r"[0-9]+[A-Za-z]?(?:\.[0-9]+)*|[A-Z]|[IVXL]+", name):
            return f"{m.group('kind')} {name}"  # "Section 4", "Part II": named by its number
        if title_words(name):
            return name
    return None


def section_parts(doc: ParsedDocument, name: str) -> SectionParts | None:
    """The entry of ``doc``'s outline that ``name`` names (by number, or its title whole) and the entries one
    level under it; None when no entry is named so or it has none under it."""
    for entry in find_sections(doc, name):
        if not _named_whole(entry, name):
            continue
        parts = children(doc.toc, entry)
        if parts:
            return SectionParts(entry, parts)
    return None


def _named_whole(entry: TocEntry, name: str) -> bool:
    """The question names the entry: by its number ("Section 4", which ``find_sections`` matched), or by every
    content word of its title."""
    title = title_words(entry.title)
    return parse_number_hint(name) is not None or (bool(title) and title <= title_words(name))


def children(toc: Sequence[TocEntry], entry: TocEntry) -> tuple[TocEntry, ...]:
    """The entries right under ``entry``: after it, one level deeper, until the next entry at its level or above."""
    try:
        start = list(toc).index(entry)
    except ValueError:
        return ()
    found: list[TocEntry] = []
    for other in toc[start + 1 :]:
        if other.level <= entry.level:
            break
        if other.level == entry.level + 1:
            found.append(other)
    return tuple(found)


def parts_statement(found: SectionParts) -> str:
    """'"Flight Planning" (pp. 4-9) has 3 subsections: Routes (p. 4); Weather (p. 6); Fuel (p. 8).'"""
    section = found.section
    pages = f"p. {section.start_page}" if section.start_page == section.end_page else (
        f"pp. {section.start_page}-{section.end_page}"
    )  # fmt: skip
    kind = "subsection" if len(found.parts) == 1 else "subsections"
    listed = "; ".join(f"{p.title.strip()} (p. {p.start_page})" for p in found.parts)
    return f"“{section.title.strip()}” ({pages}) has {len(found.parts)} {kind}: {listed}."
