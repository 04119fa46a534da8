"""Listing aggregation: collect every item of an enumeration inside a section, check its count."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence

from engine.contracts import Chunk, ListingResult, ListItem, ParsedDocument, TocEntry
from engine.documents.text import find_cardinality_cue, normalize_space, overlap_ratio, split_sentences
from engine.retrieval.toc import find_sections, score_titles, title_words

MAX_SECTION_PAGES = 6
"""A matched section longer than this is cut to its first pages (an enumeration is local)."""

_BULLET = re.compile(r"^\s*[•◦▪●\-–*·]\s+(?P<rest>\S.*)$")
_ORDINAL = re.compile(
    r"^\s*(?P<word>First|Second|Third|Fourth|Fifth|Sixth|Seventh|Eighth|Ninth|Tenth|Finally|Lastly)"
    r"(?:ly)?\s*,\s*(?P<rest>.+)$"
)
_NUMBERED = re.compile(r"^\s*(?:\((?:\d{1,2}|[a-z]|[ivx]{1,4})\)|\d{1,2}[.)]|[a-z]\))\s+(?P<rest>\S.*)$")
_HEADING_NUMBER = re.compile(r"^\s*(?P<num>\d+(?:\.\d+)*)\.?\s+\S")


def _label(text: str, max_words: int = 8) -> str:
    """A short label: the text up to the first colon/period/dash, at most ``max_words`` words."""
    text = normalize_space(text)
    cut = re.split(r"(?<=\w)[:.;]\s|\s[—–-]\s|:$", text, maxsplit=1)[0]
    words = cut.split()
    return " ".join(words[:max_words]).strip(" .,:;")


def _norm(label: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", label.lower()).split())


def section_pages_for(
    doc: ParsedDocument, terms: Sequence[str], section_hint: str | None, subject: str | None = None
) -> tuple[int, ...]:
    """Pages of the section best matching ``section_hint``, else the listed ``subject`` ("sensors" ->
    "4 Sensor suite"), else ``terms``, by the table of contents.

    Fallback without a matching section: the page whose chunks contain the most of ``terms``.
    """
    entry = None
    if section_hint:
        found = find_sections(doc, section_hint)
        entry = found[0] if found else None
    for text in (subject, " ".join(terms)):
        if entry is None and text:
            scored = score_titles(doc.toc, text)
            if scored:
                entry = _best_titled(doc.toc, scored)
    if entry is not None:
        end = min(entry.end_page, entry.start_page + MAX_SECTION_PAGES - 1)
        return tuple(range(entry.start_page, max(entry.start_page, end) + 1))
    return _best_term_pages(doc, terms)


def _best_titled(toc: Sequence[TocEntry], scored: Sequence[tuple[float, TocEntry]]) -> TocEntry:
    """The best of the outline entries whose titles match: the highest score; of titles that match alike, one the
    outline prints once (a subheading repeated under several chapters means what its chapter is about), then the
    most specific, then the first."""
    repeats = Counter(_norm(e.title) for e in toc)
    return min(scored, key=lambda se: (-se[0], repeats[_norm(se[1].title)] > 1, -se[1].level, se[1].start_page))[1]


def _best_term_pages(doc: ParsedDocument, terms: Sequence[str]) -> tuple[int, ...]:
    words = [t.lower() for t in terms if t.strip()]
    if not words:
        return ()
    page_text: dict[int, list[str]] = {}
    for chunk in doc.chunks:
        page_text.setdefault(chunk.page, []).append(chunk.text.lower())
    scores = {p: sum(1 for w in words if w in " ".join(ts)) for p, ts in page_text.items()}
    best = max(scores.values(), default=0)
    if best == 0:
        return ()
    return tuple(sorted(p for p, s in scores.items() if s == best)[:2])


# ---- aggregation -----------------------------------------------------------------------------


def _find_cue(chunks: Sequence[Chunk], topic_terms: Sequence[str]) -> tuple[int, int, str] | None:
    """(chunk position, count, sentence) of the cardinality cue closest to the topic terms."""
    best: tuple[float, int, int, str] | None = None
    for position, chunk in enumerate(chunks):
        for sentence in split_sentences(chunk.text):
            cue = find_cardinality_cue(sentence)
            if cue is None:
                continue
            closeness = overlap_ratio(topic_terms, sentence) if topic_terms else 0.0
            if best is None or closeness > best[0]:
                best = (closeness, position, cue[0], cue[1])
    return None if best is None else best[1:]


def _chunk_items(chunk: Chunk, skip_text: str = "") -> list[ListItem]:
    """Items marked inside one chunk: bold run-in headers, bullets, ordinals, numbered lines."""
    items: list[ListItem] = []
    lines = [ln for ln in chunk.text.splitlines() if ln.strip()]
    starts = [normalize_space(ln) for ln in lines]
    for term in chunk.bold_terms:
        clean = normalize_space(term).strip(" .:")
        if clean and len(clean.split()) <= 10 and any(s.startswith(clean) for s in starts) and clean not in skip_text:
            items.append(_item(clean, chunk, "bold_header"))
    for line in lines:
        for pattern, marker in ((_BULLET, "bullet"), (_ORDINAL, "ordinal"), (_NUMBERED, "numbered")):
            match = pattern.match(line)
            if match:
                label = _label(match.group("rest"))
                if label:
                    items.append(_item(label, chunk, marker))
                break
    return items


def _item(label: str, chunk: Chunk, marker: str) -> ListItem:
    return ListItem(label=label, chunk_id=chunk.chunk_id, page=chunk.page, marker=marker)  # type: ignore[arg-type]


def _heading_number(chunk: Chunk) -> str | None:
    match = _HEADING_NUMBER.match(chunk.text)
    return match.group("num") if match else None


def _region_items(chunks: Sequence[Chunk], cue_position: int, cue_text: str) -> list[ListItem]:
    """Items after the cue, up to the next heading that is not a sub-heading of the cue's section.

    Sub-headings count as items only when no item is marked (bold run-in, bullet, ordinal): a
    section that lists its items in bold may still have a sub-section about something else.
    """
    parent = next((_heading_number(c) for c in reversed(chunks[:cue_position]) if c.kind == "heading"), None)
    items = _chunk_items(chunks[cue_position], skip_text=cue_text)
    sub_headings: list[ListItem] = []
    for chunk in chunks[cue_position + 1 :]:
        if chunk.kind == "heading":
            number = _heading_number(chunk)
            if parent and number and number.startswith(parent + "."):
                sub_headings.append(_item(_label(re.sub(r"^\s*[\d.]+\s*", "", chunk.text)), chunk, "heading"))
                continue
            break
        items += _chunk_items(chunk)
    return items or sub_headings


def aggregate_listing(doc: ParsedDocument, pages: Iterable[int], topic_terms: Sequence[str] = ()) -> ListingResult:
    """Every enumerated item on ``pages`` and the cardinality cue that announces them.

    With a cue ("We employ three types of regularization:") only the items after it, up to the next
    heading outside its section, count. Without one, every marked item on the pages counts
    (sub-headings only when nothing else is marked). Items are deduplicated by normalised label.
    """
    page_set = sorted(set(pages))
    wanted = set(page_set)
    chunks = [c for c in doc.chunks if c.page in wanted]
    cue = _find_cue(chunks, topic_terms)
    if cue is not None:
        position, count, sentence = cue
        raw = _region_items(chunks, position, sentence)
    else:
        count, sentence = None, None
        raw = [item for c in chunks if c.kind != "heading" for item in _chunk_items(c)]
        if not raw:
            headings = [c for c in chunks if c.kind == "heading"][1:]
            raw = [_item(_label(re.sub(r"^\s*[\d.]+\s*", "", c.text)), c, "heading") for c in headings]
    items: list[ListItem] = []
    seen: set[str] = set()
    topic = title_words(" ".join(topic_terms))
    for item in raw:
        key = _norm(item.label)
        if not key or key in seen or (topic and title_words(item.label) == topic and item.marker == "heading"):
            continue
        seen.add(key)
        items.append(item)
    return ListingResult(items=tuple(items), expected_count=count, cue=sentence, pages=tuple(page_set))
