"""A comparative between two named things ("How much more was A's pay than B's?"): its sides, each side's own
table row, and the metric a row labelled by a name takes from its table's title (made-up tables)."""

from __future__ import annotations

from engine.reading.changes import asks_relative_gap
from engine.reading.line_items import line_item_names
from engine.reading.question_sides import find_sides, is_comparison
from engine.reading.side_numbers import side_rows
from engine.reading.table_values import Cell
from engine.reading.value_answer import answer_from_cells


def test_a_comparative_between_two_named_owners_compares_them() -> None:
    asked = "How much more was Dana Lund's total pay than Eli Park's?"
    assert find_sides(asked) == ["Dana Lund", "Eli Park"] and is_comparison(asked, find_sides(asked))
    subject = "Did Kestrel Air fly more passengers than Tern Lines in 2031?"
    assert find_sides(subject) == ["Kestrel Air", "Tern Lines"]
    assert find_sides("Is the Heron 3 lighter than the Heron 2?") == ["Heron 3", "Heron 2"]


def test_a_comparative_with_an_unnamed_side_compares_nothing() -> None:
    for asked in ("Was revenue higher than expected in 2031?", "Was the order larger than the 2030 order?",
                  "Did the ferry carry more cars than trucks?"):  # fmt: skip
        assert find_sides(asked) == [], asked


def _row(label: str, column: str, raw: str, context: str = "Board Matters Director Pay Table") -> Cell:
    return Cell(chunk_id=f"d:p7:{label}", doc_id="d", page=7, label=label, column=column, raw=raw,
                value=float(raw.replace(",", "")), scale="", unit="$", periods=(), quote=f"{label} | {raw}",
                is_row=True, context=context)  # fmt: skip


TABLE = [
    _row("Retainer", "Board Pay", "50,000", "Board Matters Director Pay"),
    _row("Dana Lund", "Fees Earned ($)", "60,000"), _row("Dana Lund", "Total ($)", "231,400"),
    _row("Eli Park", "Fees Earned ($)", "45,000"), _row("Eli Park", "Total ($)", "216,400"),
]  # fmt: skip


def test_a_named_side_is_read_from_its_own_row_when_a_row_names_it() -> None:
    kept = side_rows(TABLE, "Dana Lund", ["Dana Lund", "Eli Park"])
    assert {c.label for c in kept} == {"Dana Lund"}, kept
    assert side_rows(TABLE, "Cole Dunn", ["Cole Dunn", "Eli Park"]) == TABLE, "no row names the side: every row stays"


def test_a_row_labelled_by_the_name_asked_takes_its_metric_from_its_table_s_title() -> None:
    value = answer_from_cells("What was the total pay of Dana Lund?", ["total pay"], line_item_names, TABLE[1:3])
    assert value is not None and value.cells[0].raw == "231,400", value
    untitled = [_row("Dana Lund", "Total ($)", "231,400", "Board Matters")]
    assert answer_from_cells("What was the total pay of Dana Lund?", ["total pay"], line_item_names, untitled) is None


def test_a_gap_asked_in_percent_is_told_from_a_percentage_asked_of_each_side() -> None:
    assert asks_relative_gap("Give the percentage difference in fees between Acme and Zenith.")
    assert asks_relative_gap("By what percent did Acme's fees exceed Zenith's?")
    assert not asks_relative_gap("What percentage of revenue did Acme and Zenith each spend on fees?")


def test_a_passive_verb_before_versus_is_not_the_side_compared() -> None:
    assert find_sides("How many ferry trips were cancelled versus tug trips?") == ["ferry trips", "tug trips"]
