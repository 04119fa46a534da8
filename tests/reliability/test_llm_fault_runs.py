"""Whole runs against failing LLM endpoints: fallbacks recorded, answer returned, seconds budget held."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.api import answer
from engine.contracts import BudgetOverride, RunResult
from engine.library.local import Library
from engine.llm import allow_network
from tests.reliability import pdfs
from tests.reliability.conftest import net_config
from tests.reliability.fault_server import closed_port

QUESTION = "What did the Heron survey measure at the twelve stations?"


# ------------------------------------------------------------------------------------------------


def _ingest(library_dir: Path, base_url: str, **kw: float) -> tuple[Library, str, object]:
    config = net_config(library_dir, base_url, **kw)
    library = Library(config)
    entry = library.ingest(pdfs.text_pdf(), "heron.pdf")
    return library, entry.doc_id, config


@pytest.mark.timeout(180)
@pytest.mark.parametrize("fault", ["5xx", "not_json", "schema_break", "refused", "429"])
def test_run_against_failing_endpoint_records_fallbacks(fault: str, fault_server, library_dir: Path) -> None:
    base_url = f"http://127.0.0.1:{closed_port()}/v1" if fault == "refused" else fault_server(fault).base_url
    library, doc_id, config = _ingest(library_dir, base_url)
    with allow_network(True):
        result = answer(QUESTION, [doc_id], config=config, library=library, strategy="dispatched")
    assert isinstance(result, RunResult)
    assert result.backend == "openai"
    assert result.fallbacks, "no fallback recorded"
    tasks = {f.task for f in result.fallbacks}
    assert "parse_question" in tasks and "answer" in tasks, tasks
    assert result.answer.text.strip()
    assert result.history
    RunResult.model_validate_json(result.model_dump_json())


@pytest.mark.timeout(60)
@pytest.mark.parametrize(("fault", "timeout"), [("hang", 1.0), ("hang", 10.0), ("trickle", 10.0)])
def test_seconds_budget_holds_when_the_endpoint_hangs(
    fault: str,
    timeout: float,
    fault_server,
    library_dir: Path,
) -> None:
    """max_seconds=3 must hold even when one request could wait longer than the whole budget."""
    server = fault_server(fault, delay=0.5)
    library, doc_id, config = _ingest(library_dir, server.base_url, timeout=timeout, retries=2)
    with allow_network(True):
        result = answer(QUESTION, [doc_id], config=config, library=library, budget=BudgetOverride(max_seconds=3))
    assert result.answer.text.strip()
    assert result.fallbacks
