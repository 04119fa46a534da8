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


def test_a_change_asked_in_dollars_outside_brackets_is_a_change_of_the_item_named() -> None:
    from engine.reading.formulas import operands

    question = "How much did Gull's fare revenue increase in dollars from fiscal 2039 to fiscal 2041?"
    assert operands(parse_formula(question, standard_definition)) == ["fare revenue"]


STATEMENT = EvidenceItem(
    chunk_id="d:p50:b1", doc_id="d", file_name="gull.pdf", page=50, section_path=("Consolidated Statements of Income",),
    text="(in millions) | Revenue Years Ended 2041 | 2040 | 2039 | Cost of revenue Years Ended 2041 | 2040 | 2039\n"
    "Fares | $ 1,640 | $ 1,500 | $ 1,160 | 164 | 150 | 110",
)  # fmt: skip
DISCUSSION = EvidenceItem(
    chunk_id="d:p40:b1", doc_id="d", file_name="gull.pdf", page=40, section_path=("Results of Operations",),
    text="(in millions) | 2041 | 2040 | 2039\nFares | $ 1,640 | $ 1,500 | $ 1,160\nCharters | 220 | 210 | 190",
)  # fmt: skip


def test_a_column_measuring_another_thing_of_the_item_is_not_read_for_the_item() -> None:
    from engine.reading.value_match import measures_another

    assert measures_another("Cost of revenue Years Ended 2041", {"fare", "revenu"})
    assert not measures_another("Cost of revenue Years Ended 2041", {"cost", "revenu"})
    question = "How much did Gull's fare revenue increase in dollars from fiscal 2039 to fiscal 2041?"
    value = answer_value(question, extract_keywords(question), line_item_names, [[STATEMENT], [DISCUSSION]], ["Gull"])
    assert value is not None and value.statement.startswith("$480 million"), value


def test_an_input_is_read_from_a_column_naming_its_year_alone_before_one_naming_two_years() -> None:
    blurred = EvidenceItem(
        chunk_id="d:p51:b1", doc_id="d", file_name="gull.pdf", page=51, section_path=("Consolidated Statements",),
        text="(in millions) | 2039 Revenue Years Ended 2041\nFares | $ 1,640",
    )  # fmt: skip
    question = "How much did Gull's fare revenue increase in dollars from fiscal 2039 to fiscal 2041?"
    value = answer_value(question, extract_keywords(question), line_item_names, [[blurred], [DISCUSSION]], ["Gull"])
    assert value is not None and value.statement.startswith("$480 million"), value


def test_a_change_read_from_one_row_under_two_measures_columns_is_doubted() -> None:
    from engine.reading.formula_values import Working, columns_of_other_measures
    from engine.reading.formulas import Operand
    from engine.reading.periods import Period
    from engine.reading.table_values import Cell

    def cell(column: str, year: int) -> Cell:
        return Cell(chunk_id="d:p17:b6", doc_id="d", page=17, label="Harbour", column=column, raw="1", value=1.0,
                    scale="", unit="", periods=(Period(year),), quote="", is_row=True)  # fmt: skip

    kiosks = Operand(phrase="kiosks", periods=(), mode="value")
    other = Working(1.0, [(kiosks, Period(2041), cell("Fiscal 2041 Kiosks at End of Quarter", 2041)),
                          (kiosks, Period(2040), cell("Fiscal 2040 Kiosks Opened", 2040))])  # fmt: skip
    same = Working(1.0, [(kiosks, Period(2041), cell("Fiscal 2041 Kiosks at End of Quarter", 2041)),
                         (kiosks, Period(2040), cell("Fiscal 2040 Kiosks at End of Quarter", 2040))])  # fmt: skip
    assert columns_of_other_measures(other) and not columns_of_other_measures(same)
