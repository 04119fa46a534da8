"""Two periods asked side by side are a comparison's sides; the metric's words around them are not sides."""

from __future__ import annotations

import pytest

from engine.reading.question import parse_question
from engine.reading.question_sides import find_sides, period_pair


@pytest.mark.parametrize(
    ("question", "sides"),
    [
        ("Compare Zenith's sales and marketing expenses in 2030 and 2031.", ["2030", "2031"]),
        ("Was Zenith's operating income higher in fiscal 2031 or in fiscal 2030?", ["fiscal 2031", "fiscal 2030"]),
        ("What were Zenith's research and development costs in 2029 and 2031?", ["2029", "2031"]),
    ],
)
def test_two_periods_are_the_sides_not_the_and_inside_the_metric(question: str, sides: list[str]) -> None:
    parsed = parse_question(question)
    assert parsed.intent == "comparison"
    assert [s.label for s in parsed.sides] == sides


def test_one_period_or_two_named_things_is_no_period_pair() -> None:
    assert period_pair("What were Zenith's net sales in 2031?") is None
    assert period_pair("Compare the net sales of Zenith and Acme in 2031.") is None
    assert [s.label for s in parse_question("Compare the net sales of Zenith and Acme in 2031.").sides] == [
        "Zenith",
        "Acme",
    ]


def test_going_up_or_down_between_two_periods_compares_the_periods_not_up_and_down() -> None:
    assert find_sides("Did the harbour's dredging cost go up or down from 2030 to 2031?") == ["2030", "2031"]


def test_options_listed_after_a_colon_are_the_sides_whole_with_their_commas() -> None:

    question = (
        "Which was larger for Acme in 2041: repairs, upkeep and related costs or purchases of boats, docks and gear?"
    )
    assert find_sides(question) == ["repairs upkeep and related costs", "purchases of boats docks and gear"]
    assert find_sides("Note: is the Heron 2 or the Heron 3 lighter?") != ["Heron 2", "Heron 3 lighter"]


def test_a_preposition_repeated_before_the_second_option_is_not_part_of_it() -> None:

    assert find_sides("Did Acme's fares in Ohio or in Upper Peninsula grow faster in 2041?") == [
        "Ohio",
        "Upper Peninsula",
    ]


def test_a_proper_name_that_starts_with_a_comparative_keeps_it() -> None:

    assert find_sides("Which region sold more boats, Greater Lakeland or Norfolk?") == ["Greater Lakeland", "Norfolk"]


def test_a_date_in_may_keeps_its_month_as_a_side() -> None:
    sides = find_sides("How did the fleet's crew count change between May 31, 2030 and May 31, 2032?")
    assert sides == ["May 31 2030", "May 31 2032"]  # "may" is a stop word, but not before a day
