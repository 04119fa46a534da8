"""The cell at a named row and a wholly named column of a paper's table (made-up tables)."""

from __future__ import annotations

from engine.contracts import EvidenceItem
from engine.reading.loose_tables import loose_tables
from engine.reading.table_lookup import lookup_cells, lookup_statement


def tables(text: str):
    return loose_tables([EvidenceItem(chunk_id="d:p3:b0", doc_id="d", file_name="p.pdf", page=3, text=text)])


GROUPED = tables("Method | Lakes | Rivers\nSplit | R@1 F1 R@1 F1\nBaseline 0.41 0.62 0.30 0.55\n"
                 "Heron-L 0.47 0.66 0.29 0.58 Heron-S 0.44 0.61 0.33 0.57")  # fmt: skip


def test_the_cell_of_the_named_row_under_the_wholly_named_column_is_read() -> None:
    cells = lookup_cells("What is the F1 of Heron-S on Rivers?", GROUPED)
    assert lookup_statement(cells) == "Heron-S, Rivers F1: 0.57."


def test_a_column_named_in_part_gives_every_column_it_fits_or_none() -> None:
    cells = lookup_cells("What F1 does Baseline reach?", GROUPED)
    assert cells == [], "'F1' alone names no header whole here ('Lakes F1', 'Rivers F1')"
    flat = tables("Model | Acc. F1 F1\nKestrel 70.0 60.2 64.9\nOsprey 69.1 58.0 57.3")
    assert lookup_statement(lookup_cells("What is the F1 of Osprey?", flat)) == "Osprey, F1: 58.0; Osprey, F1 #2: 57.3."


def test_no_lookup_without_a_named_row_or_for_a_yes_no_question() -> None:
    assert lookup_cells("What is the Lakes F1 of the best system?", GROUPED) == []
    assert lookup_cells("Does Heron-S reach a Rivers F1 above 0.5?", GROUPED) == []


def test_of_rows_named_alike_the_one_leaving_least_unsaid_is_read() -> None:
    pair = tables("Retriever | R@5 R@20\nBM25 with rerank 40.1 61.0\nBM25 without rerank 35.2 58.3\nDense 44.0 66.1")
    assert (
        lookup_statement(lookup_cells("What is the R@5 of BM25 with rerank?", pair)) == "BM25 with rerank, R@5: 40.1."
    )
    assert lookup_statement(lookup_cells("What is the R@5 of BM25?", pair)).count("BM25") == 2, "both named: both read"
