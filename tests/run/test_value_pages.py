"""The cells a value is read from are kept with the loaded document between questions, and are the same cells
a fresh read gives: the retrieved pages' tables and sentences, then every other table, in the document's units."""

from __future__ import annotations

from types import SimpleNamespace

import pymupdf

from engine.config import EngineConfig
from engine.contracts import Budget, Hit, RankedList
from engine.library.local import Library
from engine.reading.document_units import in_fiscal_quarters, with_document_scale
from engine.reading.sentence_values import cells_in
from engine.run.budget import LoopGuard
from engine.run.evidence import RunState
from engine.run.value_pages import _in_units, document_cells, value_cells, value_pages

from .factories import question

TABLES = (
    ("Statement of Income", "(in millions)", [("Year", "2023", "2022"), ("Net sales", "$ 4,210", "$ 3,980"),
                                               ("Cost of sales", "2,630", "2,455")]),
    ("Balance Sheet", "", [("Year", "2023", "2022"), ("Inventories", "812", "790"), ("Total assets", "9,104", "8,722")]),
    ("Stores", "", [("Year", "2023", "2022"), ("Number of stores", "412", "398")]),
)  # fmt: skip


def _filing() -> bytes:
    """Three table pages (one caption states the scale) and a page of prose that states an amount."""
    doc = pymupdf.open()
    for title, caption, rows in TABLES:
        page = doc.new_page()
        page.insert_text((72, 72), "Tarn Outfitters Annual Report 2023", fontsize=16)
        page.insert_text((72, 104), title, fontsize=12)
        if caption:
            page.insert_text((72, 122), caption, fontsize=9)
        for n, (label, current, prior) in enumerate(rows):
            for x, text in ((72, label), (360, current), (440, prior)):
                page.insert_text((x, 140 + 16 * n), text, fontsize=10)
    doc.new_page().insert_htmlbox(
        pymupdf.Rect(72, 72, 540, 720), "<p>Capital spending was $145 million in 2023, up from 2022.</p>"
    )
    return doc.tobytes()


def _state(config: EngineConfig, pages: set[int]) -> RunState:
    library = Library(config)
    doc_id = library.ingest(_filing(), "tarn_2023_annual_report.pdf").doc_id
    library.wait_for_background()
    index = library.load(doc_id)
    parsed = question("What were Tarn's inventories in 2023?", keywords=("inventories",), asks_for_value=True)
    state = RunState(question=parsed.original_question, parsed=parsed, indexes=[index], config=config,
                     llm=SimpleNamespace(guard=LoopGuard(Budget())), activations=SimpleNamespace(is_on=lambda p: True),
                     pdf_bytes=bytes)  # type: ignore[arg-type]  # fmt: skip
    hits = [c for c in index.doc.chunks if c.page in pages]
    state.add(RankedList(query="q", retriever="keyword", hits=tuple(
        Hit(chunk=c, score=1.0 / n, retriever="keyword", rank=n) for n, c in enumerate(hits, start=1))))  # fmt: skip
    return state


def _read_afresh(state: RunState) -> list:
    """What the cells are without anything kept: every cell, then read in the units all of them state."""
    pages = value_pages(state, None)
    cells = cells_in(pages)
    seen = {(p[0].doc_id, p[0].page) for p in pages if p}
    doc_id = state.indexes[0].doc.doc_id
    cells += [c for page, found in sorted(document_cells(state, doc_id).items()) if (doc_id, page) not in seen
              for c in found]  # fmt: skip
    return in_fiscal_quarters(with_document_scale(cells), {doc_id: None})


def test_kept_cells_are_the_cells_a_fresh_read_gives(config: EngineConfig) -> None:
    state = _state(config, {2, 4})
    first = value_cells(state, None)
    assert first == _read_afresh(state)
    assert value_cells(state, None) == first, "read again from what the document keeps"
    inventories = next(c for c in first if c.label == "Inventories" and c.column == "2023")
    assert inventories.scale == "million", "the table with no caption is read in the document's scale"
    assert any(not c.is_row and "145" in c.raw for c in first), "the retrieved page's stated amount is read"
    stores = next(c for c in first if c.label == "Number of stores")
    assert not stores.scale and not stores.unit, "a count is not in the document's money scale"


def test_another_questions_pages_come_first_and_give_the_same_cells_as_a_fresh_read(config: EngineConfig) -> None:
    state = _state(config, {3})
    cells = value_cells(state, None)
    assert cells == _read_afresh(state)
    assert cells[0].page == 3, "the retrieved page's cells lead"


def test_cells_are_kept_per_units(config: EngineConfig) -> None:
    state = _state(config, {1})
    doc_id = state.indexes[0].doc.doc_id
    millions = _in_units(state, doc_id, ("million", "$", None))
    thousands = _in_units(state, doc_id, ("thousand", "$", None))
    label = next(c for c in millions[2] if c.label == "Inventories")
    assert label.scale == "million" and next(c for c in thousands[2] if c.label == "Inventories").scale == "thousand"
    assert _in_units(state, doc_id, ("million", "$", None)) is millions


def test_cells_warmed_before_the_question_are_the_cells_it_reads(config: EngineConfig) -> None:
    from engine.run.value_pages import _warm_units

    state = _state(config, {2})
    index = state.indexes[0]
    _warm_units(index.doc, index.memo)  # what a question waiting for the keyword index has done meanwhile
    warmed = index.memo.get("cells_in_units", dict)
    assert len(warmed) == 1
    assert value_cells(state, None) == _read_afresh(state)
    assert index.memo.get("cells_in_units", dict) == warmed, "the question read the warmed units"
