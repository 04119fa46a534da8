"""A row label that spans the rows below it (one item's figures by year), and a long sentence announcing a table."""

from __future__ import annotations

from engine.contracts import EvidenceItem
from engine.reading.table_values import table_cells

AWARDS = (
    "Officer | Year | Largest award | Deferred award\n"
    "Dana Okafor | 2041 | 412,000 | —\n"
    "2040 | 398,000 | 120,500\n"
    "2039 | 356,250 | —\n"
    "Ravi Lindqvist | 2041 | 288,000 | —\n"
    "2040 | 270,400 | 64,000"
)


def _cells(text: str) -> list:
    return table_cells([EvidenceItem(chunk_id="d:p7:b0", doc_id="d", file_name="proxy.pdf", page=7, text=text)])


def test_rows_under_a_label_with_its_year_keep_the_label_and_take_their_own_year() -> None:
    read = {(c.label, c.periods[0].year if c.periods else None, c.raw) for c in _cells(AWARDS)}
    assert ("Dana Okafor", 2040, "398,000") in read
    assert ("Dana Okafor", 2040, "120,500") in read
    assert ("Dana Okafor", 2039, "356,250") in read
    assert ("Ravi Lindqvist", 2040, "270,400") in read
    assert not any(label.startswith("20") for label, _, _ in read)  # no row is labelled by its year alone


def test_a_schedule_of_years_with_no_label_row_above_keeps_its_years_as_labels() -> None:
    schedule = "Year | Pension | Health\n2042 | 1,097 | 862\n2043 | 1,120 | 870"
    read = {(c.label, c.periods[0].year) for c in _cells(schedule)}
    assert ("2042", 2042) in read and ("2043", 2043) in read


def test_a_long_sentence_ending_in_a_colon_titles_the_table_under_it() -> None:
    intro = (
        "Assuming every condition of the plan is met in full, which the board reviews at the end of each year and "
        "which depends on the ferry company's standing among its peers over three years, the largest award each "
        "officer could receive, valued on the day it was granted, is set forth in the table below:"
    )
    cells = _cells(f"{intro}\n{AWARDS}")
    assert all("largest award each officer could receive" in c.caption for c in cells)


def test_values_each_with_its_spread_run_together_in_one_cell_are_cells_of_their_own() -> None:
    from engine.reading.table_rows import row_cells

    assert row_cells("Tern-7 | 53.8(0.5) 54.0(1.4) 55.9(0.5)") == ["Tern-7", "53.8(0.5)", "54.0(1.4)", "55.9(0.5)"]
    assert row_cells("Tern-8 | 53.6(−) 54.6(−)") == ["Tern-8", "53.6(−)", "54.6(−)"]
    assert row_cells("Net fares | (90) (90) (6.0)") == ["Net fares", "(90)", "(90)", "(6.0)"]  # negatives, no spreads
