"""Offline follow-up rewriting: one test per rule, with subjects of several kinds (products, firms,
places, people), and the cases the rules must leave alone."""

from __future__ import annotations

import pytest

from engine.reading.followup_rewrite import rewrite_follow_up


@pytest.mark.parametrize(
    ("follow_up", "previous", "expected"),
    [
        ("And what about the Falcon 9?", "What is the payload of the Falcon 1?", "What is the payload of the Falcon 9?"),
        ("How about Lisbon?", "What was the rainfall recorded in Porto?", "What was the rainfall recorded in Lisbon?"),
        ("And for Europe?", "What share of sales came from the Americas?", "What share of sales came from Europe?"),
        ("What about Contoso?", "How much did Fabrikam spend on research?", "How much did Contoso spend on research?"),
        ("And what about the pumps?", "What is the service interval of the valves?", "What is the service interval of the pumps?"),
        ("And what about voltage?", "What is the rated current of the motor?", "What is the voltage of the motor?"),
        ("What about its weight?", "What is the length of the Model S?", "What is the weight of the Model S?"),
        ("Same for Q3?", "What were the returns in Q2 for the fund?", "What were the returns in Q3 for the fund?"),
    ],
)  # fmt: skip
def test_what_about_puts_the_new_part_in_its_place(follow_up: str, previous: str, expected: str) -> None:
    rewrite = rewrite_follow_up(follow_up, previous)
    assert (rewrite.question, rewrite.rule) == (expected, "what_about")


def test_a_reference_is_not_the_subject_a_follow_up_swaps() -> None:
    previous = "What yield does Figure 4 show for the Orion line?"
    assert rewrite_follow_up("What about the Vega line?", previous).question == (
        "What yield does Figure 4 show for the Vega line?"
    )


@pytest.mark.parametrize(
    ("follow_up", "previous", "expected"),
    [
        ("And in 2022?", "What was the net debt of Initech in 2021?", "What was the net debt of Initech in 2022?"),
        ("In 2019?", "What was the headcount of Globex?", "What was the headcount of Globex in 2019?"),
        ("And FY2020?", "What was the FY2019 dividend per share?", "What was the FY2020 dividend per share?"),
        ("2015?", "How many visitors did the museum have in 2016?", "How many visitors did the museum have in 2015?"),
    ],
)
def test_a_period_replaces_or_adds_the_year(follow_up: str, previous: str, expected: str) -> None:
    assert rewrite_follow_up(follow_up, previous).question == expected


@pytest.mark.parametrize(
    ("follow_up", "previous", "expected"),
    [
        ("Are there any others?", "What two risks does the filing name?", "What other risks does the filing name?"),
        ("Anything else?", "Which suppliers are mentioned?", "Which other suppliers are mentioned?"),
        ("Any more?", "Who sits on the audit committee?", "Who else sits on the audit committee?"),
        ("What else?", "List the side effects of the drug.", "List the side effects of the drug, other than those already found?"),
    ],
)  # fmt: skip
def test_others_asks_the_previous_question_for_further_items(follow_up: str, previous: str, expected: str) -> None:
    rewrite = rewrite_follow_up(follow_up, previous)
    assert (rewrite.question, rewrite.rule) == (expected, "others")


def test_why_asks_for_the_reason_of_the_previous_answer() -> None:
    rewrite = rewrite_follow_up("Why?", "What happened to margins?", "The margin fell by 2 points in 2023. Costs rose.")
    assert (rewrite.question, rewrite.rule) == ("Why is it that the margin fell by 2 points in 2023?", "why")
    kept = rewrite_follow_up("Why?", "Who won?", "Initech won the tender (page 4).").question
    assert kept == "Why is it that Initech won the tender?"  # a name keeps its capital
    assert rewrite_follow_up("Why is that?", "Did sales grow?", "It grew.").question == "Why is it that it grew?"


def test_why_without_an_answer_asks_about_the_question() -> None:
    rewrite = rewrite_follow_up("How come?", "Did the plant close?", "")  # the previous turn found no answer
    assert rewrite.question == "What is the reason behind this: Did the plant close?"


def test_pronouns_become_the_previous_subject() -> None:
    previous = "What is the top speed of the Kestrel?"
    assert rewrite_follow_up("How much does it weigh?", previous).question == "How much does the Kestrel weigh?"
    assert rewrite_follow_up("What is its range?", previous).question == "What is the Kestrel's range?"


@pytest.mark.parametrize(
    "question",
    [
        "How many sensors does the Heron 3 carry?",  # a full question with its own subject
        "What is the revenue of Initech in 2021 according to the annual report, in millions?",  # long
        "Which chapter covers safety?",
    ],
)
def test_full_questions_are_left_alone(question: str) -> None:
    rewrite = rewrite_follow_up(question, "What is the wingspan of the Kestrel?")
    assert (rewrite.question, rewrite.rule) == (question, "unchanged")


def test_no_previous_question_means_no_rewrite() -> None:
    assert rewrite_follow_up("And in 2022?", "").rule == "unchanged"


def test_an_unmatched_what_about_keeps_both_parts() -> None:
    rewrite = rewrite_follow_up("And revenue?", "How many employees did Initech have?")
    assert rewrite.question == "How many employees did Initech have: what about revenue?"
