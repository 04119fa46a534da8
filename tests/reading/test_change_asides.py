"""A change asked of an item written with an aside ("gross margin (in dollars)") or owned by a plural name ("Gull
Ferries' gross margin") reads the item as printed (made-up statement)."""

from __future__ import annotations

from engine.contracts import EvidenceItem
from engine.reading.formulas import parse_formula
from engine.reading.line_items import line_item_names, standard_definition
from engine.reading.question import extract_keywords
from engine.reading.value_answer import answer_value

TABLE = EvidenceItem(
    chunk_id="d:p35:b2", doc_id="d", file_name="gull.pdf", page=35, section_path=("Results of Operations",),
    text="(thousands) | 2041 | 2040\nRevenue | 2,014,908 | 2,582,931\nGross margin | $1,118,637 | $1,577,275\n"
    "Gross margin % | 55.5% | 61.1%",
)  # fmt: skip


def test_an_aside_after_the_item_does_not_hide_the_change_asked() -> None:
    assert parse_formula("By what percentage did Gull's revenue (as reported) fall from 2040 to 2041?") is not None


def test_a_margin_asked_in_dollars_is_the_amount_printed_not_the_percentage() -> None:
    question = "By what percentage did Gull Ferries' gross margin (in dollars) fall from fiscal 2040 to fiscal 2041?"
    assert parse_formula(question, standard_definition) is not None
    value = answer_value(question, extract_keywords(question), line_item_names, [[TABLE]], ["Gull"])
    assert value is not None and value.statement.startswith("-29.1%"), value
