"""A segment table whose change columns are headed by the periods they compare, or by "$ change": its figures are
read by their columns (made-up segment tables)."""

from __future__ import annotations

import pytest

from engine.contracts import EvidenceItem
from engine.reading.header_rows import is_header
from engine.reading.table_values import table_cells

TABLE = (
    "Year ended December 31, | $ change | % change\n"
    "2041 | 2040 | 41 vs. 40 | 41 vs. 40\n"
    "Harbour Ferries | $ 661 | $ 553 | $ 108 | 20%\n"
    "Island Freight | 153 | 194 | (41) | (21)%"
)


@pytest.mark.parametrize(
    "row",
    [
        ["", "2041", "2040", "41 vs. 40", "41 vs. 40"],
        ["", "2041", "2040", "2041 vs. 2040"],
        ["", "FY41 vs FY40", "% change"],
        ["", "2041", "2040", "$ change", "% change"],
        ["", "2041", "2040", "’41 vs. ’40", "’40 vs. ’39"],
    ],
)
def test_change_columns_headed_by_compared_periods_or_a_currency_are_header_cells(row: list[str]) -> None:
    assert is_header(row)


def test_a_figure_row_is_still_no_header() -> None:
    assert not is_header(["Island Freight", "153", "194", "(41)", "(21)%"])
    assert not is_header(["", "41 vs. 40", "41 vs. 40", "$ 108"])


def test_each_figure_of_a_segment_row_is_read_under_its_own_period() -> None:
    cells = table_cells([EvidenceItem(chunk_id="d:p9:b1", doc_id="d", file_name="gull.pdf", page=9, text=TABLE)])
    freight = {c.raw: c for c in cells if c.label == "Island Freight"}
    assert [p.year for p in freight["153"].periods] == [2041], freight["153"]
    assert [p.year for p in freight["194"].periods] == [2040], freight["194"]
    assert "41 vs. 40" in freight["(41)"].column and not freight["(41)"].periods
