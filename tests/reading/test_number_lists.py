"""What a sentence says once of a list of its numbers is said of each (made-up sentences)."""

from __future__ import annotations

from engine.contracts import EvidenceItem
from engine.reading.sentence_values import cells_in


def _cells(text: str) -> dict[float, str]:
    item = EvidenceItem(chunk_id="d:p3:b0", doc_id="d", file_name="gull.pdf", page=3, text=text)
    return {c.value: c.measure for c in cells_in([[item]])}


def test_each_number_of_a_list_takes_the_unit_printed_after_its_last() -> None:
    measures = _cells(
        "Members bought 2.1 million, 2.4 million and 2.2 million shares in 2041, 2040 and 2039, respectively."
    )
    assert measures == {2.1: "shares", 2.4: "shares", 2.2: "shares"}, measures


def test_numbers_not_joined_as_a_list_keep_their_own_measure() -> None:
    measures = _cells("The fleet grew by 2.1 million in assets last year, while members bought 2.4 million shares.")
    assert measures == {2.1: "", 2.4: "shares"}, measures


def test_a_list_of_another_currency_or_scale_takes_nothing() -> None:
    measures = _cells("Fees were $3.1 million and 2.4 million shares were issued.")
    assert measures == {3.1: "", 2.4: "shares"}, measures
