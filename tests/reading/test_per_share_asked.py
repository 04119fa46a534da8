"""A per-share figure asked: the total's row never answers it, and a capitalised part of the issuer's name (which
its file name runs together) is whose figure it is, not a word of the metric (made-up rows)."""

from __future__ import annotations

from engine.reading.line_items import line_item_names
from engine.reading.periods import Period
from engine.reading.table_values import Cell
from engine.reading.value_answer import answer_from_cells
from engine.reading.value_spec import value_spec


def _row(label: str, raw: str, value: float, scale: str, page: int, context: str) -> Cell:
    return Cell(chunk_id=f"d:p{page}:b3", doc_id="d", page=page, label=label, column="2031", raw=raw, value=value,
                scale=scale, unit="$", periods=(Period(2031),), quote=f"{label} | {raw}", is_row=True,
                context=context)  # fmt: skip


ROWS = [
    _row("Dividends paid", "(612.4)", -612.4, "million", 40, "Consolidated Statements of Cash Flows"),
    _row("Dividends per share", "$ 1.24", 1.24, "", 36, "Consolidated Statements of Earnings"),
]
ISSUER = ["NORTHHARBOUR", "10K"]  # the file name NORTHHARBOUR_2031_10K.pdf


def test_a_capitalised_part_of_the_issuer_s_run_together_name_is_no_metric_word() -> None:
    asked = "What dividends per share did North Harbour pay in fiscal 2031?"
    spec = value_spec(asked, ["Harbour", "dividends", "share", "pay", "fiscal", "2031"], [], ISSUER)
    assert frozenset({"harbour"}) not in spec.terms, spec.terms


def test_a_total_never_answers_a_per_share_question() -> None:
    asked = "What dividends per share did North Harbour pay in fiscal 2031?"
    keywords = ["Harbour", "dividends", "share", "pay", "fiscal", "2031"]
    value = answer_from_cells(asked, keywords, line_item_names, ROWS, ISSUER)
    assert value is not None and value.cells[0].label == "Dividends per share", value
