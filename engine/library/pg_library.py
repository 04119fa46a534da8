"""A team library in PostgreSQL: documents and their chunks shared by every app replica and CLI.

``loupe_documents`` holds one row per PDF (manifest, the PDF bytes, the parsed document with its
digest, the parser and storage-format versions); ``loupe_chunks`` one row per chunk with its weighted
``tsvector`` (keyword retrieval: ``PgKeywordIndex``). Ingest is idempotent across machines and atomic:
one transaction takes the document's advisory lock, checks the row again, parses, and inserts the
document and its chunks, so concurrent ingests of the same bytes give one row (the primary key backs
the lock up) and a crash rolls back to nothing. A row parsed by an older parser or stored in an older
format is re-parsed from its PDF the first time it is loaded, the same way.

With access control on (``engine.library.pg_access``) the library acts as one user: every query
runs under the database's row-level security for that user, so a document outside the user's
collections is "not found" before any local copy is read, and in-process caches are keyed by the user's
access (the sorted ids of the collections they may read) as well as the document.

Per-document caches stay on this machine (``LocalCache``: the parsed document and the PDF; the dense
retriever is built in memory on first use) and are rebuilt from the database when missing.
"""

from __future__ import annotations

import logging
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import psycopg
from psycopg.types.json import Jsonb
from pydantic import ValidationError

from engine.config import EngineConfig
from engine.contracts import CorpusHit, LibraryEntry, ParsedDocument
from engine.documents.parsing import PARSER_VERSION, doc_id_of
from engine.documents.pdf_guard import read_pdf_file
from engine.errors import DocumentNotFoundError
from engine.library.isolation import Progress, read_pdf
from engine.library.local import sanitize_file_name
from engine.library.pg_access import AccessDeniedError, audit
from engine.library.pg_cache import FORMAT_VERSION, LocalCache, decode_parsed, encode_parsed
from engine.library.postgres import PgDatabase, UserConnections, lock_document
from engine.retrieval.cache import invalidate_shared
from engine.retrieval.index import DocumentIndex
from engine.retrieval.pg_keyword import PgKeywordIndex, corpus_search, section_text

logger = logging.getLogger(__name__)

_HEX = re.compile(r"^[0-9a-f]{1,64}$")
_ROW = "entry::text, parser_version, format_version, parsed_digest"

_CACHE: OrderedDict[tuple[str, str, str, str, str], DocumentIndex] = OrderedDict()
"""Loaded documents, least recently used first; at most ``LibraryConfig.cache_documents`` are kept."""
_CACHE_LOCK = threading.Lock()


@dataclass(frozen=True)
class _Row:
    entry: LibraryEntry
    parser_version: int
    format_version: int
    digest: str

    @property
    def current(self) -> bool:
        """Parsed by this parser and stored in this format (else it is re-parsed on load)."""
        return self.parser_version == PARSER_VERSION and self.format_version == FORMAT_VERSION


def _row(values: tuple) -> _Row | None:
    text, parser_version, format_version, digest = values
    try:
        entry = LibraryEntry.model_validate_json(text)
    except ValidationError as error:
        logger.warning("ignoring a document row written by another Loupe version (%s)", error.error_count())
        return None
    return _Row(entry, int(parser_version), int(format_version), str(digest))


def db_text(text: str) -> str:
    """Text PostgreSQL accepts: no NUL characters, no lone surrogates."""
    return text.replace("\x00", " ").encode("utf-8", "replace").decode("utf-8")


class PgLibrary:
    """The document library in a PostgreSQL database (implements ``DocumentLibrary``)."""

    kind = "postgresql"

    def __init__(self, config: EngineConfig, db: PgDatabase | UserConnections) -> None:
        self.config = config
        self.user = config.library.resolved_user()
        self.db = db if isinstance(db, UserConnections) else db.as_user(self.user)
        self.root: Path = config.library.resolved_path()
        self.cache = LocalCache(self.root)

    def __repr__(self) -> str:
        return f"PgLibrary({self.db.label})"

    @property
    def _lock_wait(self) -> float:
        return self.config.library.max_parse_seconds + 60

    # ---------------------------------------------------------------- lookups

    def entries(self) -> list[LibraryEntry]:
        """Every document, newest first."""
        with self.db.connection() as conn:
            rows = conn.execute(f"SELECT {_ROW} FROM loupe_documents ORDER BY added_at DESC, doc_id").fetchall()
        return [row.entry for row in map(_row, rows) if row is not None]

    def _lookup(self, doc_id: str) -> _Row:
        key = str(doc_id).strip().lower()
        if not _HEX.match(key):
            raise DocumentNotFoundError(f"{doc_id!r} is not a document id; pick a document from the library")
        with self.db.connection() as conn:
            rows = conn.execute(
                f"SELECT {_ROW} FROM loupe_documents WHERE doc_id LIKE %s ORDER BY doc_id LIMIT 2", (key + "%",)
            ).fetchall()
        found = [row for row in map(_row, rows) if row is not None]
        if len(found) == 1:
            return found[0]
        if not found:
            raise DocumentNotFoundError(f"no document {doc_id!r} in the library; upload it first")
        raise DocumentNotFoundError(f"{doc_id!r} matches several documents; give more characters of the id")

    def get(self, doc_id: str) -> LibraryEntry:
        """The entry of ``doc_id`` or of a unique prefix of it."""
        return self._lookup(doc_id).entry

    def pdf_bytes(self, doc_id: str) -> bytes:
        """The original PDF (this machine's copy when it has one)."""
        entry = self.get(doc_id)
        data = self.cache.pdf(entry.doc_id, entry.size_bytes)
        if data is not None:
            return data
        with self.db.connection() as conn:
            row = conn.execute("SELECT pdf FROM loupe_documents WHERE doc_id = %s", (entry.doc_id,)).fetchone()
        if row is None:
            raise DocumentNotFoundError(f"{entry.file_name} was deleted from the library meanwhile")
        data = bytes(row[0])
        self.cache.keep_pdf(entry.doc_id, data)
        return data

    def parsed(self, doc_id: str) -> ParsedDocument:
        """The parsed document (re-parsed first when an older parser or format stored it)."""
        return self._document(self._current(self._lookup(doc_id)))

    def _document(self, row: _Row) -> ParsedDocument:
        doc = self.cache.parsed(row.entry.doc_id, row.digest)
        if doc is not None:
            return doc
        with self.db.connection() as conn:
            found = conn.execute(
                "SELECT parsed FROM loupe_documents WHERE doc_id = %s AND parsed_digest = %s",
                (row.entry.doc_id, row.digest),
            ).fetchone()
        if found is None:  # deleted or re-parsed by another replica since the row was read
            return self._document(self._current(self._lookup(row.entry.doc_id)))
        blob = bytes(found[0])
        try:
            doc = decode_parsed(blob)
        except ValueError as error:
            logger.warning("the stored parse of %s is unreadable (%s); re-parsing", row.entry.doc_id[:16], error)
            return self._document(self._reparse(row.entry, force=True))
        self.cache.keep_parsed(row.entry.doc_id, row.digest, blob)
        return doc

    def load(self, doc_id: str) -> DocumentIndex:
        """The parsed document with its retrievers (keyword: PostgreSQL full-text search), cached in-process."""
        row = self._current(self._lookup(doc_id))
        key = (self.db.label, row.entry.doc_id, row.digest, self.config.fingerprint(), self.access())
        with _CACHE_LOCK:
            cached = _CACHE.get(key)
            if cached is not None:
                _CACHE.move_to_end(key)
        if cached is not None:
            return cached
        doc = self._document(row)
        keyword = PgKeywordIndex(self.db, doc, self.config.retrieval)
        index = DocumentIndex(doc, row.entry.profile, keyword, self.config.retrieval, access=key[4])
        with _CACHE_LOCK:
            for stale in [k for k in _CACHE if k[:2] == key[:2] and k != key]:
                del _CACHE[stale]
            kept = _CACHE.setdefault(key, index)
            while len(_CACHE) > self.config.library.cache_documents:
                _CACHE.popitem(last=False)
            return kept

    def access(self) -> str:
        """What this user may read, as a cache key: ``open``, or the user and the sorted ids of their collections.

        Read from the database on every call (no membership cache), so a removed member's next request
        keys differently and misses every cache entry made before.
        """
        if not self.db.access_on:
            return "open"
        with self.db.connection() as conn:
            rows = conn.execute("SELECT collection_id FROM loupe_collections ORDER BY collection_id").fetchall()
        return f"{self.user or ''}:{','.join(str(r[0]) for r in rows)}"

    def search_all(self, query: str, k: int) -> list[CorpusHit]:
        """The ``k`` best passages of the whole library for ``query`` (one full-text query)."""
        return corpus_search(self.db, query, k, self.config.retrieval)

    # ---------------------------------------------------------------- ingest

    def ingest(self, data: bytes, file_name: str, progress: Progress | None = None) -> LibraryEntry:
        """Add a PDF (idempotent across machines: the same bytes give the same entry) and return its entry.

        Raises the parsing errors (NotAPdfError, EncryptedPdfError, NoTextLayerError,
        DocumentTooLargeError) and DatabaseError; the database is unchanged when ingest fails.
        """
        report = progress or (lambda fraction, message: None)
        doc_id = doc_id_of(data)
        name = sanitize_file_name(file_name)
        report(0.0, f"checking {name}")
        existing = self._find(doc_id)
        if existing is None:
            collection_id = self._upload_collection()
            with self.db.connection() as conn:  # one transaction: lock, check, parse, insert
                lock_document(conn, doc_id, self._lock_wait)
                existing = self._find(doc_id, conn)
                if existing is None:
                    try:
                        entry, blob, digest = self._insert(conn, data, doc_id, name, report, collection_id)
                    except psycopg.errors.UniqueViolation:  # the row exists where row-level security hides it
                        raise AccessDeniedError(
                            f"{name} is already in another collection of the library (one collection per "
                            "document); ask an admin of that collection to add you to it"
                        ) from None
                    if self.db.access_on:
                        audit(conn, self.user, "upload", collection_id, {"doc_id": doc_id, "file_name": name})
            if existing is None:
                self.cache.keep_pdf(doc_id, data)
                self.cache.keep_parsed(doc_id, digest, blob)
                logger.info("ingested %s as %s (%d pages) into %s", name, doc_id[:16], entry.total_pages, self.db.label)
                report(1.0, f"{name} added: {entry.total_pages} pages")
                return entry
        report(1.0, f"{name} is already in the library")
        return existing

    def _find(self, doc_id: str, conn: psycopg.Connection | None = None) -> LibraryEntry | None:
        query = f"SELECT {_ROW} FROM loupe_documents WHERE doc_id = %s"
        if conn is None:
            with self.db.connection() as own:
                values = own.execute(query, (doc_id,)).fetchone()
        else:
            values = conn.execute(query, (doc_id,)).fetchone()
        row = _row(values) if values is not None else None
        return row.entry if row is not None else None

    def _upload_collection(self) -> int | None:
        """The collection a new document goes to: ``LibraryConfig.collection``, else the user's only one.

        Raises:
            AccessDeniedError: no user, no such collection, or not an editor of it.
        """
        if not self.db.access_on:
            return None
        if not self.user:
            raise AccessDeniedError("access control is on: give the user who uploads (--user NAME or LOUPE_USER)")
        name = self.config.library.collection
        with self.db.connection() as conn:
            rows = conn.execute(
                "SELECT collection_id, name FROM loupe_collections WHERE loupe_can(collection_id, 'editor')"
                " AND (%s::text IS NULL OR name = %s) ORDER BY name",
                (name, name),
            ).fetchall()
        if len(rows) == 1:
            return int(rows[0][0])
        if name:
            raise AccessDeniedError(f"no collection {name!r} that {self.user} may upload to (editors and admins may)")
        if not rows:
            raise AccessDeniedError(f"{self.user} may not upload: no collection names them editor or admin")
        raise AccessDeniedError(
            "give the collection to upload to (--collection NAME): " + ", ".join(str(r[1]) for r in rows)
        )

    def _insert(
        self,
        conn: psycopg.Connection,
        data: bytes,
        doc_id: str,
        name: str,
        report: Progress,
        collection_id: int | None = None,
    ) -> tuple[LibraryEntry, bytes, str]:
        report(0.05, "reading the document structure")
        result = read_pdf(data, name, self.config, report)  # the bounded worker process, OCR for scans
        profile, doc = result.profile, result.document()
        entry = LibraryEntry(
            doc_id=doc_id, file_name=name, size_bytes=len(data), total_pages=doc.total_pages,
            added_at=datetime.now(UTC).isoformat(timespec="microseconds"), profile=profile,
        )  # fmt: skip
        report(0.7, f"saving the document and indexing {len(doc.chunks)} passages")
        blob, digest = write_document(conn, entry, doc, data, collection_id)
        return entry, blob, digest

    # ---------------------------------------------------------------- re-parse and delete

    def _current(self, row: _Row) -> _Row:
        return row if row.current else self._reparse(row.entry)

    def _reparse(self, entry: LibraryEntry, force: bool = False) -> _Row:
        """Parse the stored PDF again with this parser and replace the document's parse and chunks atomically."""
        with self.db.connection() as conn:
            lock_document(conn, entry.doc_id, self._lock_wait)
            values = conn.execute(
                f"SELECT {_ROW}, pdf, collection_id FROM loupe_documents WHERE doc_id = %s", (entry.doc_id,)
            )
            found = values.fetchone()
            if found is None:
                raise DocumentNotFoundError(f"{entry.file_name} was deleted from the library meanwhile")
            row = _row(found[:4])
            if row is not None and row.current and not force:
                return row  # another replica did it while we waited for the lock
            logger.info("re-parsing %s with parser version %d", entry.doc_id[:16], PARSER_VERSION)
            doc = read_pdf(bytes(found[4]), entry.file_name, self.config, lambda fraction, message: None).document()
            blob, digest = encode_parsed(doc)
            conn.execute(
                "UPDATE loupe_documents SET parsed = %s, parsed_digest = %s, parser_version = %s, format_version = %s"
                " WHERE doc_id = %s",
                (blob, digest, doc.parser_version, FORMAT_VERSION, entry.doc_id),
            )
            conn.execute("DELETE FROM loupe_chunks WHERE doc_id = %s", (entry.doc_id,))
            write_chunks(conn, doc, found[5])
        self.cache.keep_parsed(entry.doc_id, digest, blob)
        return _Row(entry, doc.parser_version, FORMAT_VERSION, digest)

    def delete(self, doc_id: str) -> None:
        """Remove a document (and its chunks) from the database, this process's caches and this machine's copies."""
        entry = self.get(doc_id)
        with self.db.connection() as conn:
            lock_document(conn, entry.doc_id, self._lock_wait)
            gone = conn.execute(
                "DELETE FROM loupe_documents WHERE doc_id = %s RETURNING collection_id", (entry.doc_id,)
            ).fetchone()
            if gone is None and self.db.access_on:
                raise AccessDeniedError(f"{self.user} may not delete {entry.file_name}: editors and admins may")
            if self.db.access_on and gone is not None:
                audit(conn, self.user, "delete", gone[0], {"doc_id": entry.doc_id, "file_name": entry.file_name})
        _evict(entry.doc_id)
        self.cache.forget(entry.doc_id)
        logger.info("deleted %s (%s) from %s", entry.file_name, entry.doc_id[:16], self.db.label)

    def ingest_path(self, path: str | Path) -> LibraryEntry:
        """Ingest a PDF file from disk (the display name is the file's name)."""
        return self.ingest(*read_pdf_file(path))


def write_document(
    conn: psycopg.Connection, entry: LibraryEntry, doc: ParsedDocument, pdf: bytes, collection_id: int | None = None
) -> tuple[bytes, str]:
    """Insert a document's row and its chunk rows (in the caller's transaction); returns the stored parse and its digest."""
    blob, digest = encode_parsed(doc)
    conn.execute(
        "INSERT INTO loupe_documents (doc_id, file_name, size_bytes, total_pages, added_at, entry, format_version,"
        " parser_version, parsed, parsed_digest, pdf, collection_id)"
        " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
        (entry.doc_id, entry.file_name, entry.size_bytes, entry.total_pages, entry.added_at,
         Jsonb(entry.model_dump(mode="json")), FORMAT_VERSION, doc.parser_version, blob, digest, pdf, collection_id),
    )  # fmt: skip
    write_chunks(conn, doc, collection_id)
    return blob, digest


def write_chunks(conn: psycopg.Connection, doc: ParsedDocument, collection_id: int | None = None) -> None:
    """The document's chunk rows, in order, in its collection (their ``tsv`` is computed by the database).

    One INSERT over arrays rather than COPY: PostgreSQL refuses COPY FROM into a table with row-level
    security (forced on ``loupe_chunks``), and one statement keeps it a single round trip.
    """
    chunks = doc.chunks
    conn.execute(
        "INSERT INTO loupe_chunks (doc_id, position, chunk_id, page, body, section, collection_id)"
        " SELECT %s, t.position, t.chunk_id, t.page, t.body, t.section, %s"
        " FROM unnest(%s::int[], %s::text[], %s::int[], %s::text[], %s::text[])"
        " AS t(position, chunk_id, page, body, section)",
        (doc.doc_id, collection_id, list(range(len(chunks))), [c.chunk_id for c in chunks], [c.page for c in chunks],
         [db_text(c.text) for c in chunks], [db_text(section_text(c)) for c in chunks]),
    )  # fmt: skip


def _evict(doc_id: str) -> None:
    invalidate_shared(doc_id)
    with _CACHE_LOCK:
        for key in [k for k in _CACHE if k[1] == doc_id]:
            _CACHE.pop(key).retrieval_cache.invalidate(doc_id)
