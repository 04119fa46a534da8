"""Questions are bounded: a clear message over the length limit, in the engine, the CLI and the web box.

A 40,000-character question took 28 s with ``max_seconds`` 20 and ``exhausted`` false; 100,000
characters ran past 120 s; the web question box had no length limit.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from engine.api import answer
from engine.config import EngineConfig
from engine.errors import LoupeError
from engine.library.local import Library
from tests.app.conftest import APP
from tests.reliability import pdfs
from tests.reliability.conftest import run_cli

LIMIT = 2000
"""The documented question limit (engine.MAX_QUESTION_CHARS)."""
LONG = ("How does the Heron survey compare with the spring readings at the twelve stations, and why? " * 450)[:40_000]


def test_the_limit_is_the_documented_one() -> None:
    import engine

    assert engine.MAX_QUESTION_CHARS == LIMIT


@pytest.mark.timeout(60)
def test_engine_refuses_an_overlong_question_before_parsing_it(config: EngineConfig) -> None:
    library = Library(config)
    doc_id = library.ingest(pdfs.text_pdf(), "heron.pdf").doc_id
    with pytest.raises(LoupeError, match=r"40,000 characters.*2,000") as info:
        answer(LONG, [doc_id], config=config, library=library)
    assert "\n" not in str(info.value)
    at_limit = ("What did the Heron survey measure? " * 60)[:LIMIT]
    assert answer(at_limit, [doc_id], config=config, library=library, strategy="single_pass").answer is not None


@pytest.mark.timeout(120)
def test_cli_refuses_an_overlong_question_with_one_error_line(tmp_path: Path, library_dir: Path) -> None:
    pdf = tmp_path / "heron.pdf"
    pdf.write_bytes(pdfs.text_pdf())
    proc = run_cli(["ask", str(pdf), LONG], library_dir)
    assert proc.returncode == 2, proc.stderr[-500:]
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("error: the question is 40,000 characters")


@pytest.mark.timeout(120)
def test_web_question_box_is_limited_and_says_why(library_dir: Path) -> None:
    at = AppTest.from_file(APP, default_timeout=60).run()
    assert at.chat_input(key="loupe_chat").proto.max_chars == LIMIT
    for text in (LONG, LONG[:LIMIT]):  # the browser cuts a longer paste off at the limit
        at.chat_input(key="loupe_chat").set_value(text).run()
        assert not at.exception, [e.value for e in at.exception]
        assert any("2,000-character limit" in e.value for e in at.error), [e.value for e in at.error]
        assert not at.session_state["loupe"].get("conversation"), "an overlong question was asked"


@pytest.mark.parametrize("n", [LIMIT, LIMIT + 1])
def test_check_is_exact_at_the_limit(n: int, config: EngineConfig) -> None:
    library = Library(config)
    doc_id = library.ingest(pdfs.text_pdf(), "heron.pdf").doc_id
    question = ("word " * n)[: n - 1] + "?"
    if n > LIMIT:
        with pytest.raises(LoupeError, match="over the limit"):
            answer(question, [doc_id], config=config, library=library, strategy="single_pass")
    else:
        answer(question, [doc_id], config=config, library=library, strategy="single_pass")
