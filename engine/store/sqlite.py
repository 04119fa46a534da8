"""The embedded run history: one SQLite file in the library folder (stdlib ``sqlite3``, WAL journal).

The schema is versioned with ``PRAGMA user_version``; ``MIGRATIONS`` brings an older file up to date
on open, and a file written by a newer Loupe is refused rather than damaged. Every operation opens
its own short connection, so one store may be shared by Streamlit's threads and by several processes.
"""

from __future__ import annotations

import json
import logging
import re
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pydantic import ValidationError

from engine.contracts import RunResult
from engine.errors import HistoryError, RunNotFoundError
from engine.store.base import RunSummary, summary_of

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

_RUN_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")
_COLUMNS = "run_id, created_at, question, asked, answer_excerpt, strategy, backend, documents, follow_up_of"


def _like(text: str) -> str:
    """``text`` as a LIKE pattern matching itself anywhere (``%``, ``_`` and the escape taken literally)."""
    return "%" + re.sub(r"([\\%_])", r"\\\1", text) + "%"


class SqliteRunStore:
    """Saved runs in ``<library>/history.sqlite3``."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._connect() as db:
            self._migrate(db)

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        try:
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
        if not _RUN_ID.match(result.run_id):
            raise HistoryError(f"cannot save a run without a valid run_id ({result.run_id!r})")
        s = summary_of(result)
        search = " ".join([s.question, s.asked or "", result.answer.text, *s.documents, s.run_id]).lower()
        row = (s.run_id, s.created_at, s.question, s.asked, s.answer_excerpt, s.strategy, s.backend,
               json.dumps(s.documents), s.follow_up_of, search, result.model_dump_json())  # fmt: skip
        with self._connect() as db:
            db.execute(f"INSERT OR REPLACE INTO runs ({_COLUMNS}, search_text, result_json) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", row)  # fmt: skip

    def _resolve(self, db: sqlite3.Connection, run_id: str) -> str:
        key = str(run_id).strip()
        if not _RUN_ID.match(key):
            raise RunNotFoundError(f"{run_id!r} is not a run id; list the runs with: python -m engine runs list")
        rows = db.execute(
            "SELECT run_id FROM runs WHERE run_id = ? OR run_id LIKE ? ESCAPE '\\' LIMIT 3", (key, _like(key)[1:])
        ).fetchall()
        exact = [r[0] for r in rows if r[0] == key]
        if exact:
            return exact[0]
        if not rows:
            raise RunNotFoundError(f"no saved run {run_id!r}; list the runs with: python -m engine runs list")
        if len(rows) > 1:
            raise RunNotFoundError(f"{run_id!r} matches several runs; give more characters of the id")
        return rows[0][0]

    def get(self, run_id: str) -> RunResult:
        with self._connect() as db:
            key = self._resolve(db, run_id)
            text = db.execute("SELECT result_json FROM runs WHERE run_id = ?", (key,)).fetchone()[0]
        try:
            return RunResult.model_validate_json(text)
        except ValidationError as error:
            raise HistoryError(
                f"run {key} was saved by another version of Loupe and cannot be read ({error.error_count()} "
                "field error(s)); delete it from the history"
            ) from None

    def list(self, search: str = "", limit: int = 200) -> list[RunSummary]:
        query = f"SELECT {_COLUMNS} FROM runs"
        params: tuple = ()
        if search.strip():
            query += " WHERE search_text LIKE ? ESCAPE '\\'"
            params = (_like(" ".join(search.split()).lower()),)
        query += " ORDER BY created_at DESC, rowid DESC LIMIT ?"
        with self._connect() as db:
            rows = db.execute(query, (*params, max(1, int(limit)))).fetchall()
        return [_summary(row) for row in rows]

    def delete(self, run_id: str) -> None:
        with self._connect() as db:
            key = self._resolve(db, run_id)
            db.execute("DELETE FROM runs WHERE run_id = ?", (key,))


def _summary(row: tuple) -> RunSummary:
    run_id, created_at, question, asked, excerpt, strategy, backend, documents, follow_up_of = row
    return RunSummary(
        run_id=run_id, created_at=created_at, question=question, asked=asked, answer_excerpt=excerpt,
        strategy=strategy, backend=backend, documents=tuple(json.loads(documents)), follow_up_of=follow_up_of,
    )  # fmt: skip
