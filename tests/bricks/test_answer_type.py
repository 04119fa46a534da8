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
