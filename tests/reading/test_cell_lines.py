"""A page's table cells are read up to its last line that may be a row with a number: what follows gives none."""

from __future__ import annotations

from engine.contracts import EvidenceItem
from engine.reading.table_rows import cell_lines_end
from engine.reading.table_values import table_cells


def item(text: str, n: int = 0) -> EvidenceItem:
    return EvidenceItem(chunk_id=f"d:p1:b{n}", doc_id="d", file_name="ferries.pdf", page=1, text=text)


TABLE = item(
    "Consolidated Statement of Operations\n(in millions) | 2041 | 2040\nRevenue | $ 900 | $ 800\nNet income | 45 | 40"
)


def test_lines_after_the_last_numeric_row_change_no_cell():
    after = [
        item("Selected quarterly data (in thousands)\n2041 | 2040\nNotes follow as prose.", n=1),
        item("Kayaks | Paddles | Oars\nNo figures here | none", n=2),
    ]
    assert table_cells([TABLE, *after]) == table_cells([TABLE])
    assert table_cells([TABLE]) and all(c.scale == "million" for c in table_cells([TABLE]))


def test_a_page_whose_rows_print_no_number_has_no_cells():
    assert table_cells([item("Option | Meaning\nloss_cls | the classification loss\nloss_bbox | the box loss")]) == []


def test_the_end_is_after_the_last_row_or_run_together_row_holding_a_digit():
    lines = ["Revenue | 900 | 800", "Total operating expenses 120.5 99.1", "Option | Meaning", "prose 12"]
    assert cell_lines_end(lines) == 2
    assert cell_lines_end(["Option | Meaning", "plain text"]) == 0
