"""A change's columns headed by their unit symbols in one cell ("$ %"): each symbol heads a column of its own, so
every figure of the rows keeps its column (a made-up segment table)."""

from __future__ import annotations

from engine.contracts import EvidenceItem
from engine.reading.header_rows import is_header
from engine.reading.line_items import line_item_names
from engine.reading.question import extract_keywords
from engine.reading.symbol_columns import split_symbols, symbol_cell
from engine.reading.table_values import table_cells
from engine.reading.value_answer import answer_value

TABLE = (
    "Year Ended December 31, | 2041 vs. 2040\n"
    "In millions, except percentages | 2041 | 2040 | $ % | $ %\n"
    "Harbour ferry trips | 310.4 | 301.2 | 9.2 | 3.1 % | 4.0 | 1.3 %\n"
    "Island ferry trips | 88.0 | 90.5 | (2.5) | (2.8)% | 1.1 | 1.2 %"
)


def _page() -> list[EvidenceItem]:
    return [EvidenceItem(chunk_id="d:p12:b0", doc_id="d", file_name="GULL_2041_10K.pdf", page=12, text=TABLE)]


def test_a_cell_of_unit_symbols_heads_one_column_per_symbol() -> None:
    assert symbol_cell("$ %") and not symbol_cell("%") and not symbol_cell("$ change")
    assert split_symbols(["In millions", "2041", "2040", "$ %"]) == ["In millions", "2041", "2040", "$", "%"]


def test_a_header_with_symbol_cells_printed_twice_is_a_header() -> None:
    assert is_header(["In millions, except percentages", "2041", "2040", "$ %", "$ %"])


def test_each_year_s_figure_keeps_its_year_under_a_header_of_symbol_columns() -> None:
    island = [c for c in table_cells(_page()) if c.label.startswith("Island")]
    assert [c.raw for c in island if c.periods and c.periods[0].year == 2040] == ["90.5"]


def test_the_figure_of_the_year_asked_is_read() -> None:
    question = "How many Island ferry trips were there in 2040?"
    value = answer_value(question, extract_keywords(question), line_item_names, [_page()], ["Gull"])
    assert value is not None and value.cells[0].raw == "90.5", value
