"""Rows printed with dot leaders whose first figure the text layer glued to the label (made-up statement)."""

from __future__ import annotations

from engine.contracts import EvidenceItem
from engine.reading.leader_rows import leader_figure
from engine.reading.table_values import table_cells

STATEMENT = (
    "(thousands) | 2041 | 2040 | 2039\n"
    "Cost of fares. . . . . . . . . . . . . 896,271 | 1,005,656 | 956,445\n"
    "Gross margin. . . . . . . . . . . . . . 1,118,637 | 1,577,275 | 1,508,276"
)


def test_the_first_figure_glued_to_the_leaders_is_a_cell_of_its_own() -> None:
    assert leader_figure(["Gross margin. . . . . . 1,118,637", "1,577,275"]) == [
        "Gross margin",
        "1,118,637",
        "1,577,275",
    ]
    assert leader_figure(["Note 7 ........ 12"]) == ["Note 7 ........ 12"], "a label must end in a word"
    assert leader_figure(["Gross margin", "1,118,637"]) == ["Gross margin", "1,118,637"]


def test_each_figure_of_such_a_row_is_read_under_its_own_year() -> None:
    item = EvidenceItem(chunk_id="d:p50:b3", doc_id="d", file_name="gull.pdf", page=50, text=STATEMENT)
    margin = {c.column: c.raw for c in table_cells([item]) if c.label == "Gross margin"}
    assert margin == {"2041": "1,118,637", "2040": "1,577,275", "2039": "1,508,276"}, margin
