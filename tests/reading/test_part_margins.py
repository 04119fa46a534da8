"""A margin asked of one part of a company (a segment, a unit) reads each input from the part's own figures; an input
only the company's totals give is doubted (made-up filing pages)."""

from __future__ import annotations

from engine.contracts import EvidenceItem
from engine.reading.entities import named_words
from engine.reading.line_items import line_item_names
from engine.reading.part_asked import asked_part
from engine.reading.question import extract_keywords
from engine.reading.sentence_values import cells_in
from engine.reading.value_answer import answer_value

CONSOLIDATED = EvidenceItem(
    chunk_id="d:p40:b0", doc_id="d", file_name="GULL_2041_10K.pdf", page=40,
    text="(in millions) | 2041 | 2040\nNet sales | 2,000 | 1,860\nOperating income | 300 | 280",
    section_path=("Consolidated Statements of Income",),
)  # fmt: skip
SEGMENT = EvidenceItem(
    chunk_id="d:p23:b1", doc_id="d", file_name="GULL_2041_10K.pdf", page=23,
    text="(in millions) | 2041 | 2040\nNet sales | 400 | 370\nOperating income | 100 | 90",
    section_path=("Business Segment Results", "GCS segment"),
)  # fmt: skip
SALES_ONLY = EvidenceItem(
    chunk_id="d:p24:b1", doc_id="d", file_name="GULL_2041_10K.pdf", page=24,
    text="(in millions) | 2041 | 2040\nNet sales | 400 | 370",
    section_path=("Business Segment Results", "GCS segment"),
)  # fmt: skip
ISSUER = ["Gull", "GULL"]


def test_an_acronym_owner_other_than_the_issuer_is_a_part_named() -> None:
    assert named_words("What was GCS's operating margin in 2041?", ISSUER) == ("gcs",)
    assert named_words("What was GULL's operating margin in 2041?", ISSUER) == ()


def test_a_part_s_margin_reads_the_part_s_rows() -> None:
    question = "What was GCS's operating margin in 2041?"
    value = answer_value(question, extract_keywords(question), line_item_names, [[CONSOLIDATED], [SEGMENT]], ISSUER)
    assert value is not None and value.statement.startswith("25.0%"), value
    assert not value.narrower


def test_a_part_s_margin_with_only_the_company_s_income_printed_is_doubted() -> None:
    question = "What was GCS's operating margin in 2041?"
    value = answer_value(question, extract_keywords(question), line_item_names, [[CONSOLIDATED], [SALES_ONLY]], ISSUER)
    assert value is not None and value.narrower, value


def test_a_capitalised_word_opening_a_later_sentence_names_no_part_and_total_rows_stay_read() -> None:
    balance = EvidenceItem(
        chunk_id="d:p50:b0", doc_id="d", file_name="GULL_2041_10K.pdf", page=50,
        text="(in millions) | 2041 | 2040\nCash | 700 | 650\nTotal current assets | 1,250 | 1,100\n"
        "Short-term debt | 400 | 380\nOther current liability | (5) | (4)\nTotal current liabilities | 2,811 | 2,500",
        section_path=("Consolidated Balance Sheets",),
    )  # fmt: skip
    question = "What was Gull's working capital in 2041? If it is not useful here, say why."
    assert asked_part(question, ISSUER, cells_in([[balance]])) == ()
    value = answer_value(question, extract_keywords(question), line_item_names, [[balance]], ISSUER)
    assert value is not None and value.statement.startswith("-1,561"), value


def test_the_part_asked_is_a_name_some_figure_is_printed_under() -> None:
    question = "What was GCS's operating margin in 2041?"
    assert asked_part(question, ISSUER, cells_in([[CONSOLIDATED], [SEGMENT]])) == ("gcs",)
    assert asked_part(question, ISSUER, cells_in([[CONSOLIDATED]])) == ()
