"""The run history behind the RunStore protocol: SQLite in the library folder (WAL, versioned schema) and,
for a team library, PostgreSQL (the same behaviour, every generic test runs against both)."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from engine.config import EngineConfig, LibraryConfig
from engine.errors import HistoryError, LoupeError, RunNotFoundError
from engine.history import RUN_STORES, RunStore, SqliteRunStore, new_run_id, open_run_store
from engine.history.run_store import RUN_ID
from engine.history.sqlite import FILE_NAME, SCHEMA_VERSION
from tests.app.factories import run_result


def _run(run_id: str, question: str = "What does Table 3 report?", created: str = "2025-01-01T10:00:00+00:00",
         **update):  # fmt: skip
    base = run_result()
    return base.model_copy(update={"run_id": run_id, "created_at": created, "question": question, **update})


@pytest.fixture
def sqlite_store(tmp_path: Path) -> SqliteRunStore:
    return SqliteRunStore(tmp_path / FILE_NAME)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> RunStore:
    """Each store kind in turn (PostgreSQL in a fresh database)."""
    if request.param == "postgresql":
        request.getfixturevalue("pg_url")
    return open_run_store(EngineConfig(library=LibraryConfig(path=str(tmp_path))), kind=request.param)


def test_save_and_get_round_trip_the_whole_result(store: RunStore) -> None:
    result = _run("20250101-100000-aaaaaa")
    store.save(result)
    assert store.get("20250101-100000-aaaaaa") == result


def test_list_is_newest_first_and_searches_question_answer_and_documents(store: RunStore) -> None:
    store.save(_run("r1", "How tall is the mast?", "2025-01-01T10:00:00+00:00"))
    store.save(_run("r2", "What is 50% of the budget_total?", "2025-01-02T10:00:00+00:00"))
    store.save(_run("r3", "Who signed it?", "2025-01-03T10:00:00+00:00", follow_up_of="r2", asked="Who?"))
    assert [r.run_id for r in store.list()] == ["r3", "r2", "r1"]
    assert [r.run_id for r in store.list("MAST")] == ["r1"]
    assert [r.run_id for r in store.list("4.6 ntu")] == ["r3", "r2", "r1"]  # the answer text
    assert [r.run_id for r in store.list("report.pdf", limit=1)] == ["r3"]  # a document name
    assert [r.run_id for r in store.list("50%")] == ["r2"]  # LIKE wildcards are taken literally
    assert [r.run_id for r in store.list("e_3")] == []  # "_" is not a wildcard ("Table 3" would match)
    row = store.list()[0]
    assert row.follow_up_of == "r2" and row.asked == "Who?" and row.documents == ("report.pdf",)


def test_get_accepts_a_unique_prefix_and_explains_misses(store: RunStore) -> None:
    store.save(_run("20250101-100000-aaaaaa"))
    store.save(_run("20250101-100000-bbbbbb"))
    assert store.get("20250101-100000-a").run_id == "20250101-100000-aaaaaa"
    with pytest.raises(RunNotFoundError, match="several runs"):
        store.get("20250101")
    with pytest.raises(RunNotFoundError, match="no saved run"):
        store.get("zzz")
    with pytest.raises(RunNotFoundError, match="not a run id"):
        store.get("'; DROP TABLE runs; --")


def test_save_replaces_and_delete_removes(store: RunStore) -> None:
    store.save(_run("r1", "first"))
    store.save(_run("r1", "second"))
    assert [r.question for r in store.list()] == ["second"]
    store.delete("r1")
    assert store.list() == []
    with pytest.raises(RunNotFoundError):
        store.delete("r1")


def test_a_run_without_id_is_refused(store: RunStore) -> None:
    with pytest.raises(HistoryError, match="run_id"):
        store.save(_run(""))


def test_file_uses_wal_and_records_its_schema_version(sqlite_store: SqliteRunStore) -> None:
    with sqlite3.connect(sqlite_store.path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_a_newer_schema_is_refused_not_damaged(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(HistoryError, match="newer Loupe"):
        SqliteRunStore(path)


def test_a_damaged_file_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(HistoryError, match="move the file aside"):
        SqliteRunStore(path)


def test_a_row_from_another_version_is_a_clear_error(sqlite_store: SqliteRunStore) -> None:
    store = sqlite_store
    store.save(_run("r1"))
    with sqlite3.connect(store.path) as db:
        db.execute("UPDATE runs SET result_json = '{\"question\": 1}'")
    with pytest.raises(HistoryError, match="cannot be read"):
        store.get("r1")
    assert [r.run_id for r in store.list()] == ["r1"]  # the list still works; the run can be deleted


def test_concurrent_writers_lose_nothing(store: RunStore, tmp_path: Path) -> None:
    kind = "sqlite" if isinstance(store, SqliteRunStore) else "postgresql"
    config = EngineConfig(library=LibraryConfig(path=str(tmp_path)))

    def write(n: int) -> None:
        for k in range(10):
            open_run_store(config, kind=kind).save(_run(f"w{n}-{k}"))

    threads = [threading.Thread(target=write, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(store.list(limit=100)) == 40


def test_open_run_store_lives_in_the_library_and_registry_picks_by_url(config: EngineConfig, monkeypatch) -> None:
    store = open_run_store(config)
    assert isinstance(store, SqliteRunStore) and store.path == config.library.resolved_path() / FILE_NAME
    assert set(RUN_STORES) == {"sqlite", "postgresql"}
    monkeypatch.setenv("LOUPE_DATABASE_URL", "mysql://db/loupe")
    with pytest.raises(LoupeError, match="no run store for 'mysql'"):
        open_run_store(config)


def test_run_ids_sort_by_time_and_differ() -> None:
    ids = {new_run_id() for _ in range(50)}
    assert len(ids) == 50 and all(len(i) == 26 and RUN_ID.fullmatch(i) for i in ids)


def test_every_store_registry_is_keyed_by_the_one_list_of_store_kinds():
    from engine.library.registry import LIBRARIES, STORE_KINDS

    assert tuple(RUN_STORES) == tuple(LIBRARIES) == STORE_KINDS
