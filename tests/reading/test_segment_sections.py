"""A figure of a business the question names, printed on that business's page of the segment results: its rows name
the line item only, the page's heading names the business (made-up filing pages)."""

from __future__ import annotations

from engine.contracts import EvidenceItem
from engine.reading.line_items import line_item_names
from engine.reading.question import extract_keywords
from engine.reading.value_answer import answer_value

CONSOLIDATED = EvidenceItem(
    chunk_id="d:p40:b0", doc_id="d", file_name="gull_10k.pdf", page=40,
    text="(in millions) | 2041 | 2040\nTicket revenue | 1,200 | 1,100\nFreight revenue | 800 | 760\nTotal net revenue | 2,000 | 1,860",
    section_path=("Consolidated Statements of Income",),
)  # fmt: skip
SEGMENT_PAGE = EvidenceItem(
    chunk_id="d:p23:b1", doc_id="d", file_name="gull_10k.pdf", page=23,
    text="(in millions) | 2041 | 2040\nTicket revenue | 310 | 280\nFreight revenue | 95 | 90\nTotal net revenue | 405 | 370",
    section_path=("Business Segment Results", "Harbour & Island Ferries"),
)  # fmt: skip
QUESTION = "What ticket revenue did Harbour & Island Ferries report for 2041?"


def test_the_named_business_s_row_is_read_from_its_own_section_without_a_segment_doubt() -> None:
    value = answer_value(QUESTION, extract_keywords(QUESTION), line_item_names, [[CONSOLIDATED], [SEGMENT_PAGE]])
    assert value is not None and value.cells[0].raw == "310", value
    assert not value.doubts, value.doubts


def test_without_the_business_named_the_consolidated_row_is_read() -> None:
    question = "What ticket revenue did Gull Line report for 2041?"
    value = answer_value(question, extract_keywords(question), line_item_names, [[CONSOLIDATED], [SEGMENT_PAGE]],
                         ["Gull", "Line"])  # fmt: skip
    assert value is not None and value.cells[0].raw == "1,200", value


def test_which_segment_asked_names_no_segment() -> None:
    from engine.reading.statement_sense import outside_asked_segment
    from engine.reading.table_values import Cell

    row = Cell(chunk_id="d:p28:b1", doc_id="d", page=28, label="Harbour Ferries", column="2041", raw="661", value=661.0,
               scale="million", unit="$", periods=(), quote="Harbour Ferries | 661", is_row=True)  # fmt: skip
    assert outside_asked_segment(row, "Which Gull segment earned more: Harbour Ferries or Island Freight?") == ""
    assert outside_asked_segment(row, "What did the Island Freight segment earn in 2041?") == "Island Freight"
