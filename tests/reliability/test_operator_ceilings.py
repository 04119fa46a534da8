"""Bounds that hold whoever asks: the operator's ceilings (LOUPE_MAX_*) bound every budget a visitor or a command
line sets, the request timeout and question sets, and every bound is checked before the work starts.

A visitor once set a 1,000,000-second budget and timeout (the ask was still running at 75 s); a 40,026-character
question was refused only after a 41.7 s corpus-wide search; a 100,000-character library search took 319 s;
``runs list --limit 99999999999999999999`` ended in an OverflowError; a 99.7 MB question set was parsed on every
rerun of the Evaluate page.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from engine import ceilings
from engine.api import answer
from engine.api.corpus_search import ask_library, search_library
from engine.config import MAX_QUESTION_CHARS, EngineConfig
from engine.contracts import BudgetOverride
from engine.errors import LoupeError
from engine.library.local import Library
from tests.app.conftest import APP
from tests.reliability import pdfs
from tests.reliability.conftest import run_cli


class Untouchable:
    """A library that fails the test when any work reaches it (a bound must be checked first)."""

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"the library was used ({name}) before the bound was checked")


# ------------------------------------------------------------------------------------------------
# The ceilings themselves
# ------------------------------------------------------------------------------------------------


def test_ceilings_come_from_the_environment_and_ignore_nonsense(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LOUPE_MAX_SECONDS", "60")
    monkeypatch.setenv("LOUPE_MAX_CONTEXT_TOKENS", "-5")
    monkeypatch.setenv("LOUPE_MAX_TIMEOUT", "inf")
    assert ceilings.budget_ceiling("max_seconds") == 60
    assert ceilings.budget_ceiling("max_context_tokens") == ceilings.CONTEXT_TOKENS.default
    assert ceilings.timeout_ceiling() == ceilings.TIMEOUT.default


def test_every_preset_budget_is_within_the_default_ceilings() -> None:
    from engine.config import PRESETS

    for config in PRESETS.values():
        for budget in (config.budgets.simple, config.budgets.moderate, config.budgets.complex):
            assert ceilings.within_ceilings(budget) == budget


@pytest.mark.parametrize(
    ("override", "env"),
    [
        (BudgetOverride(max_seconds=1_000_000), "LOUPE_MAX_SECONDS"),
        (BudgetOverride(max_context_tokens=10_000_000), "LOUPE_MAX_CONTEXT_TOKENS"),
        (BudgetOverride(max_llm_calls=100_000), "LOUPE_MAX_LLM_CALLS"),
    ],
)
def test_a_budget_over_a_ceiling_is_refused_before_any_work(override: BudgetOverride, env: str) -> None:
    with pytest.raises(LoupeError, match=env):
        answer("What was measured?", ["abc"], budget=override, library=Untouchable())  # type: ignore[arg-type]


def test_a_request_timeout_over_the_ceiling_is_refused_before_any_work() -> None:
    config = EngineConfig().model_copy(
        update={"backend": EngineConfig().backend.model_copy(update={"kind": "openai", "timeout_seconds": 1e6})}
    )
    with pytest.raises(LoupeError, match="LOUPE_MAX_TIMEOUT"):
        answer("What was measured?", ["abc"], config=config, library=Untouchable())  # type: ignore[arg-type]


@pytest.mark.timeout(180)
def test_a_preset_above_a_lowered_ceiling_runs_within_it(config: EngineConfig, monkeypatch: pytest.MonkeyPatch) -> None:
    library = Library(config)
    doc_id = library.ingest(pdfs.text_pdf(), "heron.pdf").doc_id
    monkeypatch.setenv("LOUPE_MAX_SECONDS", "7")
    monkeypatch.setenv("LOUPE_MAX_ITERATIONS", "1")
    result = answer("How many stations saw turbidity fall?", [doc_id], config=config, library=library)
    assert result.budget.max_seconds == 7 and result.budget.max_iterations == 1


# ------------------------------------------------------------------------------------------------
# Lengths and counts checked before the work
# ------------------------------------------------------------------------------------------------


def test_ask_library_checks_the_question_length_before_the_corpus_search() -> None:
    question = "word " * 8_005
    with pytest.raises(LoupeError, match="over the limit of 2,000"):
        ask_library(question, library=Untouchable())  # type: ignore[arg-type]


def test_a_library_search_refuses_a_query_over_the_limit_before_searching() -> None:
    with pytest.raises(LoupeError, match="over the limit"):
        search_library(Untouchable(), "x" * (MAX_QUESTION_CHARS + 1), 5)  # type: ignore[arg-type]


@pytest.mark.timeout(120)
@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["runs", "list", "--limit", "99999999999999999999"], "at most 10,000 runs"),
        (["runs", "list", "--search", "a" * 50_000], "over the limit of 200"),
        (["ask", "--all", "w " * 20_013], "over the limit of 2,000"),
        (["search", "--all", "x" * 100_000], "over the limit of 2,000"),
        (["ask", "--all", "--max-seconds", "1000000", "What was measured?"], "LOUPE_MAX_SECONDS"),
        (["ask", "--all", "--backend", "openai", "--timeout", "1000000", "What?"], "LOUPE_MAX_TIMEOUT"),
    ],
)
def test_cli_refuses_out_of_bounds_input_with_one_clear_line(args: list[str], expected: str, library_dir: Path) -> None:
    proc = run_cli(args, library_dir, timeout=90)
    assert proc.returncode == 2, proc.stderr
    assert expected in proc.stderr and "Traceback" not in proc.stderr and "unexpected" not in proc.stderr


# ------------------------------------------------------------------------------------------------
# The app: visitors choose below the ceilings; question sets are bounded before they are parsed
# ------------------------------------------------------------------------------------------------


def test_sidebar_inputs_stop_at_the_operator_ceilings(library_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LOUPE_MAX_SECONDS", "60")
    monkeypatch.setenv("LOUPE_MAX_TIMEOUT", "45")
    at = AppTest.from_file(APP, default_timeout=60).run()
    seconds = at.sidebar.number_input(key="loupe_w_max_seconds")
    assert seconds.max == 60.0
    at.sidebar.radio(key="loupe_w_backend").set_value("openai").run()
    assert at.sidebar.number_input(key="loupe_w_timeout").max == 45.0
    assert not at.exception


class Upload:
    """Stands in for Streamlit's UploadedFile; reading it fails the test (the size is checked first)."""

    def __init__(self, size: int, text: str = "") -> None:
        self.size, self.name, self._text = size, "set.jsonl", text

    def getvalue(self) -> bytes:
        if not self._text:
            raise AssertionError("the upload was read before its size was checked")
        return self._text.encode()


def test_an_oversized_question_set_upload_is_refused_unread(monkeypatch: pytest.MonkeyPatch) -> None:
    from ui.evaluate import uploaded_set

    monkeypatch.setenv("LOUPE_MAX_SET_MB", "5")
    with pytest.raises(LoupeError, match="over this server's ceiling of 5 MB"):
        uploaded_set(Upload(99_700_000), None)


def test_a_question_naming_too_many_documents_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    import json

    from ui.evaluate import uploaded_set

    monkeypatch.setenv("LOUPE_MAX_DOCS_PER_QUESTION", "20")
    line = {"id": "wide", "docs": [f"d{n}.pdf" for n in range(500)], "question": "What changed?",
            "answer": "x", "evidence_pages": [1]}  # fmt: skip
    text = json.dumps(line) + "\n"
    with pytest.raises(LoupeError, match="names 500 documents"):
        uploaded_set(Upload(len(text), text), None)


# ------------------------------------------------------------------------------------------------
# The embeddings endpoint: the question's seconds, its own key, no all-zero vectors
# ------------------------------------------------------------------------------------------------


def test_cli_gives_the_embeddings_endpoint_its_own_key(monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.cli.main import EMBEDDINGS_KEY_ENV, _backend_settings

    monkeypatch.setenv("OPENAI_API_KEY", "sk-chat-key-000")
    monkeypatch.setenv(EMBEDDINGS_KEY_ENV, "sk-embed-key-111")
    args = argparse.Namespace(
        backend="openai", model=None, base_url="http://127.0.0.1:9/v1", timeout=None, context_window=None,
        embeddings_model="embedder", embeddings_url="http://127.0.0.1:8/v1",
    )  # fmt: skip
    endpoint = _backend_settings(args, EngineConfig()).embeddings_endpoint()
    assert endpoint is not None
    assert endpoint.credentials() == ("http://127.0.0.1:8/v1", "sk-embed-key-111")


def test_the_readme_documents_every_ceiling() -> None:
    from engine.config import REPO_ROOT

    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    missing = [c.env for c in ceilings.ALL if c.env not in readme]
    assert not missing, missing
