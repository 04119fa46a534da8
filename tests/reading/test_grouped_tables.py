"""Column groups under spanning headers, split by the table finder at the groups' gaps (made-up table)."""

from __future__ import annotations

from engine.contracts import EvidenceItem
from engine.reading.grouped_tables import grouped_tables
from engine.reading.table_lookup import lookup_cells, lookup_statement

PAGE = [
    EvidenceItem(
        chunk_id="d:p6:b0", doc_id="d", file_name="p.pdf", page=6,
        text="Tagger\nRecall | Cost (GPU hours)\nMarsh Coast | Marsh Coast\nHeron [4] | 61.2\n"
             "Ibis [7] | 58.0 49.5 | 3.1 · 10^2 4.0 · 10^2\nKestrel (big) | 66.4 52.8 | 12 19\n"
             "Kestrel (small) | 63.0 50.1 | 5 8\nTable 4: Recall and cost per corpus.",
    )
]  # fmt: skip


def cells_by_row():
    (table,) = grouped_tables(PAGE)
    rows: dict[str, dict[str, str]] = {}
    for cell in table:
        rows.setdefault(cell.label, {})[cell.column] = cell.raw
    return rows


def test_each_column_is_named_by_its_group_and_its_own_name() -> None:
    rows = cells_by_row()
    assert rows["Kestrel (big)"] == {
        "Recall Marsh": "66.4", "Recall Coast": "52.8", "Cost (GPU hours) Marsh": "12", "Cost (GPU hours) Coast": "19",
    }  # fmt: skip


def test_an_incomplete_or_unreadable_group_is_left_unread() -> None:
    rows = cells_by_row()
    assert "Heron [4]" not in rows, "one number under a group of two: its column is not printed"
    assert rows["Ibis [7]"] == {"Recall Marsh": "58.0", "Recall Coast": "49.5"}, "numbers with exponents unread"


def test_a_lookup_reads_the_grouped_column_the_question_names() -> None:
    cells = lookup_cells("What recall does Kestrel (small) reach on Coast?", grouped_tables(PAGE))
    assert lookup_statement(cells) == "Kestrel (small), Recall Coast: 50.1."
