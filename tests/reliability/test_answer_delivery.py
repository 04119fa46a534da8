"""The answer always reaches the user, and the history survives its own damage.

In a read-only library ``ask --all`` lost its answer ("runs cannot be saved") and ``ask --follow-up`` printed a run
id that was never saved; with PostgreSQL stopped an ask waited 30 s for a connection beyond its 15 s budget and
printed nothing. One history row with a damaged JSON field broke ``runs list`` and the History page; one malformed
line blocked the whole personal question set; the app advised moving the history aside for a full disk and for a
too-long search, and named the server's paths.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import sys
from pathlib import Path

import pytest

from engine.api import answer
from engine.config import EngineConfig, LibraryConfig
from engine.errors import DatabaseError, HistoryError, LoupeError
from engine.history.run_store import save_run
from engine.history.sqlite import FILE_NAME, SqliteRunStore, _trouble
from engine.library.local import Library
from tests.app.factories import run_result
from tests.reliability import pdfs
from tests.reliability.readonly import read_only_available, run_read_only

QUESTION = "How many stations saw turbidity fall?"
read_only = pytest.mark.skipif(read_only_available() is not None, reason=str(read_only_available()))


@pytest.fixture
def filled(library_dir: Path) -> str:
    """A library holding the heron report, its indexes built; returns its doc id."""
    library = Library(EngineConfig(library=LibraryConfig(path=str(library_dir))))
    doc_id = library.ingest(pdfs.text_pdf(), "heron.pdf").doc_id
    library.wait_for_background()
    return doc_id


def _cli(library_dir: Path, *args: str):
    return run_read_only(library_dir, [sys.executable, "-m", "engine", *args])


def _last_json(stdout: str) -> dict:
    return json.loads(stdout.strip().splitlines()[-1])


# ------------------------------------------------------------------------------------------------
# A history that cannot be written
# ------------------------------------------------------------------------------------------------


@read_only
@pytest.mark.timeout(300)
def test_ask_all_in_a_read_only_library_prints_the_answer_without_a_run_id(filled: str, library_dir: Path) -> None:
    asked = _cli(library_dir, "ask", "--all", QUESTION, "--json")
    assert asked.returncode == 0, asked.stderr
    result = _last_json(asked.stdout)
    assert result["answer"]["text"] and result["docs"][0]["doc_id"] == filled
    assert result["run_id"] == "" and "not saved" in asked.stderr and "Traceback" not in asked.stderr
    human = _cli(library_dir, "ask", "--all", QUESTION)
    assert human.returncode == 0 and "run:" not in human.stdout and human.stdout.strip(), human.stderr


@read_only
@pytest.mark.timeout(300)
def test_a_follow_up_in_a_read_only_library_shows_no_unsaved_run_id(filled: str, library_dir: Path) -> None:
    import os
    import subprocess

    env = {**os.environ, "LOUPE_LIBRARY": str(library_dir)}
    first = subprocess.run([sys.executable, "-m", "engine", "ask", "--doc", filled, QUESTION, "--json"], env=env,
                           capture_output=True, text=True, timeout=180)  # fmt: skip
    run_id = _last_json(first.stdout)["run_id"]
    assert run_id
    follow = _cli(library_dir, "ask", "--follow-up", run_id, "And how many stations were there?", "--json")
    assert follow.returncode == 0, follow.stderr
    result = _last_json(follow.stdout)
    assert result["answer"]["text"] and result["run_id"] == "" and "not saved" in follow.stderr


def test_a_full_disk_while_saving_keeps_the_answer(
    filled: str, config: EngineConfig, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    store = SqliteRunStore(config.library.resolved_path() / FILE_NAME)

    def full(self: SqliteRunStore, result: object) -> None:
        raise HistoryError(_trouble(sqlite3.OperationalError("database or disk is full")))

    monkeypatch.setattr(SqliteRunStore, "save", full)
    with caplog.at_level(logging.WARNING):
        result = answer(QUESTION, [filled], config=config, store=store)
    assert result.answer.text
    assert any("not saved" in r.getMessage() and "disk is full" in r.getMessage() for r in caplog.records)


def test_cli_prints_the_answer_when_the_history_cannot_take_it(
    filled: str, library_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from engine.cli.main import main

    def full(self: SqliteRunStore, result: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(SqliteRunStore, "save", full)
    assert main(["ask", "--doc", filled, QUESTION]) == 0
    out, err = capsys.readouterr()
    assert "No space left on device" in err and "without a run id" in err
    assert out.strip() and "run:" not in out


# ------------------------------------------------------------------------------------------------
# PostgreSQL down: the save waits what the budget has left, not 30 s
# ------------------------------------------------------------------------------------------------


@pytest.mark.timeout(120)
def test_a_database_without_a_free_connection_bounds_the_save_by_the_budget(pg_url: str) -> None:
    """No connection to be had (the server down, or every connection taken: the pool waits alike): the save waits
    what the run's seconds budget has left, not the pool's 30 s, and the answer is kept with a warning."""
    from engine.history.pg_runs import PgRunStore
    from engine.library.postgres import PgDatabase

    db = PgDatabase(pg_url, pool_size=1)
    try:
        store = PgRunStore(db)
        late = run_result().model_copy(update={"run_id": "20260101-000001-bbbbbb"})
        late = late.model_copy(update={"budget": late.budget.model_copy(update={"max_seconds": 3.0}),
                                       "usage": late.usage.model_copy(update={"latency_ms": 0.0})})  # fmt: skip
        with db.connection():  # the only connection is taken
            with pytest.raises(DatabaseError, match="within 3 s"):
                store.save(late)
            warning = save_run(store, late)
        assert warning is not None and "not saved" in warning
        assert store.list() == [], "the run was saved after all"
    finally:
        db.close()


# ------------------------------------------------------------------------------------------------
# Damaged rows and lines are skipped; messages name no server path
# ------------------------------------------------------------------------------------------------


def test_a_damaged_history_row_is_skipped_and_named(
    config: EngineConfig, library_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = SqliteRunStore(library_dir / FILE_NAME)
    good, bad = (
        run_result().model_copy(update={"run_id": rid}) for rid in ("20260101-000000-aaaaaa", "20260101-000000-bbbbbb")
    )
    store.save(good)
    store.save(bad)
    with sqlite3.connect(store.path) as db:
        db.execute("UPDATE runs SET documents = '[\"half' WHERE run_id = ?", (bad.run_id,))
    with caplog.at_level(logging.WARNING):
        rows = store.list()
    assert [r.run_id for r in rows] == [good.run_id] and store.skipped == (bad.run_id,)
    assert any(bad.run_id in r.getMessage() and "skipped" in r.getMessage() for r in caplog.records)
    from streamlit.testing.v1 import AppTest

    from tests.app.conftest import APP

    at = AppTest.from_file(APP, default_timeout=60).run()
    at.switch_page("pages/6_History.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert any(bad.run_id in w.value for w in at.warning), [w.value for w in at.warning]
    from tests.reliability.conftest import run_cli

    listed = run_cli(["runs", "list", "--json"], library_dir)
    assert listed.returncode == 0 and [r["run_id"] for r in _last_json(listed.stdout)["runs"]] == [good.run_id]
    assert bad.run_id in listed.stderr


@pytest.mark.parametrize(
    ("error", "advice"),
    [
        ("database or disk is full", False),
        ("LIKE or GLOB pattern too complex", False),
        ("database is locked", False),
        ("file is not a database", True),
        ("database disk image is malformed", True),
    ],
)
def test_moving_the_history_aside_is_advised_only_for_a_damaged_file(error: str, advice: bool) -> None:
    message = _trouble(sqlite3.DatabaseError(error))
    assert ("move the file aside" in message) is advice
    assert "/" not in message, message


def test_a_damaged_history_file_is_reported_without_its_server_path(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "server" / FILE_NAME
    path.parent.mkdir(parents=True)
    path.write_bytes(b"not a history at all " * 200)
    with pytest.raises(LoupeError) as raised:
        SqliteRunStore(path)
    assert str(tmp_path) not in str(raised.value) and "move the file aside" in str(raised.value)


def test_a_malformed_line_of_the_personal_set_is_skipped(library_dir: Path) -> None:
    from engine.history.question_sets import FILE_NAME as SET_FILE
    from ui.evaluate import personal_set

    line = {"id": "mine-1", "doc": "heron.pdf", "question": "How many stations?", "answer": "12",
            "evidence_pages": [1]}  # fmt: skip
    other = {**line, "id": "mine-2", "question": "What fell?"}
    (library_dir / SET_FILE).write_text(
        json.dumps(line) + "\n{not json at all\n" + json.dumps(other) + "\n", encoding="utf-8"
    )
    found = personal_set(None)
    assert [q.id for q in found.questions] == ["mine-1", "mine-2"]
    assert str(library_dir) not in found.path
