"""Adaptive re-parsing runs the table finder only on pages whose tables layer 1 did not read as rows."""

from __future__ import annotations

from pathlib import Path

import engine
from engine.config import EngineConfig
from engine.library.local import Library
from tests.run.conftest import build_report_pdf


def _first_pass_queries(result: engine.RunResult) -> tuple[str, ...]:
    return result.history[0].queries


def test_a_statement_read_as_rows_is_not_re_parsed(config: EngineConfig, shared_dir: Path) -> None:
    data = (shared_dir / "corpus/filings/3M_2018_10K.pdf").read_bytes()
    entry = Library(config).ingest(data, "3M_2018_10K.pdf")
    result = engine.answer(
        "How much did 3M spend on capital expenditure in FY2018 (USD millions), going by the cash flow "
        "statement table?", [entry.doc_id], strategy="dispatched", config=config,
    )  # fmt: skip
    assert result.activations.adaptive_parsing.on, result.activations.adaptive_parsing.reason
    assert not [q for q in _first_pass_queries(result) if q.startswith("re-parse")]
    assert "1,577" in result.answer.text


def test_a_table_layer_1_did_not_read_as_rows_is_re_parsed(config: EngineConfig) -> None:
    entry = Library(config).ingest(build_report_pdf(), "heron-report.pdf")
    result = engine.answer(
        "What is the mean turbidity value of Station B in Table 3?", [entry.doc_id], strategy="dispatched",
        config=config,
    )  # fmt: skip
    if not result.activations.adaptive_parsing.on:
        raise AssertionError(result.activations.adaptive_parsing.reason)
    assert [q for q in _first_pass_queries(result) if q.startswith("re-parse")]
