"""A whole question with dense retrieval on a stub embeddings endpoint: the activation column names the engine,
a document's vectors are made once, and a failing endpoint costs the LSA's ranking, never the answer."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.api import answer
from engine.config import REPO_ROOT, BackendConfig, EngineConfig
from engine.contracts import LibraryEntry, RunResult
from engine.library.local import Library
from engine.llm import allow_network
from engine.retrieval import embedded_dense
from engine.retrieval.cache import invalidate_shared
from engine.retrieval.embedded_dense import EMBEDDINGS_NAME, chunk_text
from tests.llm.embeddings_stub import EmbeddingsStub
from tests.run.conftest import build_report_pdf

QUESTION = "What is this document about?"
"""A vague question: the dispatcher switches dense retrieval on for it."""
KEY = "sk-server-0123456789abcdef"


@pytest.fixture
def stub(monkeypatch: pytest.MonkeyPatch) -> Iterator[EmbeddingsStub]:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    embedded_dense._MEMORY.clear()
    with EmbeddingsStub() as server, allow_network():
        yield server
    embedded_dense._MEMORY.clear()


@pytest.fixture
def entry(config: EngineConfig) -> Iterator[LibraryEntry]:
    added = Library(config).ingest(build_report_pdf(), "heron-report.pdf")
    invalidate_shared(added.doc_id)  # searches of the same document by earlier tests
    yield added
    invalidate_shared(added.doc_id)


def ask(config: EngineConfig, stub: EmbeddingsStub, model: str = "stub-embed") -> RunResult:
    backend = BackendConfig(embeddings_url=stub.base_url, embeddings_model=model, max_retries=0)
    config = config.model_copy(update={"backend": backend})
    library = Library(config)
    return answer(QUESTION, [library.entries()[0].doc_id], config=config, library=library, strategy="dispatched")


def chunk_texts(config: EngineConfig, entry: LibraryEntry) -> set[str]:
    return {chunk_text(c.section_path, c.text) for c in Library(config).load(entry.doc_id).doc.chunks}


def test_the_run_ranks_with_the_endpoints_vectors_and_says_so(config, entry, stub) -> None:
    result = ask(config, stub)
    dense = result.activations.dense_retrieval
    assert dense.on and dense.reason.endswith("dense retrieval (embeddings: stub-embed)")
    assert set(stub.texts_embedded()) >= chunk_texts(config, entry)  # every chunk, once
    assert QUESTION in stub.texts_embedded()
    assert all(len(r.inputs) <= config.backend.embeddings_batch_size for r in stub.requests)
    assert (config.library.resolved_path() / entry.doc_id / EMBEDDINGS_NAME).is_file()
    assert result.answer.text and result.fallbacks == ()


def test_a_second_run_reuses_the_saved_vectors_and_another_model_rebuilds(config, entry, stub) -> None:
    ask(config, stub)
    stub.reset()
    embedded_dense._MEMORY.clear()  # as in a new process: only the file is left
    invalidate_shared(entry.doc_id)
    ask(config, stub)
    assert stub.texts_embedded() and chunk_texts(config, entry).isdisjoint(stub.texts_embedded())
    stub.reset()
    ask(config, stub, model="stub-embed-2")
    assert set(stub.texts_embedded()) >= chunk_texts(config, entry)
    assert {r.body["model"] for r in stub.requests} == {"stub-embed-2"}


@pytest.mark.parametrize(
    ("mode", "cause"),
    [("500", "HTTP 500"), ("not_json", "not JSON"), ("wrong_count", "vectors for"), ("wrong_dim", "width")],
)
def test_a_failing_endpoint_falls_back_to_the_lsa_with_its_reason(config, entry, stub, mode, cause) -> None:
    offline = answer(QUESTION, [entry.doc_id], config=config, library=Library(config), strategy="dispatched")
    stub.mode = mode
    result = ask(config, stub)
    reason = result.activations.dense_retrieval.reason
    assert "dense retrieval (embeddings: stub-embed); it fell back to LSA for this run (embeddings endpoint:" in reason
    assert cause in reason and KEY not in reason
    assert result.answer.text == offline.answer.text  # the LSA's answer, unchanged
    assert offline.activations.dense_retrieval.reason.endswith("dense retrieval (LSA)")


def test_a_timeout_falls_back_to_the_lsa(config, entry, stub) -> None:
    stub.mode, stub.hang_seconds = "hang", 3.0
    backend = BackendConfig(embeddings_url=stub.base_url, embeddings_model="m", max_retries=0, timeout_seconds=1.0)
    config = config.model_copy(update={"backend": backend})
    result = answer(QUESTION, [entry.doc_id], config=config, library=Library(config), strategy="dispatched")
    assert "fell back to LSA" in result.activations.dense_retrieval.reason
    assert "within" in result.activations.dense_retrieval.reason


def _cli(args: list[str], library: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "LOUPE_LIBRARY": str(library), "LOUPE_NO_NETWORK": "0", "OPENAI_API_KEY": KEY}
    return subprocess.run([sys.executable, "-m", "engine", *args], capture_output=True, text=True,
                          cwd=REPO_ROOT, env=env, timeout=120)  # fmt: skip


def test_the_cli_says_when_dense_retrieval_fell_back(tmp_path, library_dir, stub) -> None:
    pdf = tmp_path / "heron.pdf"
    pdf.write_bytes(build_report_pdf())
    stub.mode = "500"
    flags = ["--embeddings-url", stub.base_url, "--embeddings-model", "stub-embed", "--strategy", "dispatched"]
    proc = _cli(["ask", str(pdf), QUESTION, *flags], library_dir)
    assert proc.returncode == 0, proc.stderr
    assert "dense retrieval fell back to LSA for this run: embeddings endpoint: the endpoint answered HTTP 500" in (
        proc.stderr
    )
    assert "it fell back to LSA for this run" in proc.stdout
    assert KEY not in proc.stdout + proc.stderr


def test_the_cli_refuses_an_embeddings_url_without_a_model(tmp_path, library_dir) -> None:
    proc = _cli(["ask", "x.pdf", "q", "--embeddings-url", "http://127.0.0.1:9/v1"], library_dir)
    assert proc.returncode == 2
    assert proc.stderr.strip() == (
        "error: --embeddings-url needs --embeddings-model (the model the endpoint embeds with)"
    )
