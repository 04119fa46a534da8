"""The openai backend against a real (tiny) model: the contract, not the quality.

Three questions on a generated document go through ``python -m engine ask --backend openai``, as a
user would run them. Each must finish inside its seconds budget, with no step falling back because of
an HTTP error or a timeout, with prompt tokens counted, with every citation pointing at a chunk that
exists (page and document taken from that chunk), and without the API key anywhere in what the run
printed or wrote.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pymupdf
import pytest

from engine.config import REPO_ROOT, EngineConfig, LibraryConfig
from engine.documents.text import normalize_space
from engine.library.local import Library

pytestmark = pytest.mark.real_llm

KEY = "sk-loupe-real-llm-7Qx2Vb9Lm4Tz"
BUDGET_SECONDS = 300.0
"""A CPU model with a grammar-constrained reply writes a few tokens a second on a busy 2-core machine."""
REQUEST_TIMEOUT_SECONDS = 150.0
STARTUP_SLACK_SECONDS = 30.0  # interpreter start, ingest and JSON output around the budgeted answer

PAGES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("1 Overview", (
        "The Marlow Valley Water Authority supplies drinking water to four towns in the valley.",
        "It operates seven pumping stations and two treatment works along the river.",
        "The authority was founded in 1962 and is governed by a board of nine members.",
    )),
    ("2 Reservoirs", (
        "The Kestrel reservoir holds 41 million cubic metres of water when full.",
        "The smaller Finch reservoir holds 12 million cubic metres and feeds the eastern towns.",
        "Both reservoirs were inspected in March and found to be in good condition.",
    )),
    ("3 Finances", (
        "Operating revenue for the year was 88.4 million euros, up from 83.1 million euros.",
        "Capital spending on new pipes reached 19.7 million euros.",
        "The board expects water charges to rise by 2.5 percent next year.",
    )),
)  # fmt: skip
QUESTIONS = (  # (question, strategy): strategies whose model calls are parse + answers, so the time is bounded
    ("How much water does the Kestrel reservoir hold?", "single_pass"),
    ("How many pumping stations does the authority operate?", "dispatched"),
    ("What was the operating revenue for the year?", "dispatched"),
)
"""The planning strategies (dynamic, plan_execute) add plan/judge calls; on a busy 2-core machine their judge
step outran its share of a 300 s budget, so they are covered against the stub servers (tests/llm)."""
TRANSPORT_FAILURES = ("http", "timeout", "timed out", "did not finish", "did not answer", "connect", "time budget")


def water_report_pdf() -> bytes:
    """Three pages, one numbered section each, facts written as plain sentences."""
    doc = pymupdf.open()
    for title, lines in PAGES:
        page = doc.new_page()
        page.insert_text((72, 90), title, fontsize=16, fontname="hebo")
        for row, line in enumerate(lines):
            page.insert_text((72, 130 + row * 22), line, fontsize=10.5)
    doc.set_toc([[1, title, number] for number, (title, _) in enumerate(PAGES, start=1)])
    data = doc.tobytes()
    doc.close()
    return data


@pytest.fixture(scope="module")
def water_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("doc") / "marlow-water-report.pdf"
    path.write_bytes(water_report_pdf())
    return path


def ask(
    base_url: str, pdf: Path, question: str, strategy: str, library: Path
) -> tuple[subprocess.CompletedProcess[str], float]:
    env = {key: value for key, value in os.environ.items() if key != "LOUPE_NO_NETWORK"}
    env.update({"LOUPE_LIBRARY": str(library), "OPENAI_API_KEY": KEY, "OPENAI_BASE_URL": base_url,
                # the operator of a slow CPU model raises the ceilings its visitors' bounds must stay under
                "LOUPE_MAX_TIMEOUT": str(REQUEST_TIMEOUT_SECONDS), "LOUPE_MAX_SECONDS": str(BUDGET_SECONDS)})  # fmt: skip
    command = [sys.executable, "-m", "engine", "-v", "ask", str(pdf), question, "--backend", "openai", "--strategy", strategy,
               "--max-seconds", str(BUDGET_SECONDS), "--timeout", str(REQUEST_TIMEOUT_SECONDS), "--json"]  # fmt: skip
    started = time.monotonic()
    proc = subprocess.run(command, capture_output=True, text=True, cwd=REPO_ROOT, env=env,
                          timeout=BUDGET_SECONDS + STARTUP_SLACK_SECONDS + 60)  # fmt: skip
    return proc, time.monotonic() - started


@pytest.mark.parametrize(("question", "strategy"), QUESTIONS)
def test_real_model_answers_inside_the_contract(real_llm_url, water_report, tmp_path, question, strategy):
    library = tmp_path / "library"
    library.mkdir()
    proc, seconds = ask(real_llm_url, water_report, question, strategy, library)
    assert proc.returncode == 0, proc.stderr[-2000:]
    result = json.loads(proc.stdout.strip().splitlines()[-1])

    assert result["backend"] == "openai"
    assert result["usage"]["latency_ms"] <= BUDGET_SECONDS * 1000 + 2000, result["usage"]
    assert seconds <= BUDGET_SECONDS + STARTUP_SLACK_SECONDS, f"{seconds:.1f} s"
    transport = [f for f in result["fallbacks"] if any(word in f["reason"].lower() for word in TRANSPORT_FAILURES)]
    assert not transport, transport
    assert result["usage"]["prompt_tokens"] > 0, result["usage"]

    doc_id = result["docs"][0]["doc_id"]
    config = EngineConfig(library=LibraryConfig(path=str(library)))
    chunks = {c.chunk_id: c for c in Library(config).load(doc_id).doc.chunks}
    chunks.update({c["chunk_id"]: _chunk_view(c) for c in result["evidence_chunks"] if c["chunk_id"] not in chunks})
    for citation in result["answer"]["citations"]:
        chunk = chunks.get(citation["chunk_id"])
        assert chunk is not None, f"citation of a chunk that does not exist: {citation}"
        assert (citation["page"], citation["doc_id"]) == (chunk.page, chunk.doc_id), citation
        assert normalize_space(citation["quote"]) in normalize_space(chunk.text), citation

    written = [p.read_bytes() for p in library.rglob("*") if p.is_file()]
    for text in (proc.stdout, proc.stderr):
        assert KEY not in text
    assert not any(KEY.encode() in blob for blob in written)


def _chunk_view(data: dict):
    """A chunk of the run's evidence (an adaptive re-parse may add chunks the stored parse lacks)."""
    from engine.contracts import Chunk

    return Chunk.model_validate(data)
