"""Two-hop references: find the page that holds "Table 3", "Figure 2", "Section 4.2", "Note 12" ..."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from engine.contracts import Chunk, Hit, ParsedDocument, RankedList
from engine.documents.text import canonical_kind, find_references, split_reference
from engine.retrieval.toc import find_sections

if TYPE_CHECKING:
    from engine.retrieval.index import DocumentIndex

_CAPTION_WORDS = {
    "Table": r"(?:Table|TABLE|Tab\.|Tbl\.)",
    "Figure": r"(?:Figure|FIGURE|Fig\.|FIG\.|Figs?\.)",
    "Exhibit": r"(?:Exhibit|EXHIBIT)",
    "Schedule": r"(?:Schedule|SCHEDULE)",
}
_SECTION_WORDS = {
    "Section": r"(?:Section|SECTION|Sec\.|§)?",
    "Appendix": r"(?:Appendix|APPENDIX|Annex|ANNEX)",
    "Item": r"(?:Item|ITEM)",
    "Note": r"(?:Note|NOTE)",
    "Chapter": r"(?:Chapter|CHAPTER|Chap\.)",
}
_TOC_LEADER = re.compile(r"(?:\.\s?){4,}\s*\d+\s*$|\s\d+\s*$")


def canonical_reference(reference: str) -> tuple[str, str]:
    """``"tab. 3"`` / ``"see Table 3"`` -> ("Table", "3")."""
    found = find_references(reference)
    if found:
        return split_reference(found[0])
    kind, label = split_reference(reference.strip())
    return canonical_kind(kind), label.strip().rstrip(".")


def _label_pattern(word: str, label: str, strict: bool) -> re.Pattern[str]:
    tail = r"\s*[:.|—–-]" if strict else ""
    return re.compile(rf"^\s*{word}\s*{re.escape(label)}(?![0-9A-Za-z]|\.\d){tail}")


def _lines(chunk: Chunk) -> list[str]:
    return [line for line in chunk.text.splitlines() if line.strip()]


def locate_reference(doc: ParsedDocument, reference: str) -> tuple[int, Chunk | None] | None:
    """(page, chunk holding the caption/heading) for ``reference``, or None when not found."""
    kind, label = canonical_reference(reference)
    if not label:
        return None
    if kind in _CAPTION_WORDS:
        return _locate_caption(doc, _CAPTION_WORDS[kind], label)
    if kind in _SECTION_WORDS:
        return _locate_section(doc, kind, label)
    return _locate_caption(doc, re.escape(kind), label)


def _locate_caption(doc: ParsedDocument, word: str, label: str) -> tuple[int, Chunk | None] | None:
    strict, loose = _label_pattern(word, label, True), _label_pattern(word, label, False)
    upper = re.compile(rf"^\s*{word.upper()}\s*{re.escape(label)}(?![0-9A-Za-z]|\.\d)")
    tiers: list[list[Chunk]] = [[], [], [], []]
    for chunk in doc.chunks:
        first = chunk.text.lstrip().split("\n", 1)[0]
        if _TOC_LEADER.search(first) and len(first) < 160 and "...." in first.replace(" ", ""):
            continue  # a "List of Tables" line, not the caption
        if chunk.kind in ("caption", "heading") and loose.match(chunk.text):
            tiers[0].append(chunk)
        elif strict.match(chunk.text) or upper.match(chunk.text):
            tiers[1].append(chunk)
        elif any(strict.match(line) for line in _lines(chunk)[1:]):
            tiers[2].append(chunk)
        elif loose.match(chunk.text) and chunk.kind in ("table", "text") and len(chunk.text) < 300:
            tiers[3].append(chunk)
    for tier in tiers:
        if tier:
            return tier[0].page, tier[0]
    return None


def _locate_section(doc: ParsedDocument, kind: str, label: str) -> tuple[int, Chunk | None] | None:
    hint = label if kind == "Section" else f"{kind} {label}"
    entries = [
        e
        for e in find_sections(doc, hint)
        if (e.number or "").lower() == label.lower()
        or re.match(rf"^\s*(?:{_SECTION_WORDS[kind]}\s*)?{re.escape(label)}(?![0-9A-Za-z]|\.\d)", e.title)
    ]
    if entries:
        entry = entries[0]
        heading = next(
            (
                c
                for c in doc.chunks
                if c.page == entry.start_page and c.kind == "heading" and entry.title.lower() in c.text.lower()
            ),
            None,
        )
        return entry.start_page, heading
    word = _SECTION_WORDS[kind]
    pattern = re.compile(rf"^\s*{word}\s*{re.escape(label)}(?:\s*[.:)—–-]|\s+[A-Z])")
    for wanted_heading in (True, False):
        for chunk in doc.chunks:
            if (chunk.kind == "heading") == wanted_heading and pattern.match(chunk.text):
                return chunk.page, chunk
    return None


def resolve_reference(doc: ParsedDocument, reference: str) -> int | None:
    """The page holding the caption of "Table 3" / the heading of "Section 4.2" (not a page citing it)."""
    found = locate_reference(doc, reference)
    return found[0] if found else None


def reference_hits(index: DocumentIndex, reference: str, k: int = 6) -> RankedList:
    """The referenced page's chunks, caption/heading first, then tables, then the rest in order."""
    found = locate_reference(index.doc, reference)
    if found is None or k <= 0:
        return RankedList(query=reference, retriever="two_hop")
    page, anchor = found
    chunks = list(index.chunks_on_pages([page]))
    first = [anchor] if anchor is not None and anchor in chunks else []
    tables = [c for c in chunks if c.kind == "table" and c not in first]
    rest = [c for c in chunks if c not in first and c not in tables]
    ordered = (first + tables + rest)[:k]
    hits = tuple(
        Hit(chunk=c, score=round(1.0 - 0.01 * i, 6), retriever="two_hop", rank=i + 1) for i, c in enumerate(ordered)
    )
    return RankedList(query=reference, retriever="two_hop", hits=hits)
