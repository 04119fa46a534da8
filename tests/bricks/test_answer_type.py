"""The kind of answer a question asks for, and whether an answer states it."""

from __future__ import annotations

import pytest

from engine.bricks.answer_type import expected_type, states_type


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
