"""A note's table of hedging gains lists the line items they were booked in: its "Net sales" row is a gain, never
the net sales (made-up rows)."""

from __future__ import annotations

from engine.reading.line_items import line_item_names
from engine.reading.located_rows import booked_in_row
from engine.reading.periods import Period
from engine.reading.table_values import Cell
from engine.reading.value_answer import answer_from_cells


def _row(raw: str, value: float, page: int, context: str, caption: str = "") -> Cell:
    return Cell(chunk_id=f"d:p{page}:b4", doc_id="d", page=page, label="Net sales", column="2031", raw=raw,
                value=value, scale="million", unit="$", periods=(Period(2031),), quote=f"Net sales | {raw}",
                is_row=True, context=context, caption=caption)  # fmt: skip


HEDGE = _row("$ 61", 61, 88, "12. Hedging Activities (Continued) The following tables summarize the effects")
STATEMENT = _row("$ 9,406", 9406, 52, "Harbour Holdings and Subsidiary Companies")  # its title not carried
GAINS = _row("$ 61", 61, 88, "12. Financial Instruments", caption="Gain (loss) reclassified into income")


def test_a_row_of_a_hedging_note_is_where_a_gain_was_booked() -> None:
    assert booked_in_row(HEDGE, "What were the harbour's net sales in 2031?")
    assert booked_in_row(GAINS, "What were the harbour's net sales in 2031?")
    assert not booked_in_row(STATEMENT, "What were the harbour's net sales in 2031?")
    captioned = _row("$ 9,406", 9406, 52, "Statements", caption="Consolidated Statements of Income (Loss)")
    assert not booked_in_row(captioned, "What were the harbour's net sales in 2031?"), "a statement's own caption"
    assert not booked_in_row(HEDGE, "What hedging gain was booked in net sales in 2031?")  # asked about


def test_net_sales_are_read_from_the_statement_not_from_the_hedging_note() -> None:
    asked = "What were the harbour's net sales in 2031?"
    value = answer_from_cells(asked, ["net sales", "2031"], line_item_names, [HEDGE, STATEMENT])
    assert value is not None and value.cells[0].value == 9406, value
