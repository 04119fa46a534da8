"""A sentence about one named segment does not answer for the company."""

from __future__ import annotations

from engine.contracts import EvidenceItem
from engine.reading.line_items import line_item_names
from engine.reading.value_answer import answer_value


def _item(text: str, page: int) -> EvidenceItem:
    return EvidenceItem(chunk_id=f"d:p{page}:b0", doc_id="d", file_name="ferries.pdf", page=page, text=text)


SEGMENT = (
    "With approximately 9,000 employees at 40 plants in 12 countries as of June 30, 2041, the Coastal Segment is a "
    "leading ferry builder."
)
COMPANY = "As of June 30, 2041, we had approximately 12,000 employees worldwide, including part-time workers."


def test_the_company_s_count_is_read_over_a_segment_s() -> None:
    pages = [[_item(SEGMENT, 3)], [_item(COMPANY, 9)]]
    value = answer_value("How many employees did Harbour Lines have in 2041?", ["employees"], line_item_names, pages)
    assert value is not None and value.statement.startswith("12,000"), value


def test_a_question_naming_the_segment_reads_the_segment_s_sentence() -> None:
    pages = [[_item(SEGMENT, 3)], [_item(COMPANY, 9)]]
    question = "How many employees does the Coastal Segment have?"
    value = answer_value(question, ["employees", "Coastal Segment"], line_item_names, pages)
    assert value is not None and value.statement.startswith("9,000"), value
