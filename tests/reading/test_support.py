"""Whether a passage supports a statement: shared content and every stated number."""

from __future__ import annotations

import pytest

from engine.reading.support import best_support, closest_quote, numbers_in, supports

PASSAGE = "Capital spending on new pipes reached 19.7 million euros. Revenue was 1,264.00 million."


@pytest.mark.parametrize(
    ("statement", "expected"),
    [
        ("Capital spending on pipes was 19.7 million euros.", True),
        ("Capital spending on pipes was 21.3 million euros.", False),  # a number the passage does not state
        ("Revenue was 1264 million.", True),  # separators and zero decimals do not matter
        ("The board meets monthly.", False),  # nothing shared
        ("", False),
    ],
)
def test_supports(statement, expected):
    assert supports(statement, PASSAGE) is expected


def test_numbers_are_compared_without_separators_or_zero_decimals():
    assert numbers_in("$1,264.00 and 2.50% and 3.") == {"1264", "2.5", "3"}


def test_best_support_picks_the_passage_sharing_most():
    passages = ["The reservoir holds water.", PASSAGE]
    assert best_support("Spending on new pipes reached 19.7 million euros.", passages) == 1
    assert best_support("Unrelated words entirely.", passages) is None


def test_closest_quote_is_a_verbatim_sentence_of_the_passage():
    quote = closest_quote("How much was spent on pipes?", PASSAGE)
    assert quote == "Capital spending on new pipes reached 19.7 million euros."
