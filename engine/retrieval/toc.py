"""TOC retrieval: find sections by number or title words and return their chunks."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from functools import lru_cache

from engine.contracts import Chunk, Hit, ParsedDocument, RankedList, TocEntry
from engine.documents.text import content_words

_KIND = r"(?:section|sec\.?|§|item|appendix|annex|note|chapter|chap\.?|part|schedule|exhibit)"
_NUMBER_HINT = re.compile(
    rf"^\s*(?P<kind>{_KIND})?\s*(?P<num>[0-9]+[A-Za-z]?(?:\.[0-9]+)*|[A-Z])\.?\s*$", re.IGNORECASE
)
_NUMBER_IN_TEXT = re.compile(
    rf"(?:(?P<kind>{_KIND})\s*(?P<num>[0-9]+[A-Z]?(?:\.[0-9]+)*|[A-Z])(?![a-z])|"
    rf"(?<![\w.])(?P<bare>[0-9]+(?:\.[0-9]+)+)(?![\w]|\.\d))",
    re.IGNORECASE,
)
_LEADING_NUMBER = re.compile(
    rf"^\s*(?:{_KIND}\s*)?(?P<num>[0-9]+[A-Za-z]?(?:\.[0-9]+)*|[A-Z])(?:[.:)\s—–-]|$)", re.IGNORECASE
)


def _stem(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


@lru_cache(maxsize=16384)
def title_words(text: str) -> frozenset[str]:
    """Content words of a title or query, plural-folded ("layers" == "layer")."""
    return frozenset(_stem(w) for w in content_words(text) if not w.replace(".", "").isdigit())


def chunks_in_pages(doc: ParsedDocument, start: int, end: int) -> list[Chunk]:
    """The chunks on pages ``start..end`` (chunks are in page order; bisected, not scanned)."""
    lo = bisect_left(doc.chunks, start, key=lambda c: c.page)
    hi = bisect_right(doc.chunks, end, key=lambda c: c.page)
    return list(doc.chunks[lo:hi])


def _number_of(entry: TocEntry) -> str | None:
    return entry.number or _title_number(entry.title)


@lru_cache(maxsize=8192)
def _title_number(title: str) -> str | None:
    """The number a section title leads with ("4.2 Results", "Item 7A."). Kept per title: every reference a
    question follows reads the whole outline's numbers again."""
    match = _LEADING_NUMBER.match(title)
    if match and (match.group("num")[0].isdigit() or re.match(rf"^\s*{_KIND}", title, re.I)):
        return match.group("num")
    return None


def parse_number_hint(hint: str) -> tuple[str | None, str] | None:
    """``"Section 3.2"`` -> ("section", "3.2"); ``"5.4"`` -> (None, "5.4"); a title -> None."""
    match = _NUMBER_HINT.match(hint)
    if match:
        kind = (match.group("kind") or "").lower().rstrip(".") or None
        return kind, match.group("num")
    match = _NUMBER_IN_TEXT.search(hint)
    if match:
        if match.group("bare"):
            return None, match.group("bare")
        return match.group("kind").lower().rstrip("."), match.group("num")
    return None


def _heading_entries(doc: ParsedDocument, number: str) -> list[TocEntry]:
    """Sections synthesised from heading chunks that start with ``number`` (no outline number)."""
    pattern = re.compile(rf"^\s*(?:{_KIND}\s*)?{re.escape(number)}(?:[.:)\s—–-]|$)", re.IGNORECASE)
    headings = [c for c in doc.chunks if c.kind == "heading"]
    found: list[TocEntry] = []
    for i, chunk in enumerate(headings):
        if not pattern.match(chunk.text):
            continue
        title = " ".join(chunk.text.split())[:200]
        for entry in doc.toc:  # prefer the outline entry with that title (it has the page range)
            if entry.title.lower() in title.lower() and entry.start_page <= chunk.page <= entry.end_page:
                found.append(entry)
                break
        else:
            end = headings[i + 1].page if i + 1 < len(headings) else doc.total_pages or chunk.page
            found.append(
                TocEntry(
                    level=number.count(".") + 1,
                    title=title,
                    number=number,
                    start_page=chunk.page,
                    end_page=max(chunk.page, end),
                )
            )
    return found


def find_sections(doc: ParsedDocument, hint: str) -> tuple[TocEntry, ...]:
    """Sections matching ``hint``: by number ("5.4", "Section 3.2", "Item 7A", "Appendix B"), else by title words.

    Number matches are exact ("Item 7" never matches "Item 7A"). Title matches keep the entries
    with the highest word overlap, in document order.
    """
    hint = (hint or "").strip()
    if not hint:
        return ()
    parsed = parse_number_hint(hint)
    if parsed:
        kind, number = parsed
        exact = [e for e in doc.toc if (_number_of(e) or "").lower() == number.lower()]
        if kind and len(exact) > 1:
            kinded = [e for e in exact if e.title.lower().startswith(kind)]
            exact = kinded or exact
        if not exact:
            exact = _heading_entries(doc, number)
        if exact:
            return tuple(exact)
    scored = score_titles(doc.toc, hint)
    if not scored:
        return ()
    best = max(score for score, _ in scored)
    return tuple(entry for score, entry in scored if score == best)


def score_titles(toc: Sequence[TocEntry], text: str) -> list[tuple[float, TocEntry]]:
    """(overlap, entry) for entries sharing words with ``text``; overlap = shared / title words."""
    words = title_words(text)
    if not words:
        return []
    out = []
    for entry in toc:
        tw = title_words(entry.title)
        shared = len(words & tw)
        if shared:
            out.append((round(shared / len(tw) + 0.01 * shared, 6), entry))
    return out


def has_strong_title_match(toc: Sequence[TocEntry], text: str, min_shared: int = 2, min_share: float = 0.6) -> bool:
    """Some entry's title is covered by ``text``: all its words, or ``min_shared`` words and ``min_share`` of them."""
    words = title_words(text)
    for entry in toc:
        tw = title_words(entry.title)
        shared = len(words & tw)
        if shared and (shared == len(tw) or (shared >= min_shared and shared / len(tw) >= min_share)):
            return True
    return False


def section_chunks(doc: ParsedDocument, entry: TocEntry, limit: int | None = None) -> list[Chunk]:
    """The chunks of a section: its heading chunk first, then body chunks in page order.

    ``limit`` stops the scan early (a top-level section may span hundreds of pages).
    """
    in_range: list[Chunk] = []
    page = entry.start_page
    want = None if limit is None else limit * 3 + 20
    while page <= entry.end_page and (want is None or len(in_range) < want):
        in_range += chunks_in_pages(doc, page, page)
        page += 1
    tagged = [c for c in in_range if entry.title in c.section_path]
    if tagged:
        heading = [c for c in in_range if c.kind == "heading" and _is_heading_of(c, entry)]
        return (heading[:1] + [c for c in tagged if c not in heading[:1]])[:limit]
    start = next((i for i, c in enumerate(in_range) if c.page == entry.start_page and _is_heading_of(c, entry)), None)
    if start is not None:
        in_range = in_range[start:]
    return in_range[:limit]


def _is_heading_of(chunk: Chunk, entry: TocEntry) -> bool:
    text = " ".join(chunk.text.split()).lower()
    title = " ".join(entry.title.split()).lower()
    return bool(title) and (text.startswith(title) or (len(text) < len(title) + 16 and title in text))


def toc_search(doc: ParsedDocument, query: str, k: int, section_hint: str | None = None) -> RankedList:
    """The chunks of the sections best matching ``section_hint`` (else the query's title words).

    Score = the section's title overlap, minus a small step per position inside the section.
    """
    if k <= 0:
        return RankedList(query=query, retriever="toc")
    sections: list[tuple[float, TocEntry]] = []
    if section_hint:
        sections = [(1.0, e) for e in find_sections(doc, section_hint)]
    if not sections:
        scored = score_titles(doc.toc, query)
        scored.sort(key=lambda se: (-se[0], -se[1].level, se[1].start_page))
        sections = scored[:3]
    hits: list[Hit] = []
    seen: set[str] = set()
    for base, entry in sections:
        for position, chunk in enumerate(section_chunks(doc, entry, k)):
            if chunk.chunk_id in seen:
                continue
            seen.add(chunk.chunk_id)
            score = max(base - 0.001 * position, 1e-6)
            hits.append(Hit(chunk=chunk, score=round(score, 6), retriever="toc", rank=len(hits) + 1))
            if len(hits) >= k:
                return RankedList(query=query, retriever="toc", hits=tuple(hits))
    return RankedList(query=query, retriever="toc", hits=tuple(hits))
