"""A count question reads a row that counts the things asked, even in a document whose currency its rows take by
default (made-up filing text)."""

from __future__ import annotations

import pytest

from engine.contracts import EvidenceItem
from engine.reading.counts import counted_phrase, counted_row, counted_things
from engine.reading.document_units import with_document_scale
from engine.reading.line_items import line_item_names
from engine.reading.sentence_values import cells_in
from engine.reading.value_answer import answer_from_cells


def item(text: str, page: int) -> EvidenceItem:
    return EvidenceItem(chunk_id=f"d:p{page}:b0", doc_id="d", file_name="ferry_10k.pdf", page=page, text=text)


STATEMENT = item("Consolidated Statements of Operations\n(in thousands) | 2041 | 2040\n"
                 "Ticket revenues | $ 812,400 | $ 760,100\nPass fees | 95,300 | 90,800\n"
                 "Operating income | $ 120,700 | $ 99,500", page=30)  # fmt: skip
OTHER_DATA = item("Other Data\n(in thousands) | 2041 | 2040\nActive ferry passes | 4,210 | 3,980", page=18)
QUESTION = "How many active ferry passes were outstanding at year-end 2041?"


def _cells():
    return with_document_scale(cells_in([[STATEMENT, OTHER_DATA]]))


def test_a_row_naming_what_is_counted_is_a_count_though_its_document_prints_a_currency() -> None:
    passes = next(c for c in _cells() if c.label == "Active ferry passes" and "2041" in c.column)
    assert passes.unit == "$", "the document's currency is given by default to a row that prints none"
    assert counted_row(passes, counted_things(QUESTION) or set()).unit == ""
    value = answer_from_cells(QUESTION, ["active ferry passes"], line_item_names, _cells())
    assert value is not None and value.kind_ok
    assert value.statement == "Active ferry passes, 2041: 4,210 thousand", value.statement


def test_a_money_row_or_a_printed_currency_stays_an_amount() -> None:
    counted = counted_things("How many passes were sold?") or set()
    fees = next(c for c in _cells() if c.label == "Pass fees" and "2041" in c.column)
    assert counted_row(fees, counted).unit == "$", "its head noun is fees: money about passes"
    revenue = next(c for c in _cells() if c.label == "Ticket revenues" and "2041" in c.column)
    assert counted_row(revenue, counted_things("How many ticket revenues?") or set()).unit == "$", "printed"


@pytest.mark.parametrize(
    ("question", "phrase"),
    [
        ("How many ferry crew did Blue Ferry employ at year-end 2041?", "ferry crew"),
        ("How many paid harbour passes were active?", "paid harbour passes"),
        ("How many berths does the east quay have?", "berths"),
        ("How much did the dredging cost?", ""),
        ("How many US dollars did the berth cost?", ""),
    ],
)
def test_the_counted_phrase_ends_at_the_verb(question: str, phrase: str) -> None:
    assert counted_phrase(question) == phrase


def test_a_row_that_names_nothing_counted_is_no_count_of_it() -> None:
    from engine.reading.counts import counted_things, wrong_count
    from engine.reading.table_values import Cell

    def row(label: str, column: str) -> Cell:
        return Cell(chunk_id="d:p2:b0", doc_id="d", page=2, label=label, column=column, raw="1", value=1.0, scale="",
                    unit="", periods=(), quote=f"{label} | 1", is_row=True)  # fmt: skip

    counted = counted_things("How many sonar buoys does the fleet carry?")
    assert wrong_count(counted, row("Lumo Guide (01,en)", "View your tide data"))
    assert not wrong_count(counted, row("Sonar buoys carried", "2031"))


def test_an_operating_table_row_of_memberships_or_deliveries_is_never_in_the_documents_currency() -> None:
    table = item("Other operating data\n(in thousands) | 2041 | 2040\nPaid memberships at end of period | 43,401 | 37,698\n"
                 "Ferry deliveries | 31 | 29", page=9)  # fmt: skip
    cells = with_document_scale(cells_in([[STATEMENT, table]]))
    assert {c.unit for c in cells if c.label in ("Paid memberships at end of period", "Ferry deliveries")} == {""}


def test_a_count_asked_on_average_or_per_thing_may_be_a_fraction() -> None:
    from engine.contracts import EvidenceItem
    from engine.reading.line_items import line_item_names
    from engine.reading.question import extract_keywords
    from engine.reading.value_answer import answer_value

    text = "Ferry operations | 2041 | 2040\nAverage stops per crossing | 5.27 | 4.90\nCrossings | 1,204 | 1,150"
    page = [EvidenceItem(chunk_id="d:p3:b0", doc_id="d", file_name="ferry.pdf", page=3, text=text)]
    question = "How many stops per crossing were made on average in 2041?"
    answer = answer_value(question, extract_keywords(question), line_item_names, [page])
    assert answer is not None and answer.statement.endswith("5.27"), answer


def test_a_span_of_months_is_a_period_not_a_count_of_items() -> None:
    from engine.documents.text import stems
    from engine.reading.question import expected_count
    from engine.reading.value_spec import value_spec

    question = "What were Acme's ferry fares in the three months ended June 30, 2041?"
    assert expected_count(question) is None
    assert expected_count("What are the three main routes Acme sails?") == 3
    spec = value_spec(question, ["ferry fares", "three months ended", "June", "30", "2041"], [])
    assert spec.terms == (stems("ferry fares"),), spec.terms  # the span and its date name the period, not the item


@pytest.mark.parametrize(
    ("question", "counted"),
    [
        ("What was the number of berths at year-end 2041?", {"berth"}),
        ("What was the berth count in 2041?", {"berth"}),
        ("What was the count of ferries in service?", {"ferry"}),
        ("What was Blue Ferry's headcount at year-end 2041?", {"headcount", "employee", "peopl"}),
        ("Does the harbour fee count toward the annual cap?", None),
        ("What was the harbour fee in 2041?", None),
    ],
)
def test_a_count_is_asked_by_number_of_by_count_and_by_headcount(question: str, counted: set[str] | None) -> None:
    found = counted_things(question)
    assert found == counted if counted is None else found is not None and counted <= found, found


def _sentence(text: str) -> list:
    return cells_in([[item(text, 4)]])


def test_a_count_of_people_counts_the_people_its_sentence_names() -> None:
    from engine.reading.counts import wrong_count

    employed = next(c for c in _sentence("At December 31, 2041, Gull Line employed 8,300 people worldwide.")
                    if c.value == 8300)  # fmt: skip
    assert not wrong_count(counted_things("How many employees did Gull Line have?"), employed)
    assert wrong_count(counted_things("How many ferries did Gull Line operate?"), employed), "people are no ferries"


def test_a_count_question_reads_the_sentence_counting_the_people_not_a_listed_number_of_shares() -> None:
    cells = _sentence(
        "Employees purchased 2.1 million, 2.4 million and 2.2 million shares during 2041, 2040 and 2039, respectively. "
        "At December 31, 2041, Blue Ferry employed 8,300 people worldwide."
    )
    question = "How many employees did Blue Ferry have at year-end 2041?"
    value = answer_from_cells(question, ["employees"], line_item_names, cells, ["Blue", "Ferry"])
    assert value is not None and value.cells[0].value == 8300, value


def test_a_count_of_people_takes_no_table_scale_that_makes_it_more_people_than_there_are() -> None:
    page = [EvidenceItem(chunk_id="d:p9:b0", doc_id="d", file_name="gull_q1.pdf", page=9,
                         text="(in millions, except where otherwise noted) | 2041 | 2040\nHeadcount | 259,350 | 255,998\n"
                         "Net revenue | 32,266 | 29,025")]  # fmt: skip
    counted = counted_things("What was Gull's headcount in 2041?")
    assert counted is not None
    headcount = next(counted_row(c, counted) for c in cells_in([page]) if c.label == "Headcount")
    assert headcount.scale == "" and headcount.unit == "", headcount
    ferries = [EvidenceItem(chunk_id="d:p9:b1", doc_id="d", file_name="gull_q1.pdf", page=9,
                            text="(in millions) | 2041 | 2040\nFerry passengers | 412 | 398")]  # fmt: skip
    passengers = next(c for c in cells_in([ferries]) if c.label == "Ferry passengers")
    assert (
        counted_row(passengers, counted_things("How many ferry passengers did Gull carry?") or set()).scale == "million"
    )
