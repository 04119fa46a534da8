"""A computed metric of a qualified line item ("charter service revenue") reads the row of that item, never the
company's total (made-up statements)."""

from __future__ import annotations

from engine.contracts import EvidenceItem
from engine.reading.line_items import line_item_names
from engine.reading.question import extract_keywords
from engine.reading.value_answer import answer_value

STATEMENT = (
    "(in millions) | 2041 | 2040\n"
    "Revenues\n"
    "Ferry fares | 1,200 | 1,000\n"
    "Charter services | 300 | 200\n"
    "Total revenues | 1,500 | 1,200\n"
    "Operating income | 240 | 180"
)


def read(question: str):
    page = [EvidenceItem(chunk_id="d:p4:b0", doc_id="d", file_name="f.pdf", page=4, text=STATEMENT,
                         section_path=("Consolidated Statements of Income",))]  # fmt: skip
    return answer_value(question, extract_keywords(question), line_item_names, [page])


def test_the_growth_of_a_qualified_revenue_is_computed_from_its_own_row() -> None:
    answer = read("By what percentage did Acme's charter service revenue grow from 2040 to 2041?")
    assert answer is not None and answer.statement.startswith("50.0%"), answer
    assert all(c.label == "Charter services" for c in answer.cells), answer.cells


def test_the_growth_of_revenue_unqualified_is_computed_from_the_total() -> None:
    answer = read("By what percentage did Acme's total revenue grow from 2040 to 2041?")
    assert answer is not None and answer.statement.startswith("25.0%"), answer


def test_a_qualifier_no_row_prints_names_no_part_of_the_item() -> None:
    answer = read("By what percentage did Acme's unadjusted operating income grow from 2040 to 2041?")
    assert answer is not None and answer.statement.startswith("33.3%"), answer  # 240 / 180
