"""Adaptive re-parsing runs the table finder only on pages whose tables layer 1 did not read as rows."""

from __future__ import annotations

import pymupdf

import engine
from engine.config import EngineConfig
from engine.library.local import Library
from tests.run.conftest import build_report_pdf

COLUMNS = (72, 340, 410, 480)


def _first_pass_queries(result: engine.RunResult) -> tuple[str, ...]:
    return result.history[0].queries


def _statements_pdf() -> bytes:
    """A made-up ferry line's cash flow statement and income statement, each laid out in columns as filings
    print them, so layer 1 reads their rows."""
    doc = pymupdf.open()
    for title, rows in (
        ("Consolidated Statement of Cash Flows", [
            ("(Millions)", "2034", "2033", "2032"),
            ("Net cash provided by operating activities", "3,912", "3,640", "3,505"),
            ("Purchases of property, plant and equipment (PP&E)", "(1,146)", "(1,052)", "(987)"),
            ("Proceeds from sale of PP&E", "74", "31", "29"),
            ("Net cash used in investing activities", "(1,072)", "(1,021)", "(958)"),
        ]),
        ("Consolidated Statement of Income", [
            ("(Millions)", "2034", "2033", "2032"), ("Ticket revenue", "8,215", "7,904", "7,530"),
            ("Fuel", "2,310", "2,196", "2,088"), ("Operating income", "1,402", "1,318", "1,251"),
        ]),
    ):  # fmt: skip
        page = doc.new_page()
        page.insert_text((72, 72), "Harbourline Ferries Annual Report 2034", fontsize=16)
        page.insert_text((72, 110), title, fontsize=12)
        for n, row in enumerate(rows):
            for x, text in zip(COLUMNS, row, strict=True):
                page.insert_text((x, 140 + 16 * n), text, fontsize=10)
    return doc.tobytes()


def test_a_statement_read_as_rows_is_not_re_parsed(config: EngineConfig) -> None:
    entry = Library(config).ingest(_statements_pdf(), "HARBOURLINE_2034_annual_report.pdf")
    result = engine.answer(
        "How much did Harbourline Ferries spend on capital expenditure in FY2034 (USD millions), going by the "
        "cash flow statement table?", [entry.doc_id], strategy="dispatched", config=config,
    )  # fmt: skip
    assert result.activations.adaptive_parsing.on, result.activations.adaptive_parsing.reason
    assert not [q for q in _first_pass_queries(result) if q.startswith("re-parse")]
    assert "1,146" in result.answer.text


def test_a_table_layer_1_did_not_read_as_rows_is_re_parsed(config: EngineConfig) -> None:
    entry = Library(config).ingest(build_report_pdf(), "heron-report.pdf")
    result = engine.answer(
        "What is the mean turbidity value of Station B in Table 3?", [entry.doc_id], strategy="dispatched",
        config=config,
    )  # fmt: skip
    if not result.activations.adaptive_parsing.on:
        raise AssertionError(result.activations.adaptive_parsing.reason)
    assert [q for q in _first_pass_queries(result) if q.startswith("re-parse")]


def _tiers_pdf() -> bytes:
    """A made-up ferry line's tier comparison: a ruled table whose description cells wrap over several lines, so
    layer 1 reads some of its rows and breaks others."""
    doc = pymupdf.open()
    css = "table {border-collapse: collapse;} td, th {border: 1px solid black; padding: 2px; font-size: 9px;}"
    html = (
        "<p>Table 2: Comparison of ferry tiers</p><table>"
        "<tr><th>Compared item</th><th>Basic</th><th>Harbour</th><th>Harbour Plus (pilot only)</th></tr>"
        "<tr><td>Purpose</td><td>Short trips at a low cost on a fixed schedule</td><td>Reliable, frequent crossings "
        "with reserved seats for members</td><td>Premium crossings for commuters who travel daily</td></tr>"
        "<tr><td>Designed punctuality (peak hours)</td><td>97%</td><td>99%</td><td>Not offered at peak</td></tr>"
        "<tr><td>Minimum booking window</td><td>None</td><td>2 days</td><td>7 days</td></tr></table>"
        "<p>Fares are listed on page 4.</p>"
    )
    doc.new_page().insert_htmlbox(pymupdf.Rect(72, 72, 450, 500), html, css=css)
    return doc.tobytes()


def test_the_page_of_a_table_the_question_names_is_re_parsed_whatever_layer_1_read(config: EngineConfig) -> None:
    entry = Library(config).ingest(_tiers_pdf(), "ferry-tiers.pdf")
    result = engine.answer("In Table 2, what is the minimum booking window of the Harbour tier?", [entry.doc_id],
                           strategy="dispatched", config=config)  # fmt: skip
    assert result.activations.adaptive_parsing.on, result.activations.adaptive_parsing.reason
    assert "re-parse page 1" in _first_pass_queries(result)
    assert result.answer.text.startswith("Minimum booking window, Harbour: 2 days"), result.answer.text
