"""The question's content without its format instructions, and the glossary's document words."""

from __future__ import annotations

import pytest

from engine.reading.focus import enrich, focus
from engine.reading.glossary import expansions, statements_named
from engine.reading.lexicon import BALANCE, CASH_FLOW, INCOME
from engine.reading.line_items import line_item_names
from engine.reading.question import parse_question


@pytest.mark.parametrize(
    ("question", "content", "dropped"),
    [
        (
            "What is the net debt in FY2036? Round the result to two decimals.",
            "What is the net debt in FY2036?",
            1,
        ),
        (
            "What is the churn rate? Answer in percent, to one decimal.",
            "What is the churn rate?",
            1,
        ),
        (
            "Assume you are a credit officer at a bank. Answer the question below with the balance sheet: how "
            "large is the total equity?",
            "how large is the total equity?",
            2,
        ),
        (
            "How many pumps are installed? Please write the answer as a whole number.",
            "How many pumps are installed?",
            1,
        ),
        (  # a conditional request is content: no rule exists for one benchmark's template
            "Does the firm earn a healthy margin? If net margin says little about a firm of this kind, say so "
            "and give the reason.",
            "Does the firm earn a healthy margin? If net margin says little about a firm of this kind, say so "
            "and give the reason.",
            0,
        ),
        (
            "What is the berth turnover? Berth turnover is defined as: sailings / average berths.",
            "What is the berth turnover? Berth turnover is defined as: sailings / average berths.",
            0,
        ),
        ("What is the FY2039 capex (in USD millions) for the group?", "What is the FY2039 capex for the group?", 0),
    ],
)
def test_focus_sets_answer_format_instructions_aside(question, content, dropped):
    found = focus(question)
    assert found.content == content
    assert len(found.instructions) == dropped


def test_focus_keeps_a_question_that_only_looks_like_an_instruction():
    assert focus("Write down the pseudocode for step 4 of the search.").content == (
        "Write down the pseudocode for step 4 of the search."
    )
    assert focus("Format the deadline on page 9 as YYYY-MM-DD.").instructions == ()


def test_focus_reports_the_named_financial_statements():
    found = focus(
        "According to the cash flows statement, answer this question: how much cash did operations "
        "produce in FY2036? Base your answer on the P&L and on the statement of financial condition too."
    )
    assert found.content.startswith("how much cash did operations produce")
    assert set(found.sources) == {CASH_FLOW, INCOME, BALANCE}
    assert statements_named("the weather report") == ()


def test_glossary_maps_question_terms_to_document_words_and_statements():
    words, statements = expansions("What was the capex and the quick ratio?")
    assert "purchases of property and equipment" in words
    assert "total current liabilities" in words
    assert statements == (CASH_FLOW, BALANCE)
    assert expansions("Which birds nest on the cliffs?") == ((), ())


def test_enrich_appends_document_words_once_and_keeps_the_question_words():
    parsed = parse_question("How large was the FY2036 capital expenditure of the group? Answer in EUR millions.")
    assert parsed.instructions == ("Answer in EUR millions.",)
    enriched = enrich(parsed)
    assert enriched.retrieval.main_query.startswith(parsed.retrieval.main_query)
    assert "purchases of property and equipment" in enriched.retrieval.expansions
    assert "statements of cash flows" in enriched.retrieval.expansions
    assert enrich(enriched) is enriched
    plain = parse_question("Which birds nest on the cliffs?")
    assert enrich(plain) is plain


def test_the_sales_and_marketing_expense_is_not_the_top_line() -> None:
    assert "net sales" in line_item_names("What were the ferry's sales in 2031?")
    assert "net sales" not in line_item_names("What were the ferry's sales and marketing expenses in 2031?")
    assert "net sales" not in line_item_names("How much went to sales & marketing in 2031?")


def test_a_balance_a_flow_moves_is_not_the_item_asked() -> None:
    bought = line_item_names("How much did the ferry line spend on additions to property, plant and equipment in 2031?")
    assert "property, plant and equipment, net" not in bought, bought
    assert "property, plant and equipment, net" in line_item_names("What was the ferry line's PP&E at the end of 2031?")


@pytest.mark.parametrize("shorthand", ["PP&E", "PP & E", "PP and E"])
def test_fixed_assets_are_named_by_their_abbreviations(shorthand: str) -> None:
    assert "property, plant and equipment, net" in line_item_names(f"What was the ferry's net {shorthand} in 2031?")
    assert line_item_names("What happened to the ferry in 2031?") == ()


def test_a_question_headed_by_a_quantity_asks_for_a_value():
    from engine.reading.question import asks_for_value

    assert asks_for_value("What clearance is needed behind the kettle?")
    assert asks_for_value("What ambient temperature range does the pump tolerate?")
    assert not asks_for_value("What does the temperature setting control?")


def test_which_major_kinds_of_things_asks_for_a_list():
    from engine.reading.question import parse_question

    assert parse_question("Which major types of faults does the inspector log?").intent == "listing"
    assert parse_question("What kinds of pumps does the station run?").intent == "listing"


def test_which_things_can_be_done_asks_for_a_list():
    from engine.reading.question import parse_question

    assert parse_question("Which tools can the dock crew use at night?").intent == "listing"
    assert parse_question("Into which grades were the harbour's mooring faults sorted?").intent == "listing"


def test_where_some_things_are_asks_for_a_list_of_places_not_where_a_document_shows_them():
    from engine.reading.question import parse_question

    assert parse_question("Where are the ferry line's repair yards?").intent == "listing"
    assert parse_question("Where are the harbour's results reported?").intent != "listing"
    assert parse_question("Where is the ferry line's head office?").intent != "listing"
