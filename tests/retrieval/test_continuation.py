"""A passage's continuation across a page break: its section's chunks on the neighbouring page."""

from __future__ import annotations

from engine.contracts import Chunk
from engine.retrieval.continuation import MAX_CONTINUATION, announced, continuation


def _chunk(page: int, index: int, section: str, text: str = "text", kind: str = "text") -> Chunk:
    return Chunk(
        chunk_id=f"d:p{page}:b{index}", doc_id="d", page=page, index=index, text=text,
        bboxes=((0, 0, 1, 1),), section_path=(section,) if section else (), kind=kind,  # type: ignore[arg-type]
    )  # fmt: skip


def _pages(*pages: list[Chunk]) -> dict[int, list[Chunk]]:
    return {chunks[0].page: chunks for chunks in pages}


def _reader(pages: dict[int, list[Chunk]]):
    return lambda page: pages.get(page, [])


def test_the_last_passage_of_a_page_continues_on_the_next_page_in_its_section():
    pages = _pages(
        [_chunk(4, 0, "Intro"), _chunk(4, 1, "Staff", "Prosecution Services Staff: A. Hibbert")],
        [_chunk(5, 0, "Staff", "Y. Green, C. Rochester"), _chunk(5, 1, "Budget")],
    )
    found = continuation(pages[4][1], _reader(pages))
    assert [c.chunk_id for c in found] == ["d:p5:b0"], "the list's remaining names, not the next section"


def test_the_first_passage_of_a_page_has_its_beginning_on_the_previous_page():
    pages = _pages(
        [_chunk(6, 0, "Other"), _chunk(6, 1, "Table 2", "Region  Revenue  Change")],
        [_chunk(7, 0, "Table 2", "Asia  1,200  -44%"), _chunk(7, 1, "Table 2", "Europe  900  +5%")],
    )
    found = continuation(pages[7][0], _reader(pages))
    assert [c.chunk_id for c in found] == ["d:p6:b1"], "the table's header row, read back across the break"


def test_no_continuation_when_a_heading_or_another_section_comes_between():
    pages = _pages(
        [_chunk(1, 0, "Staff", "A name"), _chunk(1, 1, "Budget", "Budget", kind="heading")],
        [_chunk(2, 0, "Budget", "More figures")],
    )
    assert continuation(pages[1][0], _reader(pages)) == (), "a heading opens its section on the passage's page"
    other = _pages([_chunk(1, 0, "Staff")], [_chunk(2, 0, "Budget")])
    assert continuation(other[1][0], _reader(other)) == (), "the next page opens another section"
    middle = _pages([_chunk(3, 0, "Staff"), _chunk(3, 1, "Staff"), _chunk(3, 2, "Later")])
    assert continuation(middle[3][1], _reader(middle)) == (), "a passage inside its page touches no edge"


def test_a_bold_label_inside_the_section_does_not_end_it():
    pages = _pages(
        [
            _chunk(8, 0, "Permissions", "Table 6-2 lists the operations"),
            _chunk(8, 1, "Permissions", "OBS Viewer", kind="heading"),
        ],
        [_chunk(9, 0, "Permissions", "Deleting folders  Yes  No")],
    )
    found = continuation(pages[8][0], _reader(pages))
    assert [c.chunk_id for c in found] == ["d:p9:b0"], "a table's column header keeps the section: the table goes on"


def test_a_passage_without_a_section_has_no_continuation():
    pages = _pages([_chunk(1, 0, "")], [_chunk(2, 0, "")])
    assert continuation(pages[1][0], _reader(pages)) == ()


def test_a_long_section_is_read_on_for_a_few_chunks_only():
    pages = _pages([_chunk(1, 0, "Risk")], [_chunk(2, i, "Risk") for i in range(MAX_CONTINUATION + 3)])
    assert len(continuation(pages[1][0], _reader(pages))) == MAX_CONTINUATION


def test_a_passage_ending_in_a_colon_is_read_with_the_block_it_announces():
    page = [
        _chunk(9, 0, "Benefits", "The ferry line plans its pension payments as follows:"),
        _chunk(9, 1, "Benefits", "Year | Pension\n2040 | 1,305"),
        _chunk(9, 2, "Benefits", "Contributions were made in cash."),
    ]
    reader = _reader(_pages(page))
    assert announced(page[0], reader) == (page[1],), "the table the sentence introduces, not the paragraph after"
    assert announced(page[1], reader) == (), "a block that announces nothing brings nothing"
    assert announced(page[2], reader) == ()


def test_an_announced_list_is_read_item_by_item_across_the_page_break():
    lead = _chunk(3, 4, "Routine", "The crew carries out the following inspections every week:")
    items = [_chunk(4, i, "Routine", f"{i + 1}. Inspection number {i + 1} of the pumps.") for i in range(3)]
    after = _chunk(4, 3, "Routine", "Monthly work is planned by the district office.")
    pages = _pages([_chunk(3, 3, "Routine"), lead], [*items, after])
    assert announced(lead, _reader(pages)) == tuple(items), "every item, and not the paragraph after them"
    assert announced(lead, _reader(pages), whole=False) == (), "unless a list is asked, one block on its own page"
    table = _pages([lead], [_chunk(4, 0, "Routine", "Pump | Hours\nP1 | 40"), after])
    assert announced(lead, _reader(table)) == (), "a table opening the next page is the continuation's to read"
    rows = [_chunk(3, 5, "Routine", "1. Pump | 40 | 41"), _chunk(3, 6, "Routine", "2. Valve | 12 | 13")]
    assert announced(lead, _reader(_pages([lead, *rows]))) == (rows[0],), "a table's rows are one block, no items"


def test_an_announcement_that_ends_its_section_brings_nothing():
    page = [_chunk(9, 0, "Plans", "We offer three plans:"), _chunk(9, 1, "Risks", "Rates may rise.")]
    assert announced(page[0], _reader(_pages(page))) == (), "the next section's passage is not what was announced"
    heading = [_chunk(9, 0, "Plans", "We offer three plans:"), _chunk(9, 1, "Plans", "Gold", kind="heading")]
    assert announced(heading[0], _reader(_pages(heading))) == ()


def test_an_announced_nested_list_ends_at_the_lead_s_sibling():
    lead = _chunk(6, 2, "Care", "• Clean the filter in the following cases:", kind="list_item")
    inner = [_chunk(6, 3 + i, "Care", f"· case {i}", kind="list_item") for i in range(3)]
    sibling = _chunk(6, 6, "Care", "• Replace the filter once a year.", kind="list_item")
    assert announced(lead, _reader(_pages([lead, *inner, sibling]))) == tuple(inner)
    numbered = [_chunk(6, 3 + i, "Care", f"{i + 1}. step {i}", kind="list_item") for i in range(2)]
    after = _chunk(6, 5, "Care", "3. step 2", kind="list_item")
    plain = _chunk(6, 2, "Care", "Clean the filter as follows:")
    assert announced(plain, _reader(_pages([plain, *numbered, after]))) == (*numbered, after), "one level: all"


def test_paragraphs_opening_with_title_case_run_in_heads_are_the_items_a_lead_announces():
    page = [
        _chunk(3, 4, "Pumps", "The harbour pump has three known weaknesses:"),
        _chunk(3, 5, "Pumps", "Seal Wear. The shaft seals wear within a season in salt water."),
        _chunk(3, 6, "Pumps", "Intake Clogging. Weed blocks the intake after storms."),
        _chunk(3, 7, "Pumps", "Cold Starts: Below freezing the motor stalls on its first start."),
        _chunk(3, 8, "Pumps", "Figure 2. The pump in its housing."),
    ]
    reader = _reader(_pages(page))
    assert announced(page[0], reader) == tuple(page[1:4]), "each titled paragraph is an item; a caption is none"
