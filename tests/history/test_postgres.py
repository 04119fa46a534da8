"""The PostgreSQL connection layer: versioned migrations, clear errors, no password in any message."""

from __future__ import annotations

import socket
import threading

import psycopg
import pytest

import engine.library.postgres as pg
from engine.cli.main import main
from engine.config import EngineConfig, LibraryConfig
from engine.errors import DatabaseError
from engine.history import open_run_store
from engine.library import open_library, store_kind


def test_only_user_host_port_and_database_are_ever_shown() -> None:
    assert pg.redact("postgresql://alice:s3cret@db.example:5433/loupe") == "alice@db.example:5433/loupe"
    assert pg.redact("postgresql:///loupe") == "localhost/loupe"
    assert "s3cret" not in pg.redact("postgresql://alice:s3cret@[::1/loupe")


def test_the_url_is_a_secret_config_field_or_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LOUPE_DATABASE_URL", raising=False)
    config = EngineConfig(library=LibraryConfig(database_url="postgresql://alice:s3cret@db/loupe"))
    assert store_kind(config) == "postgresql" and store_kind(EngineConfig()) == "sqlite"
    assert "s3cret" not in config.model_dump_json() and "s3cret" not in repr(config)
    assert config.fingerprint() == EngineConfig().fingerprint()
    monkeypatch.setenv("LOUPE_DATABASE_URL", "postgres://db/loupe")
    assert store_kind() == "postgresql"


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_an_unreachable_server_is_a_clear_error_without_the_password(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path
) -> None:
    url = f"postgresql://loupe:s3cret-pw@127.0.0.1:{_closed_port()}/loupe"
    with pytest.raises(DatabaseError, match=r"cannot connect to PostgreSQL at loupe@127\.0\.0\.1:\d+/loupe") as caught:
        pg.PgDatabase(url)
    assert "s3cret-pw" not in str(caught.value)
    monkeypatch.setenv("LOUPE_DATABASE_URL", url)
    monkeypatch.setenv("LOUPE_LIBRARY", str(tmp_path))
    for argv in (["library", "list"], ["runs", "list"]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.startswith("error: cannot connect to PostgreSQL") and err.count("\n") == 1 and "s3cret" not in err


def test_a_url_that_is_not_postgresql_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(DatabaseError, match='invalid integer value "notaport"'):
        pg.PgDatabase("postgresql://u:s3cret@127.0.0.1:notaport/db")
    with pytest.raises(DatabaseError) as caught:
        pg.PgDatabase("postgresql://u:s3cret@127.0.0.1:5432/db?sslmode=bogus")
    assert "s3cret" not in str(caught.value)
    monkeypatch.setenv("LOUPE_DATABASE_URL", "mysql://u:p@db/loupe")
    with pytest.raises(Exception, match="no document library for 'mysql'"):
        open_library()


def _versions(url: str) -> list[int]:
    with psycopg.connect(url) as conn:
        return [int(r[0]) for r in conn.execute("SELECT version FROM loupe_schema ORDER BY version")]


@pytest.mark.postgres
def test_replicas_starting_together_migrate_once(pg_url: str) -> None:
    errors: list[BaseException] = []

    def start() -> None:
        try:
            pg.PgDatabase(pg_url, pool_size=1).close()
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=start) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and _versions(pg_url) == list(range(1, pg.SCHEMA_VERSION + 1))
    with psycopg.connect(pg_url) as conn:
        assert pg.migrate(conn, "test") == pg.SCHEMA_VERSION  # nothing left to apply


@pytest.mark.postgres
def test_a_database_from_a_newer_loupe_is_refused_unchanged(pg_url: str) -> None:
    pg.PgDatabase(pg_url).close()
    with psycopg.connect(pg_url) as conn:
        conn.execute("INSERT INTO loupe_schema (version) VALUES (%s)", (pg.SCHEMA_VERSION + 1,))
    with pytest.raises(DatabaseError, match="newer Loupe"):
        pg.PgDatabase(pg_url)
    assert _versions(pg_url)[-1] == pg.SCHEMA_VERSION + 1


@pytest.mark.postgres
def test_a_failing_migration_changes_nothing(pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    pg.PgDatabase(pg_url).close()
    broken = {**pg.MIGRATIONS, pg.SCHEMA_VERSION + 1: ("CREATE TABLE loupe_next (x int)", "SELECT no_such_function()")}
    monkeypatch.setattr(pg, "MIGRATIONS", broken)
    monkeypatch.setattr(pg, "SCHEMA_VERSION", pg.SCHEMA_VERSION + 1)
    with pytest.raises(DatabaseError, match="cannot prepare the tables"):
        pg.PgDatabase(pg_url)
    monkeypatch.undo()
    assert _versions(pg_url) == list(range(1, pg.SCHEMA_VERSION + 1))
    with psycopg.connect(pg_url) as conn:
        assert conn.execute("SELECT to_regclass('loupe_next')").fetchone() == (None,)


@pytest.mark.postgres
def test_one_pool_per_url_is_shared_by_the_library_and_the_run_store(pg_url: str, tmp_path) -> None:
    config = EngineConfig(library=LibraryConfig(path=str(tmp_path)))
    library = open_library(config)
    store = open_run_store(config)
    assert library.db.db is store.db.db is pg.database(pg_url)  # type: ignore[attr-defined]


def test_without_a_server_postgres_tests_skip_locally_and_fail_in_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.pg import SERVER_ENV, server_url

    monkeypatch.delenv(SERVER_ENV, raising=False)
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception):
        server_url()
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI must run the PostgreSQL tests"):
        server_url()
    monkeypatch.setenv(SERVER_ENV, f"postgresql://loupe:pw@127.0.0.1:{_closed_port()}/postgres")
    with pytest.raises(pytest.fail.Exception, match="does not answer"):
        server_url()


def test_the_embedded_default_never_imports_psycopg(tmp_path) -> None:
    import subprocess
    import sys

    from engine.config import REPO_ROOT

    code = (
        "import sys, engine, engine.api, engine.history, engine.library\n"
        "engine.library.open_library(); engine.history.open_run_store()\n"
        "print(sorted(m for m in sys.modules if m.startswith('psycopg')))"
    )
    env = {"PATH": "/usr/bin:/bin", "LOUPE_LIBRARY": str(tmp_path), "PYTHONPATH": str(REPO_ROOT)}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=REPO_ROOT)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


@pytest.mark.postgres
def test_a_statement_the_server_refuses_is_a_clear_error_and_rolls_back(pg_url: str) -> None:
    db = pg.database(pg_url)
    with pytest.raises(DatabaseError, match=r"refused a statement .*nothing was changed"), db.connection() as conn:
        conn.execute("INSERT INTO loupe_schema (version) VALUES (4242)")
        conn.execute("SELECT no_such_column FROM loupe_schema")
    assert 4242 not in _versions(pg_url)
    with db.connection() as conn:  # the pooled connection is usable again
        assert conn.execute("SELECT 1").fetchone() == (1,)
