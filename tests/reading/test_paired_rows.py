"""A list of labelled figures set in column pairs is read one pair per row (made-up tables)."""

from __future__ import annotations

from engine.contracts import EvidenceItem
from engine.reading.paired_rows import paired_lines
from engine.reading.table_values import table_cells

DEPOTS = (
    "Ferry depots at the end of 2041 were as follows:\n"
    " | Depots |  | Depots\n"
    "Aldmere | 12 | Northwick | 7\n"
    "Brackley | 3 | Port Selby | 40\n"
    "Total depots | 62"
)


def test_each_label_of_a_paired_line_keeps_its_own_figure() -> None:
    item = EvidenceItem(chunk_id="d:p9:b0", doc_id="d", file_name="f.pdf", page=9, text=DEPOTS)
    values = {c.label: c.value for c in table_cells([item])}
    assert values["Port Selby"] == 40 and values["Brackley"] == 3 and values["Northwick"] == 7, values


def test_a_statement_row_or_a_row_of_periods_is_not_split() -> None:
    for line in ("Net sales | 1,204 | 1,150 | 980 | 870", "Total | 956 | 2 | (20)", "2041 | 100 | 2040 | 90"):
        assert paired_lines(line) == [line]
    assert paired_lines("Weight | 11 kg | Height | 52 cm") == ["Weight | 11 kg", "Height | 52 cm"]
