"""Places of a document: the tables and figures it shows results in, with their captions, bodies and mentions.

A "where" question ("where do they show the effect on accuracy?") is answered by a place: a table or figure
and its page. A place is found by its caption line ("Table 3: Accuracy of ..."), not by a sentence that
mentions it ("the results are in Table 3"), which may sit pages away. Its content is the caption, the
tabular blocks right under the caption on its page, and the passages that name it.

Works on any blocks that carry a chunk id, page, kind and text (a document's chunks, or the evidence
items of an answer), so the finder of the loop and the reader of the answer group them alike.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from engine.documents.layout import has_rows
from engine.documents.text import canonical_kind, find_references, stems

SHOWING_KINDS = ("Table", "Figure", "Exhibit")
"""Places that show results: a section describes things, a table or figure shows them."""

_CAPTION = re.compile(
    r"^\W{0,3}(?P<kind>Table|TABLE|Tab\.|Figure|FIGURE|Fig\.|FIG\.|Exhibit|EXHIBIT)\s*"
    r"(?P<label>[0-9]+[A-Z]?(?:[.\-\u2013][0-9]+)*)\s*[:.|\u2014\u2013-]\s*\S"
)
"""A caption line: the place's label, a colon, full stop, bar or dash, then its title ("Table 3: Accuracy",
"Figure 2. The pipeline"). A mention ("Table 3 lists ...", "... in Table 3.") has no such mark right after
its label, or does not open its block."""

_NUMBER = re.compile(r"^[(\[]?[-+]?[$€£]?\d[\d,.]*[%)\]]?$")


class Block(Protocol):
    """What the place finder reads of a chunk or an evidence item."""

    @property
    def chunk_id(self) -> str: ...
    @property
    def doc_id(self) -> str: ...
    @property
    def page(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def text(self) -> str: ...


@dataclass
class Place:
    """One table or figure of one document, with the blocks that show or name it."""

    reference: str
    doc_id: str
    caption: Block | None = None
    body: list[Block] = field(default_factory=list)
    mentions: list[Block] = field(default_factory=list)

    @property
    def page(self) -> int | None:
        """The page the place is on: its caption's (a mention's page is where the text speaks of it)."""
        return self.caption.page if self.caption is not None else None

    def texts(self) -> list[str]:
        held = [self.caption] if self.caption is not None else []
        return [b.text for b in [*held, *self.body, *self.mentions]]

    def holds(self, term: set[str]) -> bool:
        """Whether the place's caption, body or a passage naming it holds at least half of ``term``'s stems."""
        return bool(term) and any(2 * len(term & stems(text)) >= len(term) for text in self.texts())


def caption_reference(block: Block) -> str | None:
    """The place a block's caption line labels ("Table 3"), or None when the block opens with no caption."""
    match = _CAPTION.match(block.text.lstrip())
    if match is None:
        return None
    return f"{canonical_kind(match.group('kind'))} {match.group('label').rstrip('.')}"


def caption_title(text: str) -> str:
    """A caption without its label ("Table 3: Accuracy of ..." -> "Accuracy of ..."); other text as it is."""
    match = _CAPTION.match(text.lstrip())
    return text.lstrip()[match.end() - 1 :] if match else text


def block_index(block: Block) -> int:
    """The position of a block on its page (chunk ids end in ``:b{index}``; -1 when one does not)."""
    head, _, tail = block.chunk_id.rpartition(":b")
    return int(tail) if head and tail.isdigit() else -1


def tabular(block: Block) -> bool:
    """A block of table rows: parsed as a table, joined cells ("a | b"), or mostly numbers (a table whose
    ruling the parser did not see reads as lines of figures)."""
    if block.kind == "table" or has_rows(block.text):
        return True
    tokens = block.text.split()
    return len(tokens) >= 4 and sum(1 for t in tokens if _NUMBER.match(t)) >= 0.35 * len(tokens)


def group_places(blocks: Iterable[Block]) -> dict[tuple[str, str], Place]:
    """The places the blocks hold, keyed by (document, reference): captions, the tabular blocks under a
    caption on its page (before the next caption or heading), and the blocks whose text names a place."""
    ordered = sorted(blocks, key=lambda b: (b.doc_id, b.page, block_index(b)))
    places: dict[tuple[str, str], Place] = {}
    current: Place | None = None
    for position, block in enumerate(ordered):
        if position and (block.doc_id, block.page) != (ordered[position - 1].doc_id, ordered[position - 1].page):
            current = None  # a table's body is on its caption's page
        reference = caption_reference(block)
        if reference is not None and reference.split()[0] in SHOWING_KINDS:
            current = places.setdefault((block.doc_id, reference), Place(reference, block.doc_id))
            current.caption = current.caption or block
            continue
        if block.kind == "heading":
            current = None
        elif current is not None and tabular(block):
            current.body.append(block)
            continue
        for named in find_references(block.text):
            if named.split()[0] in SHOWING_KINDS:
                places.setdefault((block.doc_id, named), Place(named, block.doc_id)).mentions.append(block)
    return places


def shows(place: Place, key: set[str], about: Sequence[set[str]]) -> bool:
    """A place shows what a "where" part asks: it holds the part's key term ("BLEU"), and, when the part
    speaks of things named before it (``about``: "where do they ..." after a list), one of them."""
    return place.holds(key) and (not about or any(place.holds(term) for term in about))


def find_places(blocks: Sequence[Block], key: set[str], about: Sequence[set[str]] = ()) -> list[Place]:
    """The captioned places of ``blocks`` that show ``key`` (and one of ``about``), the one that names most
    of ``about`` first, then the one more passages name (the text's own pointer to its results)."""
    found = [p for p in group_places(blocks).values() if p.caption is not None and shows(p, key, about)]
    return sorted(found, key=lambda p: (-sum(1 for t in about if p.holds(t)), -len(p.mentions), p.page or 0))


__all__ = ["Place", "caption_reference", "caption_title", "find_places", "group_places", "shows", "tabular"]
