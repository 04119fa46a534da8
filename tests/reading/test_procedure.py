"""How-to questions and the numbered steps a manual prints for a task."""

from __future__ import annotations

import pytest

from engine.reading.procedure import asks_procedure, holds_step, numbered_steps, steps_statement

STEPS = (
    "1 Fill the tank with fresh water up to the MAX mark. 2 Place a cup under the spout and press Rinse.\n"
    "3 Wait until the light stops blinking, then empty the cup.\n• Use filtered water where the water is hard."
)


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("How do I rinse the kettle?", True),
        ("How to descale the kettle?", True),
        ("What are the steps to pair the remote?", True),
        ("How do I know when the rinse is done?", False),  # a fact, not a task
        ("How many steps does rinsing take?", False),
        ("How does the heater work?", False),
    ],
)
def test_a_how_to_question_asks_for_a_procedure(question: str, asks: bool) -> None:
    assert asks_procedure(question) is asks


def test_the_steps_are_read_in_order_each_up_to_the_next_and_without_the_note_after_them() -> None:
    steps = numbered_steps(STEPS)
    assert [s.number for s in steps] == [1, 2, 3]
    assert steps[1].text == "Place a cup under the spout and press Rinse."
    assert steps[2].text == "Wait until the light stops blinking, then empty the cup."
    assert steps_statement(steps).splitlines()[0] == "1. Fill the tank with fresh water up to the MAX mark."


def test_a_lone_numbered_sentence_is_not_a_procedure_but_holds_a_step() -> None:
    assert numbered_steps("3 Wait until the light stops blinking.") == []
    assert holds_step("3 Wait until the light stops blinking.")
    assert not holds_step("The kettle holds 1.7 litres of water.")


def test_a_run_of_steps_ends_where_the_numbering_starts_again() -> None:
    text = "1 Open the lid. 2 Fill the tank. 1 Close the lid of the other kettle. 2 Switch it on."
    assert [s.text for s in numbered_steps(text)] == ["Open the lid.", "Fill the tank."]
