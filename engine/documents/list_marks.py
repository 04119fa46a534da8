"""The marks of a list: item markers, a symbol font's bullets read as letters, and a lead without a colon. Pure."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

from engine.documents.lines import Line
from engine.documents.text import COUNT_THEN, enumeration_count, split_sentences

BULLETS = "•◦▪▫●○■□►▶‣⁃∙·➢–—-*"
"""The characters that open a bulleted item."""
ITEM_MARK = re.compile(
    rf"^\s*(?P<mark>[{re.escape(BULLETS)}](?=\s*\S)|\(?(?:\d{{1,2}}|[a-zA-Z]|[ivxIVX]{{1,4}})[.)](?=\s+\S))"
)
"""An item's own marker at the start of a passage: a bullet, "1." / "1)", "(a)", "(iv)"."""


def item_marker(text: str) -> str | None:
    """The kind of marker ``text`` opens with, for telling list levels apart: the bullet itself ("·"), or
    the numbering's shape ("1.", "(a)", "A)"), whatever its number; None without a marker."""
    match = ITEM_MARK.match(text)
    if match is None:
        return None
    mark = re.sub(r"\d+", "1", match.group("mark"))
    return re.sub(r"[a-z]+", "a", re.sub(r"[A-Z]+", "A", mark))


_GLYPH_BULLET = re.compile(r"^([lnquv§¨Ø])\s+[A-Z]")
"""A symbol font's bullet that the text layer gives as a letter ("l Check the seals."): Wingdings prints its round
bullet for "l", its square for "n"; no English line opens with a lone "l" or "n"."""


def glyph_bullet(lines: list[Line]) -> str | None:
    """The letter a page's lines open with as a symbol-font bullet, when two lines or more do: one such line may
    be a stray letter; a run of them is a list."""
    opened = [m.group(1) for line in lines if (m := _GLYPH_BULLET.match(line.text))]
    letter = max(set(opened), key=opened.count) if opened else None
    return f"{letter} " if letter and opened.count(letter) >= 2 else None


class Passage(Protocol):
    """What a list lead is judged by: a chunk's or an evidence item's text, kind and section."""

    @property
    def text(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def section_path(self) -> tuple[str, ...]: ...


MAX_LEAD_WORDS = 30
"""A paragraph that introduces a list without a colon is one short sentence; a longer one is a paragraph of its own."""


_NUMBERED_TITLE = re.compile(r"^\d{1,2}(?:\.\d{1,2})+\.?\s+\S")
"""A subsection's numbered title run into its first paragraph ("2.1 What Gets Checked? We list ..."): the
parse keeps a title set in the body's font with the text after it."""
MAX_TITLE_WORDS = 8


def _without_run_in_heading(sentences: Sequence[str]) -> Sequence[str]:
    """The sentences of a paragraph after a numbered subsection title run into it, if any."""
    first = sentences[0] if sentences else ""
    titled = len(sentences) > 1 and _NUMBERED_TITLE.match(first) and len(first.split()) <= MAX_TITLE_WORDS
    return sentences[1:] if titled else sentences


_COUNTS_THINGS = re.compile(COUNT_THEN + r"[a-z\-]{3,}s\b", re.I)
"""A count of things, two words at most between ("three sub-task functions", "4 safety checks")."""


def counted_items(text: str) -> int:
    """How many things a lead counts ("We run three checks." -> 3; 0 when it counts none, or more than 20)."""
    return next((n for m in _COUNTS_THINGS.finditer(text) if (n := enumeration_count(m.group("count")))), 0)


def introduces_list(lead: Passage, after: Sequence[Passage]) -> bool:
    """Whether a short paragraph of one sentence, right before two list items of its section, introduces them as a
    colon would ("You can help the pump last longer." over "• Flush it monthly.", "• Keep the intake clear.").
    One that counts its items ("We run three checks.") needs only the first right after it: the first item's own
    paragraphs may come before the second. A paragraph of any length does when one of its sentences points at
    what follows ("We propose the following checks for a pump.")."""
    text = lead.text.strip()
    needed = 1 if counted_items(text) else 2
    items_after = len(after) >= needed and all(
        b.kind == "list_item" and b.section_path == lead.section_path for b in after[:needed]
    )
    if lead.kind != "text" or not items_after:
        return False
    if points_ahead(text):
        return True
    return (
        text.endswith(".")
        and len(text.split()) <= MAX_LEAD_WORDS
        and len(_without_run_in_heading(split_sentences(text))) == 1
    )


_POINTS_AHEAD = re.compile(
    r"\bthe following\s+(?!(?:years?|days?|weeks?|months?|quarters?|mornings?|evenings?|seasons?|tables?|figures?"
    r"|schedules?|examples?|sections?|chapters?|pages?)\b)[a-z][\w-]*",
    re.I,
)
"""A sentence naming "the following" things without a colon ("We suggest the following checks can be used"): what
comes after it, unless the following is a time ("the following year") or a table, figure or part of the text."""


def points_ahead(text: str) -> bool:
    """Whether a passage names "the following" things it does not print itself (``_POINTS_AHEAD``)."""
    return bool(_POINTS_AHEAD.search(text))


def sibling_of(lead: str, item: str) -> bool:
    """Whether ``item`` is the lead's sibling, not its item: both open with the same marker ("• Readings
    vary in these cases:" over "· after a meal", "· after a bath", then "• Readings also vary ..."): a list
    nested under an item ends where the outer list goes on."""
    marker = item_marker(lead)
    return marker is not None and item_marker(item) == marker


def resumes_list(last: Passage, after: Passage) -> bool:
    """Whether the items go on after a plain paragraph: the item before it and the passage after it are items
    of one section, so the paragraph is the first item's own (its second paragraph, printed between them)."""
    return last.kind == "list_item" and after.kind == "list_item" and after.section_path == last.section_path


_RUN_IN_HEAD = re.compile(
    r"^\s*(?P<head>[A-Z][\w'-]*(?:\s+(?:[A-Z][\w'-]*|and|or|of|the|for|in|on|to|with)){0,5})[.:]\s+[A-Z]"
)
"""A paragraph that opens with a short head in title case, then a full stop or a colon ("Seal Wear. The
shaft seals ..."): an item's run-in term, printed in italics or small capitals the text layer does not mark bold."""
_NOT_A_HEAD = re.compile(r"^(?:table|figure|fig|section|chapter|appendix|step|note|yes|no|however|thus)\b", re.I)
"""Heads that are a reference's label ("Figure 3."), a step's or a note's, or a connective: never an item's term."""


def opens_with_head(text: str) -> bool:
    """Whether a paragraph opens with a title-case run-in head (``_RUN_IN_HEAD``): one item of a list of such."""
    head = _RUN_IN_HEAD.match(text)
    return head is not None and not _NOT_A_HEAD.match(head.group("head"))
