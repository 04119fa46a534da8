"""The document-library seam and its registry: the local folder (embedded default) or a team database.

``open_library(config)`` returns the library ``store_kind(config)`` names: ``sqlite`` (the embedded
default: ``Library``, one folder with Whoosh indexes, history in SQLite) or ``postgresql`` (a team
library: ``PgLibrary``, documents, chunks and runs shared in PostgreSQL). The API, the CLI and the app
only see ``DocumentLibrary``. Factories import their modules on first use, so the embedded default
never loads psycopg.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Literal, Protocol, TypeVar, get_args, runtime_checkable
from urllib.parse import urlparse

from engine.config import EngineConfig
from engine.contracts import CorpusHit, LibraryEntry, ParsedDocument
from engine.errors import LoupeError
from engine.library.isolation import Progress

if TYPE_CHECKING:
    from engine.retrieval.index import DocumentIndex


class DocumentLibrary(Protocol):
    """What the engine needs of a document library (``Library``, ``PgLibrary``)."""

    config: EngineConfig
    root: Path

    def ingest(self, data: bytes, file_name: str, progress: Progress | None = None) -> LibraryEntry:
        """Add a PDF (idempotent by content) and return its entry; the library is unchanged when it fails."""
        ...

    def ingest_path(self, path: str | Path) -> LibraryEntry: ...

    def entries(self) -> list[LibraryEntry]:
        """Every complete entry, newest first."""
        ...

    def get(self, doc_id: str) -> LibraryEntry:
        """The entry of ``doc_id`` or of a unique prefix of it (``DocumentNotFoundError`` otherwise)."""
        ...

    def pdf_bytes(self, doc_id: str) -> bytes: ...

    def parsed(self, doc_id: str) -> ParsedDocument: ...

    def load(self, doc_id: str) -> DocumentIndex:
        """The parsed document with its retrievers, cached in-process."""
        ...

    def delete(self, doc_id: str) -> None: ...


@runtime_checkable
class CorpusSearch(Protocol):
    """A library that searches all its documents in one query (the team database does)."""

    def search_all(self, query: str, k: int) -> list[CorpusHit]: ...


LibraryFactory = Callable[[EngineConfig], DocumentLibrary]


def _local(config: EngineConfig) -> DocumentLibrary:
    from engine.library.local import Library

    return Library(config)


def _postgresql(config: EngineConfig) -> DocumentLibrary:
    from engine.library.pg_library import PgLibrary
    from engine.library.postgres import database

    return PgLibrary(config, database(config.library.resolved_database_url()).as_user(config.library.resolved_user()))


StoreKind = Literal["sqlite", "postgresql"]
"""Where documents and runs live: the embedded folder with SQLite history, or a team's PostgreSQL database.
Every store registry (``LIBRARIES`` here, ``engine.history.RUN_STORES``) is keyed by exactly these."""
STORE_KINDS: tuple[StoreKind, ...] = get_args(StoreKind)

LIBRARIES: dict[StoreKind, LibraryFactory] = {"sqlite": _local, "postgresql": _postgresql}
"""Store kind -> library factory."""

F = TypeVar("F")


def factory_for(registry: Mapping[StoreKind, F], kind: str, error: type[LoupeError], what: str) -> F:
    """The factory of store ``kind`` in ``registry``; ``error`` naming the known kinds when there is none."""
    factory = registry.get(kind)  # type: ignore[call-overload]
    if factory is None:
        raise error(
            f"no {what} for {kind!r} (known: {', '.join(registry)}); LOUPE_DATABASE_URL must start with "
            "postgresql://, or be unset for the embedded library"
        )
    return factory


def store_kind(config: EngineConfig | None = None) -> str:
    """``sqlite`` (the embedded default) unless the database URL names another kind by its scheme."""
    url = (config or EngineConfig()).library.resolved_database_url()
    if not url:
        return "sqlite"
    scheme = urlparse(url).scheme.split("+")[0].lower()
    return "postgresql" if scheme == "postgres" else scheme or "unknown"


def open_library(config: EngineConfig | None = None, kind: str | None = None) -> DocumentLibrary:
    """The document library ``config`` points at (the kind from ``store_kind(config)`` unless given)."""
    config = config or EngineConfig()
    kind = kind or store_kind(config)
    return factory_for(LIBRARIES, kind, LoupeError, "document library")(config)


def ingest(
    data: bytes, file_name: str, *, config: EngineConfig | None = None, library: DocumentLibrary | None = None
) -> LibraryEntry:
    """Add a PDF to the library (idempotent by content) and return its entry. It lives with the library, not
    with ``answer``: a script that ingests waits for the library's modules only, not the question machinery's
    (``engine.ingest``, in a script, has those imported while the PDF worker finishes the parse)."""
    return (library or open_library(config)).ingest(data, file_name)
