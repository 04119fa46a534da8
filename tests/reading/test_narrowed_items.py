"""A line item narrowed by the question's own words ("storm-related capital expenditures") is read where those words
are printed, not from the statement row a document phrase translates the item to (made-up filing pages)."""

from __future__ import annotations

from engine.contracts import EvidenceItem
from engine.reading.line_items import line_item_names
from engine.reading.question import extract_keywords
from engine.reading.value_answer import answer_value

CASH_FLOWS = EvidenceItem(
    chunk_id="d:p61:b0", doc_id="d", file_name="gull_10k.pdf", page=61,
    text="(in millions) | 2041 | 2040\nPurchases of property, plant and equipment | (2,711) | (2,540)",
    section_path=("Consolidated Statements of Cash Flows",),
)  # fmt: skip
PROSE = EvidenceItem(
    chunk_id="d:p18:b3", doc_id="d", file_name="gull_10k.pdf", page=18,
    text="We incurred expenditures in 2041 for storm protection as follows: $55 million in storm-related capital "
    "expenditures and $152 million in other storm-related expenses.",
)  # fmt: skip


def _read(question: str):
    return answer_value(question, extract_keywords(question), line_item_names, [[CASH_FLOWS], [PROSE]], ["Gull"])


def test_the_narrowed_item_is_read_from_the_sentence_that_names_it() -> None:
    value = _read("How much did Gull spend on storm-related capital expenditures in 2041?")
    assert value is not None and value.cells[0].value == 55, value


def test_the_item_itself_is_still_read_from_the_statement_row() -> None:
    value = _read("How much did Gull spend on capital expenditures in 2041?")
    assert value is not None and value.cells[0].raw == "(2,711)", value


def test_words_elsewhere_in_the_question_narrow_nothing() -> None:
    value = _read("Per its cash flows, how much did Gull (formerly known as Tern Line) spend on capital "
                  "expenditures in 2041?")  # fmt: skip
    assert value is not None and value.cells[0].raw == "(2,711)", value
