"""Tables whose columns the text layer runs together: group names over repeated columns (made-up tables)."""

from __future__ import annotations

from engine.contracts import EvidenceItem
from engine.reading.loose_tables import loose_tables
from engine.reading.table_lookup import lookup_cells, lookup_statement


def read(text: str) -> list[list[tuple[str, str, str]]]:
    item = EvidenceItem(chunk_id="d:p2:b0", doc_id="d", file_name="p.pdf", page=2, text=text)
    return [[(c.label, c.column, c.raw) for c in table] for table in loose_tables([item])]


def test_a_plain_line_over_repeated_columns_names_their_groups() -> None:
    (table,) = read(
        "Retrievers Lakes (dev) Rivers\nHit Miss Hit Miss\nKestrel 41.0 12.5 39.2 14.1\nOsprey 44.3 10.2 37.9 15.0"
    )
    assert ("Osprey", "Rivers Miss", "15.0") in table
    assert ("Kestrel", "Lakes (dev) Hit", "41.0") in table


def test_columns_that_do_not_repeat_keep_their_own_names() -> None:
    (table,) = read("Retrievers Lakes Rivers\nHit Miss Skip\nKestrel 41.0 12.5 39.2\nOsprey 44.3 10.2 37.9")
    assert {column for _, column, _ in table} == {"Hit", "Miss", "Skip"}


def test_a_header_of_column_names_only_is_read_whole_when_the_rows_say_so() -> None:
    (table,) = read("P | R | F1\nKestrel | 70.1 60.2 64.8\nOsprey 69.0 58.1 63.1")
    assert ("Kestrel", "P", "70.1") in table and ("Osprey", "F1", "63.1") in table
    (labelled,) = read("Model | P | R | F1\nKestrel | 70.1 60.2 64.8\nOsprey 69.0 58.1 63.1")
    assert ("Kestrel", "P", "70.1") in labelled, "a label column's header is still the label's"


def test_a_group_title_names_the_columns_of_the_rows_under_it() -> None:
    (table,) = read(
        "Model Data: Lakes\nP | R | F1\nKestrel | 70.1 60.2 64.8\nOsprey 69.0 58.1 63.1 Data: Rivers\n"
        "Kestrel | 55.0 50.2 52.5\nOsprey 57.3 49.9 53.3"
    )
    assert ("Kestrel", "Lakes F1", "64.8") in table
    assert ("Osprey", "Rivers F1", "53.3") in table
    assert ("Kestrel", "Rivers P", "55.0") in table, "the title leaves the next row's label"


def test_a_lookup_reads_the_table_whose_column_names_most_of_the_question() -> None:
    item = EvidenceItem(
        chunk_id="d:p2:b0", doc_id="d", file_name="p.pdf", page=2,
        text="Model | P | R | F1\nKestrel | 80.1 70.2 74.8\nOsprey 79.0 68.1 73.1\nTable 4: Results on Lakes.\n"
        "Model Data: Rivers\nP | R | F1\nKestrel | 55.0 50.2 52.5\nOsprey 57.3 49.9 53.3",
    )  # fmt: skip
    tables = loose_tables([item])
    assert lookup_statement(lookup_cells("What F1 does Osprey reach on Rivers?", tables)) == "Osprey, Rivers F1: 53.3."
    assert lookup_statement(lookup_cells("What F1 does Osprey reach?", tables)) == "Osprey, F1: 73.1."
