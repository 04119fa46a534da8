"""Items a counting lead names after its colon, each with a clause that describes it (made-up passages)."""

from __future__ import annotations

from engine.reading.lists import split_inline


def test_items_named_with_a_relative_clause_each_are_the_items_not_the_clauses() -> None:
    said = (
        "The harbour has two kinds of berths: deep berths, which take tankers, and shallow berths, which take ferries."
    )
    assert split_inline(said) == ("The harbour has two kinds of berths:", ["deep berths", "shallow berths"])
    counted_wrong = "The harbour has three kinds of berths: deep berths, which take tankers, and shallow berths."
    assert split_inline(counted_wrong) is None, "the count must match the items named"
