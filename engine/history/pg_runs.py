"""The run history of a team library: table ``loupe_runs`` in PostgreSQL (same behaviour as the SQLite store).

Every replica sharing the database lists every run: a run saved on one is listed, shown and exported
on the others. Rows keep the whole ``RunResult`` as JSON beside the columns a list shows.

With access control on (``engine.library.pg_access``) the store acts as one user: a run is saved with
its owner and the collection of its documents (when they are all in one), and row-level security keeps
it private to its owner unless shared with that collection (``share``); another user's run is "not
found". Every save also writes the audit log: who asked what of which documents.
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
from engine.library.pg_access import AccessDeniedError, audit
from engine.library.postgres import PgDatabase, UserConnections

_COLUMNS = "run_id, created_at, question, asked, answer_excerpt, strategy, backend, documents, follow_up_of"
_SAVE = f"""
INSERT INTO loupe_runs ({_COLUMNS}, search_text, result_json, owner, collection_id)
VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, (
    SELECT CASE WHEN count(DISTINCT d.collection_id) = 1 AND count(*) = count(d.collection_id)
           THEN min(d.collection_id) END
    FROM loupe_documents AS d WHERE d.doc_id IN (SELECT jsonb_array_elements_text(%s::jsonb))))
ON CONFLICT (run_id) DO UPDATE SET
    created_at = EXCLUDED.created_at, question = EXCLUDED.question, asked = EXCLUDED.asked,
    answer_excerpt = EXCLUDED.answer_excerpt, strategy = EXCLUDED.strategy, backend = EXCLUDED.backend,
    documents = EXCLUDED.documents, follow_up_of = EXCLUDED.follow_up_of, search_text = EXCLUDED.search_text,
    result_json = EXCLUDED.result_json, seq = nextval(pg_get_serial_sequence('loupe_runs', 'seq'))
RETURNING collection_id
"""


class PgRunStore:
    """Saved runs in the team database (implements ``RunStore``)."""

    read_only = False
    """The team database takes writes from every replica (a refused write is a ``DatabaseError``)."""

    def __init__(self, db: PgDatabase | UserConnections) -> None:
        self.db = db if isinstance(db, UserConnections) else db.as_user(None)

    def save(self, result: RunResult) -> None:
        if not RUN_ID.match(result.run_id):
            raise HistoryError(f"cannot save a run without a valid run_id ({result.run_id!r})")
        s = summary_of(result)
        doc_ids = [d.doc_id for d in result.docs]
        row = (s.run_id, s.created_at, s.question, s.asked, s.answer_excerpt, s.strategy, s.backend,
               Jsonb(list(s.documents)), s.follow_up_of, search_text(result), result.model_dump_json(),
               self.db.user if self.db.access_on else None, Jsonb(doc_ids))  # fmt: skip
        with self.db.connection() as conn:
            saved = conn.execute(_SAVE, row).fetchone()
            if self.db.access_on:
                audit(conn, self.db.user, "ask", saved[0] if saved else None,
                      {"run_id": s.run_id, "question": s.question, "documents": doc_ids,
                       "file_names": list(s.documents)})  # fmt: skip

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
            gone = conn.execute("DELETE FROM loupe_runs WHERE run_id = %s RETURNING collection_id", (key,)).fetchone()
            if gone is not None and self.db.access_on:
                audit(conn, self.db.user, "delete run", gone[0], {"run_id": key})
        if gone is None and self.db.access_on:  # visible (shared with the user) but not theirs
            raise AccessDeniedError(f"run {key} is shared with you, not yours: only its owner may delete it")

    def share(self, run_id: str, shared: bool = True) -> None:
        """Share a run with the collection of its documents (or make it private again); owners only."""
        key = self._resolve(run_id)
        with self.db.connection() as conn:
            row = conn.execute(
                "UPDATE loupe_runs SET shared = %s WHERE run_id = %s RETURNING collection_id", (shared, key)
            ).fetchone()
            if row is None:
                raise AccessDeniedError(f"run {key} is not yours: only its owner may share it")
            if row[0] is None and shared:
                raise AccessDeniedError(f"run {key} reads documents of several collections; it stays private")
            if self.db.access_on:
                audit(conn, self.db.user, "share" if shared else "unshare", row[0], {"run_id": key})
