"""The kind of answer a question asks for, and whether an answer states it."""

from __future__ import annotations

import pytest

from engine.reading.answer_type import asks_quotient, expected_type, states_type, value_never_answers


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("How many stores did it open?", "number"),
        ("What was the total amount of dividends?", "number"),
        ("When did the Heron 3 enter service?", "date"),
        ("In which year was it founded?", "date"),
        ("Did the company pay dividends in 2022?", "yes_no"),
        ("Is the Heron 2 or the Heron 3 heavier?", None),
        ("What sensors do the flights use?", None),
        # a phrase put before the question proper: the main clause asks for a yes or a no
        ("In the two variants shown in the brochure, do both carry a camera?", "yes_no"),
        ("As of FY2023, is the company selling its consumer unit?", "yes_no"),
        ("In which year, after the merger, was the plant sold?", "date"),  # the fronted phrase is the question
        ("According to the manual, what sensors are fitted?", None),
    ],
)
def test_expected_type(question, kind):
    assert expected_type(question) == kind


def test_states_type_ignores_the_question_own_numbers():
    assert not states_type("The Heron 2 is light.", "number", "How heavy is the Heron 2?")
    assert states_type("It weighs 4.1 kg.", "number", "How heavy is the Heron 2?")
    assert states_type("It entered service in 2021.", "date")
    assert states_type("No, it did not.", "yes_no") and not states_type("It did not.", "yes_no")


def test_a_reference_label_is_no_number_the_answer_states():
    question = "How many operations does each role support?"
    assert not states_type("Table 6-2 lists the operations each role supports.", "number", question)
    assert not states_type("See Section 4.2 and Figure 3.", "number", question)
    assert states_type("Table 6-2 lists 42 operations.", "number", question)


def test_a_number_spelled_as_a_word_is_a_number_the_answer_states():
    question = "How long is the guarantee on the Heron 2?"
    assert states_type("Each drone is guaranteed for five years from delivery.", "number", question)
    assert states_type("The crew of twelve rotates weekly.", "number", "How many crew members are there?")
    # "one" is as often a pronoun as a count; a number the question names is not the answer's own
    assert not states_type("One of the drones is grey.", "number", "How many drones are there?")
    assert not states_type("Both of the two drones are grey.", "number", "Which of the two drones is grey?")


@pytest.mark.parametrize(
    ("question", "quotient"),
    [
        ("What is Net Debt to Total Equity for Acme in FY2035?", True),
        ("What is the net debt to EBITDA ratio for Acme in FY2036?", True),
        ("What is the debt-to-equity ratio of Acme?", True),
        ("What is the ratio of inventory to sales?", True),
        ("What is total operating income to total assets for Acme in FY2036?", True),
        ("What is the maximum time to charge the battery?", False),  # "A to B" between no two line items
        ("What was the change in revenue from 2039 to 2040?", False),
        ("What is the current ratio of Acme in FY2035?", False),  # one named ratio, not two terms
        ("How much did the ferry line plan to pay to its pensioners in 2040?", False),
    ],
)
def test_asks_quotient(question, quotient):
    assert asks_quotient(question) is quotient


@pytest.mark.parametrize(
    ("question", "never"),
    [
        ("What are the components of Acme's operating expenses in FY2037?", True),  # its parts, not its amount
        ("What were the main drivers of the decline in margin?", True),
        ("Which company acquired Acme?", True),
        ("Did Acme pay a dividend?", True),
        ("What were the revenues of the cloud segment in 2021?", False),  # a line item's own plural
        ("What were the repurchases of common stock in fiscal 2031?", False),  # a money flow's plural
        ("What is the cost of sales for Acme in FY2037?", False),
    ],
)
def test_value_never_answers(question, never):
    assert value_never_answers(question) is never


def test_a_lines_item_marker_or_section_number_states_no_number():
    assert not states_type("2. Flush the pump.\n1 The Heron valve", "number", "How many turns open the valve?")
    assert states_type("1. The valve opens in 3 turns.", "number", "How many turns open the valve?")


def test_a_citations_year_or_number_states_no_number():
    asked = "How many pumps were tested?"
    assert not states_type("As Lee (2031) and Kim et al., 2032 report, the pumps were tested [4, 7].", "number", asked)
    assert not states_type("The test follows (Lee et al., 2031a; Kim, 2032) closely.", "number", asked)
    assert states_type("The fleet (12 pumps in 2031) was tested (Lee, 2031).", "number", asked)
