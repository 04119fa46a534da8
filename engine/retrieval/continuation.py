"""Continuation: the part of a passage's section that a page break cut off.

A section, a list or a table that runs across a page break is one passage to a reader: when the
answer's passage is the last one on its page and the next page opens in the same section, the next
page's opening passages are its continuation (the list's remaining items, the table's other rows); when
it is the first one on its page and the previous page closes in the same section, the previous page's
closing passages are its beginning (the list's opening sentence, the table's header). Pure: the caller
passes the chunks of the pages around the passage.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.contracts import Chunk

MAX_CONTINUATION = 3
"""Chunks read across one page break: the opening rows or paragraphs of the section's next part."""


def continuation(chunk: Chunk, chunks_on_page: Callable[[int], Sequence[Chunk]]) -> tuple[Chunk, ...]:
    """The chunks across a page break from ``chunk`` that continue its section (none when another
    section begins between them, or the passage does not touch its page's edge). A bold label inside
    the section (a table's column header, "NOTE") opens no section of its own: the parse keeps the
    section path, and so does this."""
    section = chunk.section_path
    if not section:
        return ()
    here = list(chunks_on_page(chunk.page))
    if chunk not in here:
        return ()
    at = here.index(chunk)
    found: list[Chunk] = []
    if _same_section(here[at + 1 :], section):
        found += _leading(chunks_on_page(chunk.page + 1), section)
    if _same_section(here[:at], section):
        found += _leading(list(reversed(chunks_on_page(chunk.page - 1))), section)
    return tuple(found)


def _same_section(chunks: Sequence[Chunk], section: tuple[str, ...]) -> bool:
    return all(c.section_path == section for c in chunks)


def _leading(chunks: Sequence[Chunk], section: tuple[str, ...]) -> list[Chunk]:
    """The chunks from the page break onward that stay in ``section`` (at most MAX_CONTINUATION)."""
    taken: list[Chunk] = []
    for chunk in chunks:
        if chunk.section_path != section or len(taken) >= MAX_CONTINUATION:
            break
        taken.append(chunk)
    return taken


def announced(chunk: Chunk, chunks_on_page: Sequence[Chunk]) -> Chunk | None:
    """The block a passage announces: a passage ending in a colon ("The benefit payments are expected to
    be paid as follows:") is read with the chunk right after it in its section (the table or list it
    introduces), which states what the sentence says is coming."""
    if not chunk.text.rstrip().endswith(":") or chunk not in chunks_on_page:
        return None
    at = list(chunks_on_page).index(chunk)
    following = chunks_on_page[at + 1 : at + 2]
    if not following or following[0].section_path != chunk.section_path or following[0].kind == "heading":
        return None
    return following[0]


__all__ = ["MAX_CONTINUATION", "announced", "continuation"]
