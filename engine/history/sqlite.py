"""The embedded run history: one SQLite file in the library folder (stdlib ``sqlite3``, WAL journal).

The schema is versioned with ``PRAGMA user_version``; ``MIGRATIONS`` brings an older file up to date
on open, and a file written by a newer Loupe is refused rather than damaged. Every operation opens
its own short connection, so one store may be shared by Streamlit's threads and by several processes.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from engine.contracts import RunResult
from engine.errors import HistoryError, RunNotFoundError
from engine.history.run_store import (
    RUN_ID,
    RunSummary,
    like_pattern,
    normalized_search,
    pick_run,
    result_from_json,
    run_key,
    search_text,
    summary_of,
    summary_row,
)

logger = logging.getLogger(__name__)

FILE_NAME = "history.sqlite3"
SCHEMA_VERSION = 1
MIGRATIONS: dict[int, tuple[str, ...]] = {
    1: (
        """CREATE TABLE runs (
            run_id TEXT PRIMARY KEY,
            created_at TEXT NOT NULL,
            question TEXT NOT NULL,
            asked TEXT,
            answer_excerpt TEXT NOT NULL,
            strategy TEXT NOT NULL,
            backend TEXT NOT NULL,
            documents TEXT NOT NULL,
            follow_up_of TEXT,
            search_text TEXT NOT NULL,
            result_json TEXT NOT NULL
        )""",
        "CREATE INDEX runs_by_time ON runs (created_at DESC)",
    ),
}
"""Schema version -> statements that bring the previous version to it."""

_COLUMNS = "run_id, created_at, question, asked, answer_excerpt, strategy, backend, documents, follow_up_of"


def _cannot_write(path: Path) -> bool:
    """The history file (or, before it exists, its folder) cannot be written: a read-only library."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError:
        return True
    target = path if path.exists() else path.parent
    return not os.access(target, os.W_OK)


class SqliteRunStore:
    """Saved runs in ``<library>/history.sqlite3``; in a read-only library, readable but not saved to."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.read_only = _cannot_write(self.path)
        if self.read_only:
            logger.info("the run history at %s is read-only: runs are read, not saved", self.path)
            return
        with self._connect() as db:
            self._migrate(db)

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        try:
            if self.read_only:  # immutable: nobody writes a read-only folder, so no lock or WAL file is needed
                db = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro&immutable=1", uri=True, timeout=15.0)
            else:
                db = sqlite3.connect(self.path, timeout=15.0)
        except sqlite3.Error as error:
            raise HistoryError(f"cannot open the run history at {self.path} ({error})") from None
        try:
            with db:  # one transaction, committed on success
                yield db
        except sqlite3.DatabaseError as error:
            raise HistoryError(
                f"the run history at {self.path} cannot be used ({error}); move the file aside to start a new one"
            ) from None
        finally:
            db.close()

    def _migrate(self, db: sqlite3.Connection) -> None:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise HistoryError(
                f"the run history at {self.path} was written by a newer Loupe (schema {version}, this one "
                f"reads up to {SCHEMA_VERSION}); upgrade Loupe or point LOUPE_LIBRARY elsewhere"
            )
        if version == SCHEMA_VERSION:
            return
        db.execute("PRAGMA journal_mode=WAL")
        for target in range(version + 1, SCHEMA_VERSION + 1):
            for statement in MIGRATIONS[target]:
                db.execute(statement)
            db.execute(f"PRAGMA user_version = {target}")
            logger.info("run history %s migrated to schema %d", self.path, target)

    def save(self, result: RunResult) -> None:
        if self.read_only:
            raise HistoryError(f"the library folder {self.path.parent} is read-only, so runs cannot be saved")
        if not RUN_ID.match(result.run_id):
            raise HistoryError(f"cannot save a run without a valid run_id ({result.run_id!r})")
        s = summary_of(result)
        row = (s.run_id, s.created_at, s.question, s.asked, s.answer_excerpt, s.strategy, s.backend,
               json.dumps(s.documents), s.follow_up_of, search_text(result), result.model_dump_json())  # fmt: skip
        with self._connect() as db:
            db.execute(f"INSERT OR REPLACE INTO runs ({_COLUMNS}, search_text, result_json) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", row)  # fmt: skip

    def _resolve(self, db: sqlite3.Connection, run_id: str) -> str:
        key = run_key(run_id)
        rows = db.execute(
            "SELECT run_id FROM runs WHERE run_id = ? OR run_id LIKE ? ESCAPE '\\' LIMIT 3",
            (key, like_pattern(key)[1:]),
        ).fetchall()
        return pick_run(key, [str(r[0]) for r in rows])

    def get(self, run_id: str) -> RunResult:
        if self.read_only and not self.path.exists():
            raise RunNotFoundError(f"no saved run {run_id!r}: the read-only library has no run history")
        with self._connect() as db:
            key = self._resolve(db, run_id)
            text = db.execute("SELECT result_json FROM runs WHERE run_id = ?", (key,)).fetchone()[0]
        return result_from_json(key, text)

    def list(self, search: str = "", limit: int = 200) -> list[RunSummary]:
        if self.read_only and not self.path.exists():
            return []
        query = f"SELECT {_COLUMNS} FROM runs"
        params: tuple = ()
        if search.strip():
            query += " WHERE search_text LIKE ? ESCAPE '\\'"
            params = (like_pattern(normalized_search(search)),)
        query += " ORDER BY created_at DESC, rowid DESC LIMIT ?"
        with self._connect() as db:
            rows = db.execute(query, (*params, max(1, int(limit)))).fetchall()
        return [summary_row(row) for row in rows]

    def delete(self, run_id: str) -> None:
        if self.read_only:
            raise HistoryError(f"the library folder {self.path.parent} is read-only, so runs cannot be deleted")
        with self._connect() as db:
            key = self._resolve(db, run_id)
            db.execute("DELETE FROM runs WHERE run_id = ?", (key,))
