"""Census of a document's labelled elements: "How many figures are in the appendix?" counted in code.

A question that asks how many figures (tables, appendices, exhibits, chapters, schedules) a document
or one of its parts holds, and nothing more, is answered by counting the distinct labels its captions
and headings carry ("Figure 5: The user interface ...", a heading "Appendix B"), not by reading a
passage that happens to mention some of them. Pure functions over a parsed document; no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from engine.contracts import Chunk, ListItem, ParsedDocument
from engine.documents.text import DOT_LEADERS, canonical_kind, normalize_space
from engine.retrieval.toc import find_sections

CENSUS_KINDS = ("Figure", "Table", "Appendix", "Exhibit", "Chapter", "Schedule")
"""Reference kinds whose every instance a document labels in a caption or heading. "Item", "Note" and
"Section" are left out: "how many items" asks about listed things, and sections are titled, not labelled."""

_PLURALS = r"figures|tables|appendices|appendixes|exhibits|chapters|schedules"
_ASK = re.compile(
    rf"\b(?:how many|(?:the |total )?number of|count (?:of )?(?:the |all )?)\s*(?P<kind>{_PLURALS})\b", re.I
)

_WHERE_WORDS = frozenset(
    [
        "are",
        "is",
        "there",
        "appear",
        "appears",
        "appeared",
        "exist",
        "exists",
        "does",
        "do",
        "did",
        "the",
        "this",
        "these",
        "that",
        "a",
        "an",
        "paper",
        "document",
        "report",
        "article",
        "book",
        "manual",
        "filing",
        "guide",
        "guidebook",
        "text",
        "file",
        "pdf",
        "in",
        "within",
        "inside",
        "of",
        "throughout",
        "total",
        "all",
        "overall",
        "altogether",
        "have",
        "has",
        "contain",
        "contains",
        "include",
        "includes",
        "included",
        "used",
        "shown",
        "presented",
        "given",
        "main",
        "body",
        "it",
        "its",
        "appendix",
        "appendices",
        "section",
        "chapter",
        "part",
        "annex",
        "according",
        "to",
        "what",
        "page",
        "pages",
        "on",
        "from",
        "between",
        "and",
        "through",
    ]
)
"""Words that only say where (or whether) to count, never which elements: "how many tables appear in the
appendix of the thesis" is a census, "how many figures show a decline" is not."""

_APPENDIX_SCOPE = re.compile(r"\b(?i:appendix|appendices)\b(?!\s+(?:\d|[A-Z]\b))")
_PAGE_SCOPE = re.compile(
    r"\b(?:between\s+pages?\s+(?P<a>\d+)\s+and\s+(?:pages?\s+)?(?P<b>\d+)|"
    r"pages?\s+(?P<first>\d+)\s*(?:-|\u2013|to|through)\s*(?:pages?\s+)?(?P<last>\d+))\b",
    re.I,
)
"""A range of pages ("from page 4 to page 12", "pages 4-12", "between pages 4 and 12"); "pages 2 and 5" is two
pages, no range."""
_PAGE_LIST = re.compile(r"\bpages?\s+\d+(?:\s*(?:,|and|&)\s*\d+)*", re.I)
_SECTION_SCOPE = re.compile(r"\b(?P<hint>(?i:section|chapter|part|appendix)\s+(?:\d[\w.]*|[A-Z](?:\.\d+)*)(?![\w]))")

_CAPTION = re.compile(
    r"^(?P<kind>Figure|Fig\.|FIGURE|FIG\.|Table|TABLE|Appendix|APPENDIX|Exhibit|EXHIBIT|Chapter|CHAPTER|"
    r"Schedule|SCHEDULE)\s*(?P<label>\d+(?:[.\-\u2013]\d+)*[A-Za-z]?|[A-Z](?:\.\d+)*)(?![\w\-\u2013])(?P<rest>.*)$"
)


@dataclass(frozen=True)
class CensusAsk:
    """What a census question counts, and where."""

    kind: str
    """The canonical kind counted ("Figure")."""
    scope: str | None
    """None: the whole document; "appendix": the appendices; "pages 3-10" or "pages 2,5"; else a section label
    ("Section 3")."""


def asked_census(question: str) -> CensusAsk | None:
    """The census ``question`` asks for, or None when it asks about anything but how many elements exist.

    Only the question's first sentence is read: "Please write the answer as an integer." is an instruction.
    """
    first = question.split("?")[0]
    match = _ASK.search(first)
    if match is None:
        return None
    rest = f"{first[: match.start()]} {first[match.end() :]}"
    words = re.findall(r"[A-Za-z]+|\d[\w.]*", rest.lower())
    if any(w not in _WHERE_WORDS and not _is_label(w) for w in words):
        return None
    kind = "Appendix" if match.group("kind").lower().startswith("appendi") else canonical_kind(match.group("kind"))
    if kind not in CENSUS_KINDS:
        return None
    pages = _PAGE_SCOPE.search(first[match.end() :])
    if pages:
        first_page, last_page = pages.group("a") or pages.group("first"), pages.group("b") or pages.group("last")
        return CensusAsk(kind=kind, scope=f"pages {first_page}-{last_page}")
    listed = _PAGE_LIST.search(first[match.end() :])
    if listed:
        return CensusAsk(kind=kind, scope="pages " + ",".join(re.findall(r"\d+", listed.group(0))))
    section = _SECTION_SCOPE.search(first[match.end() :])
    if section:
        return CensusAsk(kind=kind, scope=normalize_space(section.group("hint")).title())
    if _APPENDIX_SCOPE.search(first[match.end() :]) and kind != "Appendix":
        return CensusAsk(kind=kind, scope="appendix")
    return CensusAsk(kind=kind, scope=None)


def _is_label(word: str) -> bool:
    return word[0].isdigit() or len(word) == 1


def scope_pages(doc: ParsedDocument, scope: str | None) -> tuple[int, ...]:
    """The pages a census counts on; empty when the scope the question names is not found."""
    if scope is None:
        return tuple(range(1, doc.total_pages + 1))
    if scope == "appendix":
        start = appendix_start(doc)
        return () if start is None else tuple(range(start, doc.total_pages + 1))
    if scope.startswith("pages "):  # "pages 3-10" or "pages 2,5": pages past the document's end are lacking
        named = scope.removeprefix("pages ")
        if "-" in named:
            first, last = (int(n) for n in named.split("-"))
            wanted = tuple(range(first, last + 1))
        else:
            wanted = tuple(int(n) for n in named.split(","))
        return wanted if wanted and all(1 <= p <= doc.total_pages for p in wanted) else ()
    found = find_sections(doc, scope)
    if not found:
        return ()
    entry = found[0]
    return tuple(range(entry.start_page, max(entry.start_page, entry.end_page) + 1))


_APPENDIX_TITLE = re.compile(r"^\s*(?:appendix|appendices|annex)\b", re.I)
_END_MATTER = re.compile(r"^\s*(?:\d+\.?\s+)?(?:references|bibliography|works cited)\s*$", re.I)
_LETTERED = re.compile(r"^\s*A\.?\s+[A-Z][a-z]")


def appendix_start(doc: ParsedDocument) -> int | None:
    """The first page of the appendices: a heading or outline entry titled "Appendix ...", else (a paper's
    lettered appendices) the first heading "A <Title>" after the references."""
    titled = [e.start_page for e in doc.toc if _APPENDIX_TITLE.match(e.title)]
    titled += [c.page for c in doc.chunks if c.kind == "heading" and _APPENDIX_TITLE.match(c.text)]
    if titled:
        return min(titled)
    after_references = False
    for chunk in doc.chunks:
        if chunk.kind != "heading":
            continue
        if _END_MATTER.match(chunk.text):
            after_references = True
        elif after_references and _LETTERED.match(chunk.text):
            return chunk.page
    return None


def take_census(doc: ParsedDocument, kind: str, pages: Iterable[int]) -> tuple[ListItem, ...]:
    """One item per distinct label of ``kind`` captioned or headed on ``pages``, in page order, each at
    its first caption. A sub-figure ("Figure 3b") is part of its figure."""
    wanted = set(pages)
    items: dict[str, ListItem] = {}
    for chunk in (c for c in doc.chunks if c.page in wanted):
        for label, caption in _captions(chunk, kind):
            items.setdefault(label, ListItem(label=caption, chunk_id=chunk.chunk_id, page=chunk.page, marker="caption"))
    return tuple(items.values())


def _captions(chunk: Chunk, kind: str) -> list[tuple[str, str]]:
    """(canonical label, caption line) of each element of ``kind`` that ``chunk`` captions or heads.

    A caption is a line that opens with the label followed by nothing, a colon, a full stop or a dash
    ("Figure 5: ...", "Table 2. ...", "Appendix B"); a line going on in lower case ("Figure 5 shows ...")
    mentions the element, and a heading may go on with its title ("Appendix D Work Plan").
    """
    found: list[tuple[str, str]] = []
    for line in chunk.text.splitlines():
        line = normalize_space(line)
        match = _CAPTION.match(line)
        if match is None or canonical_kind(match.group("kind")) != kind or DOT_LEADERS.search(line):
            continue
        rest = match.group("rest").strip()
        if rest and rest[0] not in ":.|\u2014\u2013-" and not (chunk.kind == "heading" and rest[0].isupper()):
            continue
        label = match.group("label")
        if kind == "Figure" and label[-1].islower():
            label = label[:-1]
        name = f"{kind} {label.upper() if len(label) == 1 else label}"
        found.append((name, _shortened(name if rest.lower() == line[: match.end("label")].lower() else line)))
    return found


def _shortened(caption: str, max_chars: int = 160) -> str:
    return caption if len(caption) <= max_chars else caption[:max_chars].rsplit(" ", 1)[0] + " …"


def scope_phrase(scope: str | None) -> str:
    """Where a census counted, as an answer says it: "in the document", "in the appendix", "on pages 3-10"."""
    if scope is None:
        return "in the document"
    if scope == "appendix":
        return "in the appendix"
    if scope.startswith("pages "):
        named = scope.removeprefix("pages ")
        return f"on page {named}" if named.isdigit() else f"on pages {named.replace(',', ', ')}"
    return f"in {scope}"


__all__ = ["CENSUS_KINDS", "CensusAsk", "appendix_start", "asked_census", "scope_pages", "scope_phrase", "take_census"]
