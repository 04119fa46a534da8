"""A share of a whole asked as what went to something is that thing as a share of the whole (made-up statements)."""

from __future__ import annotations

import pytest

from engine.contracts import EvidenceItem
from engine.reading.formulas import parse_formula
from engine.reading.line_items import line_item_names
from engine.reading.question import extract_keywords
from engine.reading.value_answer import answer_value

STATEMENT = (
    "(in millions) | 2041 | 2040\n"
    "Total revenue | 2,000 | 1,600\n"
    "Research and development | 300 | 280\n"
    "Marketing | 150 | 120"
)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What share of Acme's fiscal 2041 total revenue was spent on research and development?", "15.0%"),
        ("What percentage of its 2041 total revenue did Acme Ferries spend on marketing?", "7.5%"),
    ],
)
def test_what_went_to_an_item_is_read_as_its_share_of_the_whole(question: str, expected: str) -> None:
    assert parse_formula(question) is not None
    page = [EvidenceItem(chunk_id="d:p4:b0", doc_id="d", file_name="f.pdf", page=4, text=STATEMENT,
                         section_path=("Consolidated Statements of Income",))]  # fmt: skip
    answer = answer_value(question, extract_keywords(question), line_item_names, [page])
    assert answer is not None and answer.statement.startswith(expected), answer


def test_a_share_asked_of_people_is_no_formula() -> None:
    assert parse_formula("What share of respondents said they use the ferry daily?") is None
