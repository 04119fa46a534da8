"""Two named things compared by a comparative ("How much more was A's pay than B's?"): each side's figure is read
from its own row, its metric from the table's columns and title, and the gap between them stated."""

from __future__ import annotations

import pymupdf

from engine.api import answer
from engine.config import EngineConfig
from engine.library.local import Library
from tests.pdfs import BODY, FILLER, LEFT, _bytes, _Writer


def _grid(w: _Writer, rows: list[tuple[str, ...]], col_w: float = 130.0) -> None:
    top, row_h = w.y, 22.0
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            x0, y0 = LEFT + c * col_w, top + r * row_h
            w.page.draw_rect(pymupdf.Rect(x0, y0, x0 + col_w, y0 + row_h), color=(0, 0, 0), width=0.8)
            w._text(x0 + 6, y0 + 15, cell, w.bold if r == 0 else w.regular, BODY)
    w.at(top + len(rows) * row_h + 30)


def _pay_pdf() -> bytes:
    doc = pymupdf.open()
    w = _Writer(doc)
    w.new_page().heading("Board Matters").para("Each director who is not an employee is paid for board service.")
    w.heading("Board Pay", size=12).para("The board pay is summarized in the following table.")
    _grid(w, [("Element", "Board Pay"), ("Retainer", "$50,000"), ("Committee chair", "$20,000")])
    w.heading("Director Pay Table", size=12).para("The table below shows the pay of each director in 2031.")
    _grid(w, [("Name", "Fees Earned ($)", "Stock Awards ($)", "Total ($)"),
              ("Dana Lund", "$60,000", "$171,400", "$231,400"), ("Eli Park", "$45,000", "$171,400", "$216,400")])  # fmt: skip
    w.para(*FILLER)
    return _bytes(doc)


def test_each_named_side_is_read_from_its_own_row_and_the_gap_is_stated(config: EngineConfig) -> None:
    library = Library(config)
    entry = library.ingest(_pay_pdf(), "proxy.pdf")
    library.wait_for_background()
    result = answer("How much more was Dana Lund's total pay than Eli Park's?", [entry.doc_id], library=library)
    text = result.answer.text
    assert "Dana Lund is higher by $15,000" in text, text
    assert "50,000" not in text.split("\n")[0], text


def test_a_gap_asked_in_percent_is_read_from_each_side_s_amount(config: EngineConfig) -> None:
    library = Library(config)
    entry = library.ingest(_pay_pdf(), "proxy.pdf")
    library.wait_for_background()
    asked = "Give the percentage difference in total pay between Dana Lund and Eli Park."
    result = answer(asked, [entry.doc_id], library=library).answer
    assert "Dana Lund is 6.93% above Eli Park" in result.text, result.text
    assert not result.text.startswith("The evidence does not establish"), result.text
    assert "value_not_ratio" not in {c.kind for c in result.caveats}, "each side's amount is what the gap is read from"
