"""The run history (one registry of store kinds) and the personal question sets.

The store kind comes from ``store_kind(config)`` (``engine.library``): ``sqlite`` (the embedded default: the library
folder, Whoosh, SQLite history) unless the database URL (``$LOUPE_DATABASE_URL`` or
``LibraryConfig.database_url``) names another kind by its scheme: ``postgresql://...`` puts
documents, chunks and runs in PostgreSQL (a team library several app replicas share).
"""

from __future__ import annotations

from collections.abc import Callable

from engine.config import EngineConfig
from engine.errors import HistoryError
from engine.history.run_store import RunStore, RunSummary, new_run_id, now_iso, summary_of
from engine.history.sqlite import FILE_NAME, SqliteRunStore
from engine.library.registry import StoreKind, factory_for, store_kind

StoreFactory = Callable[[EngineConfig], RunStore]


def _sqlite(config: EngineConfig) -> RunStore:
    return SqliteRunStore(config.library.resolved_path() / FILE_NAME)


def _postgresql(config: EngineConfig) -> RunStore:
    from engine.history.pg_runs import PgRunStore
    from engine.library.postgres import database

    return PgRunStore(database(config.library.resolved_database_url()).as_user(config.library.resolved_user()))


RUN_STORES: dict[StoreKind, StoreFactory] = {"sqlite": _sqlite, "postgresql": _postgresql}
"""Store kind -> run-history factory."""


def open_run_store(config: EngineConfig | None = None, kind: str | None = None) -> RunStore:
    """The run history for ``config``'s library (the kind from ``store_kind(config)`` unless given)."""
    config = config or EngineConfig()
    kind = kind or store_kind(config)
    return factory_for(RUN_STORES, kind, HistoryError, "run store")(config)


__all__ = [
    "RUN_STORES",
    "RunStore",
    "RunSummary",
    "SqliteRunStore",
    "new_run_id",
    "now_iso",
    "open_run_store",
    "summary_of",
]
