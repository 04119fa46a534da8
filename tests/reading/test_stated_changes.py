"""A number its sentence states as a change or a difference, not as a level."""

from __future__ import annotations

import re

import pytest

from engine.reading.changes import states_change


def _first_number(sentence: str) -> int:
    found = re.search(r"\d", sentence)
    assert found is not None
    return found.start()


@pytest.mark.parametrize(
    "sentence",
    [
        "The new hull improved the top speed by 3.5 knots.",
        "Ferry traffic saw an increase of $42 million in fares.",
        "The harbour now holds 12 more berths than the old quay.",
        "Crossings take 7 minutes shorter than before the refit.",
        "Fares fell by about 8% over the winter.",
    ],
)
def test_a_number_stated_as_a_change(sentence: str) -> None:
    assert states_change(sentence, _first_number(sentence))
    assert states_change(sentence, _first_number(sentence) - 1), "read from the space before the number too"


@pytest.mark.parametrize(
    "sentence",
    [
        "The ferry reaches a top speed of 31.5 knots.",
        "Fares rose to $42 million over the winter.",
        "The quay is 40 m long and more than that is planned.",
        "The fleet had 212 boats in the spring and more ships than ever.",
        "The ferry line earned an operating margin of 12% in the spring.",
    ],
)
def test_a_number_stated_as_a_level(sentence: str) -> None:
    assert not states_change(sentence, _first_number(sentence))
