"""Yes/no questions comparing a value with a number they state."""

from __future__ import annotations

import pytest

from engine.reading.table_values import Cell
from engine.reading.thresholds import asked_threshold, meets, value_question


def cell(raw: str, value: float, unit: str = "", scale: str = "", measure: str = "") -> Cell:
    return Cell(chunk_id="d:p1:b0", doc_id="d", page=1, label="Fees", column="2031", raw=raw, value=value, scale=scale,
                unit=unit, periods=(), quote=raw, is_row=True, measure=measure)  # fmt: skip


@pytest.mark.parametrize(
    ("question", "value", "comparison", "rest"),
    [
        ("Was the dock margin in 2031 above 45%?", 45.0, "above", "Was the dock margin in 2031?"),
        ("Did port revenues exceed $5 billion in 2030?", 5e9, "above", "Did port revenues in 2030?"),
        ("Is the berth ratio at least 1.5?", 1.5, "at_least", "Is the berth ratio?"),
        ("Was the headcount less than 1,000 in 2031?", 1000.0, "below", "Was the headcount in 2031?"),
    ],
)
def test_the_number_and_the_way_the_question_compares(question: str, value: float, comparison: str, rest: str) -> None:
    threshold = asked_threshold(question)
    assert threshold is not None and threshold.value == value and threshold.comparison == comparison
    assert value_question(question, threshold) == rest


def test_questions_that_compare_no_stated_number_have_no_threshold() -> None:
    assert asked_threshold("Were port revenues in 2031 higher than in 2030?") is None
    assert asked_threshold("Which berth earned more than 5% of fees?") is None  # not a yes/no question


def test_a_value_meets_the_number_only_when_both_are_of_one_kind() -> None:
    margin = asked_threshold("Was the dock margin above 45%?")
    assert margin is not None
    assert meets(margin, cell("43.5%", 43.5, unit="%")) is False
    assert meets(margin, cell("$ 51", 51.0, unit="$", scale="million")) is None  # an amount is not a percentage
    revenue = asked_threshold("Did revenues exceed $5 billion?")
    assert revenue is not None and meets(revenue, cell("$ 5,120", 5120.0, unit="$", scale="million")) is True
    payload = asked_threshold("Is the payload more than 12 kg?")
    assert payload is not None and meets(payload, cell("12.5 kg", 12.5, measure="kg")) is True
    assert meets(payload, cell("12.5 lb", 12.5, measure="lb")) is None
