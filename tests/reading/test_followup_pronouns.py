"""Follow-ups that point back with a pronoun or leave the subject out are rewritten from the previous turn
(made-up companies and figures)."""

from __future__ import annotations

import pytest

from engine.reading.followup_rewrite import rewrite_follow_up

PREVIOUS = "What was Acme's total revenue in FY2019?"


@pytest.mark.parametrize(
    ("follow_up", "expected"),
    [
        # a whole question of its own that points back with "its" (longer than the short forms)
        (
            "What were its research and development costs in 2019?",
            "What were Acme's research and development costs in 2019?",
        ),
        (
            "How many employees did they have at the end of 2019?",
            "How many employees did Acme have at the end of 2019?",
        ),
        ("What about its debt?", "What was Acme's debt in FY2019?"),
        ("And the same for 2018?", "What was Acme's total revenue in FY2018?"),
        ("the same for 2017", "What was Acme's total revenue in FY2017?"),
        ("Do the same for Globex", "What was Globex's total revenue in FY2019?"),
        ("And in 2017?", "What was Acme's total revenue in FY2017?"),
    ],
)
def test_follow_up_is_rewritten_from_the_previous_turn(follow_up: str, expected: str) -> None:
    assert rewrite_follow_up(follow_up, PREVIOUS).question == expected


def test_a_year_is_never_taken_for_the_subject() -> None:
    rewritten = rewrite_follow_up("What was its operating margin?", "What was the net income of Initech in 2020?")
    assert rewritten.question == "What was Initech's operating margin?"


def test_a_full_question_naming_its_own_subject_is_left_alone() -> None:
    question = "What were Globex's research and development costs in 2019?"
    assert rewrite_follow_up(question, PREVIOUS).question == question
