"""PostgreSQL for a team library: one connection pool per database and process, versioned migrations.

Used only when ``LOUPE_DATABASE_URL`` (or ``LibraryConfig.database_url``) names a ``postgresql://``
database; the embedded default never imports psycopg. ``database(url)`` opens the pool once per
process, after one plain connection has checked the server and brought the schema up to date:
``MIGRATIONS`` are applied in order, in one transaction, under an advisory lock, so replicas starting
together migrate once. A database written by a newer Loupe is refused rather than changed.

Every table is prefixed ``loupe_`` so the database can be shared with other applications. The URL
may carry a password: only ``label`` (user@host:port/dbname) is ever shown or logged.
"""

from __future__ import annotations

import atexit
import logging
import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager

import psycopg
from psycopg import sql
from psycopg_pool import ConnectionPool, PoolTimeout

from engine.errors import DatabaseError
from engine.library import pg_access
from engine.retrieval.pg_keyword import TS_CONFIG

logger = logging.getLogger(__name__)

LOCK_NAMESPACE = 0x4C6F7570
"""First key of every advisory lock Loupe takes ("Loup"); the second is 0 for migrations or a doc_id's."""
CONNECT_TIMEOUT_SECONDS = 10
POOL_MAX_SIZE = 8
"""Connections one process keeps at most (Streamlit's threads, an ingest holding one for its transaction)."""
POOL_WAIT_SECONDS = 30.0
"""How long a caller waits for a free pooled connection before a clear error."""

SCHEMA_VERSION = 2
_CHUNK_VECTOR = (
    f"setweight(to_tsvector('{TS_CONFIG}', section), 'A') || setweight(to_tsvector('{TS_CONFIG}', body), 'D')"
)
MIGRATIONS: dict[int, tuple[str, ...]] = {
    1: (
        """CREATE TABLE loupe_documents (
            doc_id text PRIMARY KEY CHECK (doc_id ~ '^[0-9a-f]{64}$'),
            file_name text NOT NULL,
            size_bytes bigint NOT NULL CHECK (size_bytes >= 0),
            total_pages integer NOT NULL CHECK (total_pages >= 0),
            added_at text NOT NULL,
            entry jsonb NOT NULL,
            format_version integer NOT NULL,
            parser_version integer NOT NULL,
            parsed bytea NOT NULL,
            parsed_digest text NOT NULL,
            pdf bytea NOT NULL
        )""",
        "CREATE INDEX loupe_documents_by_time ON loupe_documents (added_at DESC)",
        f"""CREATE TABLE loupe_chunks (
            doc_id text NOT NULL REFERENCES loupe_documents (doc_id) ON DELETE CASCADE,
            position integer NOT NULL CHECK (position >= 0),
            chunk_id text NOT NULL,
            page integer NOT NULL CHECK (page >= 1),
            body text NOT NULL,
            section text NOT NULL,
            tsv tsvector GENERATED ALWAYS AS ({_CHUNK_VECTOR}) STORED,
            PRIMARY KEY (doc_id, position),
            UNIQUE (doc_id, chunk_id)
        )""",
        "CREATE INDEX loupe_chunks_tsv ON loupe_chunks USING gin (tsv)",
        """CREATE TABLE loupe_runs (
            run_id text PRIMARY KEY,
            seq bigserial NOT NULL,
            created_at text NOT NULL,
            question text NOT NULL,
            asked text,
            answer_excerpt text NOT NULL,
            strategy text NOT NULL,
            backend text NOT NULL,
            documents jsonb NOT NULL,
            follow_up_of text,
            search_text text NOT NULL,
            result_json text NOT NULL
        )""",
        "CREATE INDEX loupe_runs_by_time ON loupe_runs (created_at DESC, seq DESC)",
    ),
    2: pg_access.MIGRATION,
}
"""Schema version -> the statements that bring the previous version to it (never edit a released one)."""


def redact(url: str) -> str:
    """``user@host:port/dbname`` of a database URL: what may be shown or logged (never the password)."""
    try:
        parts = psycopg.conninfo.conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return "the database in LOUPE_DATABASE_URL"
    user = f"{parts['user']}@" if parts.get("user") else ""
    host = str(parts.get("host") or "localhost")
    port = f":{parts['port']}" if parts.get("port") else ""
    return f"{user}{host}{port}/{parts.get('dbname') or ''}"


def _first_line(error: BaseException) -> str:
    return (str(error).strip().splitlines() or [type(error).__name__])[0]


def doc_lock_key(doc_id: str) -> int:
    """The second key of a document's advisory lock: its first 32 bits as a signed int4."""
    return int(doc_id[:8], 16) - 2**31


def lock_document(conn: psycopg.Connection, doc_id: str, wait_seconds: float) -> None:
    """Take the document's advisory lock for the current transaction (released at commit or rollback).

    Raises:
        DatabaseError: another process held it for longer than ``wait_seconds``.
    """
    conn.execute(sql.SQL("SET LOCAL lock_timeout = {}").format(sql.Literal(f"{int(wait_seconds * 1000)}ms")))
    try:
        conn.execute("SELECT pg_advisory_xact_lock(%s, %s)", (LOCK_NAMESPACE, doc_lock_key(doc_id)))
    except psycopg.errors.LockNotAvailable:
        raise DatabaseError(
            f"another process has been writing document {doc_id[:12]} for over {wait_seconds:.0f} s; try again later"
        ) from None


class PgDatabase:
    """A checked, migrated database and its connection pool (one per URL and process: use ``database()``)."""

    def __init__(self, url: str, pool_size: int = POOL_MAX_SIZE, admins: tuple[str, ...] = ()) -> None:
        self.label = redact(url)
        self.admins = admins
        """The operator's admins; access control is on exactly when there are some (``LOUPE_ADMINS``)."""
        with self._direct(url) as conn:
            migrate(conn, self.label)
            if self.access_on:
                self._prepare_access(conn)
        self.pool = ConnectionPool(
            url, min_size=1, max_size=pool_size, open=False, name="loupe", timeout=POOL_WAIT_SECONDS,
            kwargs={"connect_timeout": CONNECT_TIMEOUT_SECONDS}, check=ConnectionPool.check_connection,
            configure=pg_access.use_app_role if self.access_on else None,
        )  # fmt: skip
        try:
            self.pool.open(wait=True, timeout=CONNECT_TIMEOUT_SECONDS + 5)
        except PoolTimeout:
            raise DatabaseError(f"cannot open connections to PostgreSQL at {self.label}; check the server") from None

    @property
    def access_on(self) -> bool:
        return bool(self.admins)

    def _prepare_access(self, conn: psycopg.Connection) -> None:
        """Write the operator's admins and check that this login may take the application role."""
        try:
            pg_access.sync_admins(conn, self.admins)
            row = conn.execute(
                "SELECT pg_has_role(current_user, %s, 'MEMBER') FROM pg_roles WHERE rolname = %s",
                (pg_access.APP_ROLE, pg_access.APP_ROLE),
            ).fetchone()
        except psycopg.Error as error:
            raise DatabaseError(f"cannot set up access control in {self.label} ({_first_line(error)})") from None
        if not row or not row[0]:
            raise DatabaseError(
                f"access control (LOUPE_ADMINS) needs the role {pg_access.APP_ROLE} in {self.label}, granted to the "
                f"login of LOUPE_DATABASE_URL: CREATE ROLE {pg_access.APP_ROLE} NOLOGIN; GRANT {pg_access.APP_ROLE} "
                "TO <login>; then restart"
            )

    def as_user(self, user: str | None) -> UserConnections:
        """Connections whose transactions act as ``user`` (ignored while access control is off)."""
        return UserConnections(self, user)

    def _direct(self, url: str) -> psycopg.Connection:
        try:
            return psycopg.connect(url, connect_timeout=CONNECT_TIMEOUT_SECONDS)
        except psycopg.Error as error:
            raise DatabaseError(
                f"cannot connect to PostgreSQL at {self.label} ({_first_line(error)}); check LOUPE_DATABASE_URL "
                "and that the server is running"
            ) from None
        except Exception as error:  # an unparsable URL (bad port, unknown option) raises before connecting
            raise DatabaseError(
                f"LOUPE_DATABASE_URL is not a usable PostgreSQL URL ({type(error).__name__}); "
                "expected postgresql://USER:PASSWORD@HOST:PORT/DBNAME"
            ) from None

    @contextmanager
    def connection(self, user: str | None = None) -> Iterator[psycopg.Connection]:
        """A pooled connection in a transaction: committed when the block ends, rolled back on an error.

        The transaction first sets who acts (``pg_access.begin``): ``user`` with access control on (no
        user sees no rows), open access with it off.
        """
        try:
            with self.pool.connection() as conn:
                pg_access.begin(conn, user, self.access_on)
                yield conn
        except PoolTimeout:
            raise DatabaseError(
                f"no free connection to PostgreSQL at {self.label} within {POOL_WAIT_SECONDS:.0f} s; "
                "the server may be down or overloaded"
            ) from None
        except psycopg.OperationalError as error:
            raise DatabaseError(f"PostgreSQL at {self.label} failed: {_first_line(error)}") from None
        except psycopg.Error as error:  # the transaction was rolled back: nothing was changed
            logger.debug("statement failed on %s", self.label, exc_info=True)
            raise DatabaseError(
                f"PostgreSQL at {self.label} refused a statement ({type(error).__name__}: {_first_line(error)}); "
                "nothing was changed"
            ) from None

    def close(self) -> None:
        self.pool.close()


def migrate(conn: psycopg.Connection, label: str) -> int:
    """Bring the schema up to ``SCHEMA_VERSION`` in one transaction; returns the version found before.

    Raises:
        DatabaseError: the database was written by a newer Loupe, or a migration failed (nothing changed).
    """
    try:
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s, 0)", (LOCK_NAMESPACE,))
            conn.execute(
                "CREATE TABLE IF NOT EXISTS loupe_schema (version integer PRIMARY KEY, "
                "applied_at timestamptz NOT NULL DEFAULT now())"
            )
            row = conn.execute("SELECT coalesce(max(version), 0) FROM loupe_schema").fetchone()
            found = int(row[0]) if row else 0
            if found > SCHEMA_VERSION:
                raise DatabaseError(
                    f"the database at {label} was written by a newer Loupe (schema {found}, this one reads up to "
                    f"{SCHEMA_VERSION}); upgrade Loupe or point LOUPE_DATABASE_URL elsewhere"
                )
            for target in range(found + 1, SCHEMA_VERSION + 1):
                for statement in MIGRATIONS[target]:
                    conn.execute(statement)
                conn.execute("INSERT INTO loupe_schema (version) VALUES (%s)", (target,))
                logger.info("database %s migrated to schema %d", label, target)
            return found
    except psycopg.Error as error:
        raise DatabaseError(f"cannot prepare the tables in {label} ({_first_line(error)})") from None


class UserConnections:
    """A database's connections on behalf of one user (what a library or run store of that user holds)."""

    def __init__(self, db: PgDatabase, user: str | None) -> None:
        self.db = db
        self.user = user
        self.label = db.label

    @property
    def access_on(self) -> bool:
        return self.db.access_on

    def connection(self) -> AbstractContextManager[psycopg.Connection]:
        return self.db.connection(self.user)


_DATABASES: dict[tuple[str, tuple[str, ...]], PgDatabase] = {}
_DATABASES_LOCK = threading.Lock()


def database(url: str) -> PgDatabase:
    """The process's database for ``url`` and ``$LOUPE_ADMINS`` (checked and migrated on first use, then shared)."""
    admins = pg_access.configured_admins()
    with _DATABASES_LOCK:
        found = _DATABASES.get((url, admins))
        if found is None:
            found = _DATABASES[(url, admins)] = PgDatabase(url, admins=admins)
        return found


def close_all() -> None:
    """Close every pool of this process (at exit, and between tests)."""
    with _DATABASES_LOCK:
        databases = list(_DATABASES.values())
        _DATABASES.clear()
    for db in databases:
        try:
            db.close()
        except Exception:
            logger.debug("closing the pool of %s failed", db.label, exc_info=True)


atexit.register(close_all)
