"""A throwaway PostgreSQL database per test: the server comes from ``LOUPE_TEST_DATABASE_URL``.

``.ci/run`` starts a throwaway cluster and exports that URL (``source .ci/postgres.sh &&
pg_throwaway_start`` does the same on a developer's machine). Without it the PostgreSQL tests skip,
except in CI (``$CI`` set), where a missing or unreachable server fails them.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from urllib.parse import urlparse

import pytest

SERVER_ENV = "LOUPE_TEST_DATABASE_URL"


def _unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{reason}, but CI must run the PostgreSQL tests (.ci/run starts a throwaway server)")
    pytest.skip(f"{reason} (set {SERVER_ENV}; see .ci/postgres.sh)")


def server_url() -> str:
    """The test server's URL, checked once (skips or fails the test when there is none)."""
    url = os.environ.get(SERVER_ENV, "").strip()
    if not url:
        _unavailable(f"no PostgreSQL server: {SERVER_ENV} is not set")
    import psycopg

    try:
        psycopg.connect(url, connect_timeout=5).close()
    except psycopg.Error as error:
        _unavailable(f"the PostgreSQL server at {SERVER_ENV} does not answer ({type(error).__name__})")
    return url


def with_database(url: str, name: str) -> str:
    """``url`` pointing at database ``name``."""
    return urlparse(url)._replace(path=f"/{name}").geturl()


def create_database(server: str) -> tuple[str, str]:
    """A new empty database on ``server``: (its name, its URL)."""
    import psycopg

    name = f"loupe_test_{secrets.token_hex(6)}"
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")  # type: ignore[arg-type]
    return name, with_database(server, name)


def drop_database(server: str, name: str) -> None:
    import psycopg

    from engine.library.postgres import close_all

    close_all()
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")  # type: ignore[arg-type]


def fresh_database(server: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A fresh database for one test; ``LOUPE_DATABASE_URL`` points at it until the test ends."""
    name, url = create_database(server)
    monkeypatch.setenv("LOUPE_DATABASE_URL", url)
    try:
        yield url
    finally:
        monkeypatch.delenv("LOUPE_DATABASE_URL", raising=False)
        drop_database(server, name)
