"""Statement sense as doubts: a value read from a row that may be another figure is never claimed complete, and
a row's head noun must name the item asked (made-up filings)."""

from __future__ import annotations

import pytest

from engine.contracts import EvidenceItem
from engine.reading.document_units import with_document_scale
from engine.reading.line_items import line_item_names
from engine.reading.sentence_values import cells_in
from engine.reading.signed_amounts import signed_amount
from engine.reading.statement_sense import head_noun
from engine.reading.value_answer import ValueAnswer, answer_from_cells
from engine.run.side_difference import exact as _exact
from engine.run.value_reader import _value_caveats


def item(text: str, page: int = 1, n: int = 0) -> EvidenceItem:
    return EvidenceItem(chunk_id=f"d:p{page}:b{n}", doc_id="d", file_name="quarry_10k.pdf", page=page, text=text)


PERCENT_ONLY = [
    item("Results of Operations\n(Percent of net revenues) | 2041 | 2040\n"
         "Net revenues | 100.0 % | 100.0 %\nResearch and development expenses | 7.3 | 7.9", page=21),
]  # fmt: skip
OBLIGOR_ONLY = [
    item("Summarized Financial Information of the Obligor Group\n(in millions)\nYear ended | 2041\n"
         "Net revenues | $ 640\nNet income attributable to Obligor Group | $ 1,210", page=40),
]  # fmt: skip
INCOME = [
    item("Quarry Holdings Consolidated Statements of Operations\n(in millions) | 2041 | 2040\n"
         "Net revenues | $ 9,875 | $ 9,310\nCost of revenues | (5,120) | (4,980)\n"
         "Income tax benefits | (54) | (40)\nProvision for income taxes | 610 | 580\nNet income | $ 1,402 | $ 1,318",
         page=60),
]  # fmt: skip


def _value(question: str, keywords: list[str], pages: list[list[EvidenceItem]]) -> ValueAnswer:
    value = answer_from_cells(question, keywords, line_item_names, with_document_scale(cells_in(pages)))
    assert value is not None
    return value


@pytest.mark.parametrize(
    ("label", "head"),
    [
        ("Cost of revenues", "Cost"),
        ("Income tax benefits (Note 7)", "benefits"),
        ("Net cash provided by (used in) operating activities", "cash"),
        ("Net income attributable to Quarry", "income"),
        ("Other income (loss), net", "income"),
        ("Net earnings per share - diluted", "earnings"),
        ("Total assets", "assets"),
    ],
)
def test_the_head_noun_of_a_row_label_ends_where_what_it_is_of_or_for_begins(label: str, head: str) -> None:
    assert head_noun(label) == head


def test_a_percentage_read_for_an_amount_is_doubtful_and_never_claimed() -> None:
    value = _value("What were Quarry's research and development expenses in 2041?",
                   ["research and development expenses"], [PERCENT_ONLY])  # fmt: skip
    assert value.doubts and "percentage" in value.doubts[0]
    assert not _exact(value)
    assert any(c.detail and "percentage" in c.detail for c in _value_caveats(value, counts=False))


def test_an_obligor_groups_row_alone_is_doubtful_and_the_consolidated_one_is_not() -> None:
    alone = _value("What were Quarry's net revenues in 2041?", ["net revenues"], [OBLIGOR_ONLY])
    assert alone.doubts and "guarantor" in alone.doubts[0], alone
    both = _value("What were Quarry's net revenues in 2041?", ["net revenues"], [OBLIGOR_ONLY, INCOME])
    assert "9,875" in both.statement and not both.doubts and _exact(both), both


def test_a_row_whose_head_names_another_thing_gives_way_and_alone_is_doubtful() -> None:
    value = _value("What was Quarry's income tax expense in 2041?", ["income tax expense"], [INCOME])
    assert "Provision for income taxes" in value.statement and "610" in value.statement, value
    assert not value.doubts
    benefits = [item("Consolidated Statements of Operations\n(in millions) | 2041 | 2040\n"
                     "Income tax benefits | (54) | (40)", page=61)]  # fmt: skip
    alone = _value("What was Quarry's income tax expense in 2041?", ["income tax expense"], [benefits])
    assert any("benefits" in d for d in alone.doubts), alone
    assert not _exact(alone)


def test_a_cost_printed_in_parentheses_is_an_amount_spent_not_a_negative_sale() -> None:
    cells = with_document_scale(cells_in([INCOME]))
    cost = next(c for c in cells if c.label == "Cost of revenues" and c.column == "2041")
    assert signed_amount(cost) == "$5,120 million spent (printed as (5,120))"


def test_a_verb_of_how_the_amount_came_about_names_no_line_item() -> None:
    page = [item("Consolidated Statements of Cash Flows\n(in millions) | 2041 | 2040\n"
                 "Net cash provided by operating activities | $ 2,210 | $ 1,940", page=62)]  # fmt: skip
    value = _value("How much cash did Quarry generate from operating activities in 2041?",
                   ["operating activities", "cash", "generate"], [page])  # fmt: skip
    assert "$2,210 million" in value.statement and _exact(value), value


def test_a_row_label_cut_by_a_line_wrap_is_read_whole_and_a_net_loss_is_the_net_income() -> None:
    page = [item("Consolidated Statements of Operations\n(in millions) | 2041 | 2040\n"
                 "Pension cost included in Other\nincome, net | (881) | (528)\n"
                 "Other income, net | 1,058 | 551\nNet loss | (5,053) | (4,290)", page=63)]  # fmt: skip
    labels = {c.label for c in cells_in([page])}
    assert "Pension cost included in Other income, net" in labels and "income, net" not in labels, labels
    value = _value("What was Quarry's net income in 2041?", ["net income"], [page])
    assert value.statement.startswith("Net loss") and "-5,053 million" in value.statement, value


def test_an_input_of_a_computation_read_from_a_doubtful_row_keeps_the_answer_from_being_claimed() -> None:
    value = _value("What was Quarry's net profit margin in 2041?", ["net profit margin"], [OBLIGOR_ONLY])
    assert value.unsure and not _exact(value), value
    both = _value("What was Quarry's net profit margin in 2041?", ["net profit margin"], [INCOME])
    assert "14.2%" in both.statement and not both.unsure and _exact(both), both


def test_money_paid_for_something_is_stated_as_spent_on_it() -> None:
    page = [item("Consolidated Statements of Cash Flows\n(in millions) | 2041 | 2040\n"
                 "Purchases of plant and machinery (P&M) | $ (733) | $ (690)", page=64)]  # fmt: skip
    cells = with_document_scale(cells_in([page]))
    capex = next(c for c in cells if c.column == "2041")
    assert signed_amount(capex) == "$733 million spent on plant and machinery (a cash outflow; printed as $ (733))"


def test_an_expense_is_asked_as_a_value_and_read_from_a_row_that_names_it_without_the_word() -> None:
    from engine.reading.question import asks_for_value

    assert asks_for_value("What were Quarry's marketing expenses in 2041?")
    assert not asks_for_value("Why did Quarry move its headquarters?")


def test_the_owners_share_of_net_income_leads_over_an_investees_net_income_in_the_notes() -> None:
    from engine.reading.item_labels import owners_share

    assert owners_share("Net income attributable to Quarry Inc. common shareholders") == "Net income"
    assert owners_share("Net income attributable to noncontrolling interests").endswith("interests")
    notes = [item("Notes to Consolidated Financial Statements\n(MILLIONS) | 2041 | 2040\n"
                  "Net sales | $ 6,380 | $ 6,224\nNet income | 2,040 | 2,012", page=74)]  # fmt: skip
    statement = [item("Consolidated Statements of Income\n(MILLIONS) | 2041 | 2040\n"
                      "Net income attributable to noncontrolling interests | 46 | 36\n"
                      "Net income attributable to Quarry Inc. common shareholders | $ 21,979 | $ 9,159", page=58)]  # fmt: skip
    value = _value("What was Quarry's net income in 2041?", ["net income"], [notes, statement])
    assert "21,979" in value.statement and not value.narrower and _exact(value), value


def test_a_money_row_that_names_the_things_counted_after_its_head_takes_the_documents_currency() -> None:
    page = [item("Consolidated Statements of Earnings\n(Dollars in Millions) | 2041 | 2040\n"
                 "Sales to customers | $ 94,943 | 93,775\nCost of products sold | 31,089 | 29,855\n"
                 "Weighted average shares outstanding | 2,663 | 2,674", page=65)]  # fmt: skip
    cells = {(c.label, c.column): c for c in with_document_scale(cells_in([page]))}
    assert cells[("Sales to customers", "2040")].display() == "$93,775 million"
    assert cells[("Weighted average shares outstanding", "2041")].unit == ""
