"""A statement's first row printed without cell breaks, its label run into dot leaders, the last year of the date
header above wrapped onto its start; and the rows under "Cost of revenue:" that repeat the revenue rows' names."""

from __future__ import annotations

from engine.contracts import EvidenceItem
from engine.reading.line_items import line_item_names
from engine.reading.table_rows import unsplit_row
from engine.reading.table_values import table_cells
from engine.reading.value_answer import answer_value


def _item(block: int, text: str) -> EvidenceItem:
    return EvidenceItem(chunk_id=f"d:p41:b{block}", doc_id="d", file_name="ferries.pdf", page=41, text=text,
                        section_path=("Consolidated Statements of Income",))  # fmt: skip


STATEMENT = [
    _item(0, "CONSOLIDATED STATEMENTS OF INCOME\n(In thousands)"),
    _item(1, "Years Ended\nMarch 3, 2033 March 4, 2032 March 5,"),
    _item(2, "2031 Revenue: Charters.............................. $ 812,400 $ 640,100 $ 512,900\n"
             "Tickets.............................. | 301,200 | 322,800 | 344,000\n"
             "Total revenue.......................... | 1,113,600 | 962,900 | 856,900\nCost of revenue:"),
    _item(3, "Charters.............................. | 95,300 | 81,700 | 70,200\n"
             "Tickets.............................. | 40,100 | 42,600 | 44,900"),
]  # fmt: skip


def test_a_label_run_into_dot_leaders_then_amounts_is_a_row() -> None:
    row = unsplit_row("Revenue: Charters.............. $ 812,400 $ 640,100 $ 512,900", 3)
    assert row == "Revenue: Charters | $ 812,400 | $ 640,100 | $ 512,900"


def test_a_year_wrapped_onto_the_first_row_is_the_header_s_and_the_rest_is_the_row() -> None:
    cells = [c for c in table_cells(STATEMENT) if c.label == "Revenue: Charters"]
    assert [(c.value, c.periods[0].year) for c in cells] == [(812_400, 2033), (640_100, 2032), (512_900, 2031)]
    answer = answer_value("What were charter revenues in fiscal 2033?", ["charter revenues"], line_item_names,
                          [STATEMENT])  # fmt: skip
    assert answer is not None and answer.statement.endswith("$812,400 thousand"), answer
