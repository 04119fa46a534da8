"""Stores beside the document library: the run history (one registry of store kinds) and the
personal question set.

``open_run_store(config)`` picks the store kind: ``sqlite`` (embedded, the default) unless
``$LOUPE_DATABASE_URL`` names another registered kind by its scheme (``postgresql://...``).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from urllib.parse import urlparse

from engine.config import EngineConfig
from engine.errors import HistoryError
from engine.store.base import RunStore, RunSummary, new_run_id, now_iso, summary_of
from engine.store.sqlite import FILE_NAME, SqliteRunStore

StoreFactory = Callable[[EngineConfig], RunStore]


def _sqlite(config: EngineConfig) -> RunStore:
    return SqliteRunStore(config.library.resolved_path() / FILE_NAME)


RUN_STORES: dict[str, StoreFactory] = {"sqlite": _sqlite}
"""Store kind -> factory. A PostgreSQL store registers here under ``postgresql``."""


def store_kind() -> str:
    """``sqlite`` unless ``$LOUPE_DATABASE_URL`` names another kind (its URL scheme)."""
    url = os.environ.get("LOUPE_DATABASE_URL", "").strip()
    if not url:
        return "sqlite"
    scheme = urlparse(url).scheme.split("+")[0].lower()
    return "postgresql" if scheme == "postgres" else scheme


def open_run_store(config: EngineConfig | None = None, kind: str | None = None) -> RunStore:
    """The run history for ``config``'s library (the kind from ``store_kind()`` unless given)."""
    kind = kind or store_kind()
    factory = RUN_STORES.get(kind)
    if factory is None:
        raise HistoryError(
            f"no run store for {kind!r} (known: {', '.join(RUN_STORES)}); unset LOUPE_DATABASE_URL to use SQLite"
        )
    return factory(config or EngineConfig())


__all__ = [
    "RUN_STORES",
    "RunStore",
    "RunSummary",
    "SqliteRunStore",
    "new_run_id",
    "now_iso",
    "open_run_store",
    "store_kind",
    "summary_of",
]
