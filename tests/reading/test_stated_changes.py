"""A number its sentence states as a change or a difference, not as a level."""

from __future__ import annotations

import re

import pytest

from engine.contracts import EvidenceItem
from engine.reading.changes import states_change
from engine.reading.line_items import line_item_names
from engine.reading.value_answer import answer_value


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
        "The refit improves the ferry's speed on every route: 3 knots on the short crossing.",
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


def test_a_stated_difference_answers_by_how_much_without_a_penalty() -> None:
    said = [
        EvidenceItem(chunk_id="d:p2:b0", doc_id="d", file_name="ferry.pdf", page=2,
                     text="On the winter route the Heron 3 outran the Heron 2 by 14.5 km in range, with a range of "
                          "310.5 km in all.")
    ]  # fmt: skip
    answer = answer_value("By how much does the Heron 3 outrun the Heron 2 in range?", ["Heron 3", "Heron 2", "range"],
                          line_item_names, [said])  # fmt: skip
    assert answer is not None and answer.statement.startswith("14.5"), answer
