"""The run history of a team library: table ``loupe_runs`` in PostgreSQL (same behaviour as the SQLite store).

Every replica sharing the database lists every run: a run saved on one is listed, shown and exported
on the others. Rows keep the whole ``RunResult`` as JSON beside the columns a list shows.
"""

from __future__ import annotations

from psycopg.types.json import Jsonb

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
from engine.library.postgres import PgDatabase

_COLUMNS = "run_id, created_at, question, asked, answer_excerpt, strategy, backend, documents, follow_up_of"
_SAVE = f"""
INSERT INTO loupe_runs ({_COLUMNS}, search_text, result_json) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)
ON CONFLICT (run_id) DO UPDATE SET
    created_at = EXCLUDED.created_at, question = EXCLUDED.question, asked = EXCLUDED.asked,
    answer_excerpt = EXCLUDED.answer_excerpt, strategy = EXCLUDED.strategy, backend = EXCLUDED.backend,
    documents = EXCLUDED.documents, follow_up_of = EXCLUDED.follow_up_of, search_text = EXCLUDED.search_text,
    result_json = EXCLUDED.result_json, seq = nextval(pg_get_serial_sequence('loupe_runs', 'seq'))
"""


class PgRunStore:
    """Saved runs in the team database (implements ``RunStore``)."""

    read_only = False
    """The team database takes writes from every replica (a refused write is a ``DatabaseError``)."""

    def __init__(self, db: PgDatabase) -> None:
        self.db = db

    def save(self, result: RunResult) -> None:
        if not RUN_ID.match(result.run_id):
            raise HistoryError(f"cannot save a run without a valid run_id ({result.run_id!r})")
        s = summary_of(result)
        row = (s.run_id, s.created_at, s.question, s.asked, s.answer_excerpt, s.strategy, s.backend,
               Jsonb(list(s.documents)), s.follow_up_of, search_text(result), result.model_dump_json())  # fmt: skip
        with self.db.connection() as conn:
            conn.execute(_SAVE, row)

    def _resolve(self, run_id: str) -> str:
        key = run_key(run_id)
        with self.db.connection() as conn:
            rows = conn.execute(
                "SELECT run_id FROM loupe_runs WHERE run_id = %s OR run_id LIKE %s ORDER BY run_id LIMIT 3",
                (key, like_pattern(key)[1:]),
            ).fetchall()
        return pick_run(key, [str(r[0]) for r in rows])

    def get(self, run_id: str) -> RunResult:
        key = self._resolve(run_id)
        with self.db.connection() as conn:
            row = conn.execute("SELECT result_json FROM loupe_runs WHERE run_id = %s", (key,)).fetchone()
        if row is None:
            raise RunNotFoundError(f"run {key} was deleted meanwhile; list the runs with: python -m engine runs list")
        return result_from_json(key, row[0])

    def list(self, search: str = "", limit: int = 200) -> list[RunSummary]:
        query = f"SELECT {_COLUMNS} FROM loupe_runs"
        params: tuple = ()
        if search.strip():
            query += " WHERE search_text LIKE %s"
            params = (like_pattern(normalized_search(search)),)
        query += " ORDER BY created_at DESC, seq DESC LIMIT %s"
        with self.db.connection() as conn:
            rows = conn.execute(query, (*params, max(1, int(limit)))).fetchall()
        return [summary_row(row) for row in rows]

    def delete(self, run_id: str) -> None:
        key = self._resolve(run_id)
        with self.db.connection() as conn:
            conn.execute("DELETE FROM loupe_runs WHERE run_id = %s", (key,))
