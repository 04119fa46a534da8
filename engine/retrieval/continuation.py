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
from engine.documents.layout import has_rows
from engine.documents.list_marks import (
    ITEM_MARK,
    counted_items,
    introduces_list,
    opens_with_head,
    resumes_list,
    sibling_of,
)

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


MAX_ANNOUNCED = 12
"""Items read after one lead: enough for any list a person asks about (``reading.lists.MAX_ITEMS``)."""


def item_block(chunk: Chunk) -> bool:
    """A block that is one item of a list: a list item, a line opening with a marker, or a paragraph
    opening with its run-in term, bold ("Seal inspection The shaft seals ...") or a title-case head ("Seal
    Inspection. The shaft seals ..."). A table's rows are no items
    (a table is one block, its bold row labels notwithstanding)."""
    if chunk.kind == "table" or has_rows(chunk.text):
        return False
    if chunk.kind == "list_item" or ITEM_MARK.match(chunk.text):
        return True
    bold = any(t.strip() and chunk.text.lstrip().startswith(t.strip()) for t in chunk.bold_terms)
    return bold or (chunk.kind == "text" and opens_with_head(chunk.text))


def announced(chunk: Chunk, chunks_on_page: Callable[[int], Sequence[Chunk]], whole: bool = True) -> tuple[Chunk, ...]:
    """The blocks a passage announces: a passage ending in a colon ("The crew carries out the following
    inspections:") is read with what follows it in its section, on its page and across one page break (a
    list is one passage to a reader wherever the page ends): the block right after it (the table or list
    it introduces), and, when that is a list item, the items after it up to the first block that is none.
    Not ``whole``: the block right after it on its page only (the caller reads a list whole when one is asked)."""
    here = list(chunks_on_page(chunk.page))
    if chunk not in here:
        return ()
    after = here[here.index(chunk) + 1 :]
    if not chunk.text.rstrip().endswith(":"):
        if not introduces_list(chunk, after):
            return ()
        whole = True  # what it introduces is a list, and a list is read whole
    found: list[Chunk] = []
    blocks = [*after, *chunks_on_page(chunk.page + 1)]
    for n, block in enumerate(blocks):
        if block.section_path != chunk.section_path or block.kind == "heading" or len(found) >= MAX_ANNOUNCED:
            break
        if found and not whole:
            break
        if found and whole and not item_block(block) and n + 1 < len(blocks) and resumes_list(found[-1], blocks[n + 1]):
            found.append(block)  # an item's second paragraph, set between it and the next item
            continue
        if (
            found
            and whole
            and not item_block(block)
            and _items_due(chunk, found, blocks[n + 1 : n + 1 + ITEM_PARAGRAPHS])
        ):
            found.append(block)  # an item's own paragraphs, while the lead's count of items is not reached
            continue
        if (found or not after) and not (whole and item_block(block)):
            # the list ends at the first block that is no item; a lone table or paragraph is one block, and
            # one opening the next page is left to the loop's continuation (measured against the cited passage)
            break
        if found and sibling_of(chunk.text, block.text):
            break  # the lead's sibling (same marker as the lead): the nested list under it has ended
        found.append(block)
    return tuple(found)


ITEM_PARAGRAPHS = 3
"""Paragraphs of its own an item may run to before the next item of a counted list (an example, a prompt)."""


def _items_due(lead: Chunk, found: Sequence[Chunk], ahead: Sequence[Chunk]) -> bool:
    """Whether a lead that counts its items ("We run three checks.") has more to come: fewer items read than it
    counts, and another item of its section within the next few blocks."""
    items = sum(1 for block in found if item_block(block))
    due = counted_items(lead.text) > items
    return due and any(item_block(b) and b.section_path == lead.section_path for b in ahead)


__all__ = ["MAX_ANNOUNCED", "MAX_CONTINUATION", "announced", "continuation", "item_block"]
