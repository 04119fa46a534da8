"""A count a list breaks down: each item's leading number counts what the list's lead counts (made-up pages)."""

from __future__ import annotations

from engine.contracts import EvidenceItem
from engine.reading.line_items import line_item_names
from engine.reading.list_counts import item_counts
from engine.reading.sentence_values import cells_in
from engine.reading.value_answer import answer_from_cells

LEAD = "As of June 30, 2041, we had 412 full-time technicians, including:"
ITEMS = ("• 96 in calibration and repair;", "• 31 in field service; and", "• 285 in assembly.")


def _page() -> list[EvidenceItem]:
    lead = EvidenceItem(chunk_id="d:p7:b0", doc_id="d", file_name="kestrel_10k.pdf", page=7, text=LEAD)
    items = [
        EvidenceItem(
            chunk_id=f"d:p7:b{n}", doc_id="d", file_name="kestrel_10k.pdf", page=7, text=text, kind="list_item"
        )
        for n, text in enumerate(ITEMS, start=1)
    ]
    return [lead, *items]


def test_an_item_opening_with_a_bare_number_counts_what_its_lead_counts() -> None:
    (cell,) = item_counts(_page()[2], LEAD)
    assert cell.value == 31 and cell.measure == "full-time technicians" and cell.lead == LEAD


def test_an_item_under_a_lead_that_counts_nothing_is_no_count() -> None:
    assert item_counts(_page()[2], "Our technicians work in these areas:") == []


def test_a_count_asked_of_one_part_reads_the_item_naming_that_part_not_the_lead_total() -> None:
    question = "How many full-time technicians worked in field service?"
    keywords = ["full-time technicians", "field service"]
    value = answer_from_cells(question, keywords, line_item_names, cells_in([_page()]))
    assert value is not None and value.cells[0].value == 31


def test_the_lead_total_still_answers_for_the_whole() -> None:
    question = "How many full-time technicians did the company have?"
    value = answer_from_cells(question, ["full-time technicians"], line_item_names, cells_in([_page()]))
    assert value is not None and value.cells[0].value == 412
