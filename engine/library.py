"""The document library on disk: ``<root>/<doc_id>/{original.pdf, parsed.json, index/, manifest.json}``.

An entry is built in ``<root>/.staging-<host>-<pid>-<random>/`` and renamed into place, under a file lock per
doc_id, with the manifest written last: a folder without ``manifest.json`` is not an entry (it is
removed by the next ingest of the same bytes). Storage is always keyed by the sha256 of the bytes;
file names are kept for display only.
"""

from __future__ import annotations

import logging
import os
import re
import secrets
import shutil
import socket
import threading
import time
import unicodedata
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from filelock import FileLock
from pydantic import ValidationError

from engine.bricks.parsing import PARSER_VERSION, doc_id_of, parse_pdf
from engine.bricks.profile import probe_pdf
from engine.bricks.retrieval.cache import invalidate_shared
from engine.bricks.retrieval.index import DocumentIndex
from engine.bricks.retrieval.keyword import KeywordIndex
from engine.config import EngineConfig
from engine.contracts import LibraryEntry, ParsedDocument
from engine.errors import DocumentNotFoundError, LibraryCorruptError

logger = logging.getLogger(__name__)

Progress = Callable[[float, str], None]

PDF_NAME = "original.pdf"
PARSED_NAME = "parsed.json"
MANIFEST_NAME = "manifest.json"
INDEX_DIR = "index"
STAGING_PREFIX = ".staging-"
STALE_STAGING_SECONDS = 3600.0
MAX_NAME_CHARS = 200

_HEX = re.compile(r"^[0-9a-f]{1,64}$")

_CACHE: dict[tuple[str, str, str], DocumentIndex] = {}
_CACHE_LOCK = threading.Lock()


def _writer_is_gone(staging_name: str) -> bool:
    """True when a staging folder was made by a process of this host that has exited."""
    parts = staging_name.removeprefix(STAGING_PREFIX).rsplit("-", 2)
    if len(parts) != 3 or parts[0] != socket.gethostname() or not parts[1].isdigit():
        return False
    pid = int(parts[1])
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:  # it exists under another user
        return False
    return False


def sanitize_file_name(name: str) -> str:
    """A display name: no directories, no "..", no control or format characters (bidi overrides,
    zero-width marks), at most 200 characters."""
    name = "".join(ch for ch in str(name) if unicodedata.category(ch) not in ("Cc", "Cf"))
    name = name.replace("\\", "/").split("/")[-1]
    name = name.replace("..", "").strip(" .")
    name = name[:MAX_NAME_CHARS].encode()[:255].decode(errors="ignore")
    return name or "document.pdf"


def _write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def _build_index(doc: ParsedDocument, directory: Path, config: EngineConfig) -> None:
    KeywordIndex.build(doc, directory, config.retrieval).close()


class Library:
    """The document library; safe to use from several threads and processes."""

    def __init__(self, config: EngineConfig | None = None) -> None:
        self.config = config or EngineConfig()
        self.root: Path = self.config.library.resolved_path()
        self.root.mkdir(parents=True, exist_ok=True)
        (self.root / ".locks").mkdir(exist_ok=True)

    # ---------------------------------------------------------------- paths and locks

    def _dir(self, doc_id: str) -> Path:
        return self.root / doc_id

    def _lock(self, doc_id: str) -> FileLock:
        timeout = self.config.library.max_parse_seconds + 60
        return FileLock(str(self.root / ".locks" / f"{doc_id}.lock"), timeout=timeout)

    def _read_manifest(self, folder: Path) -> LibraryEntry | None:
        try:
            return LibraryEntry.model_validate_json((folder / MANIFEST_NAME).read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError, ValidationError) as exc:
            logger.warning("ignoring %s: unreadable manifest (%s)", folder.name, exc)
            return None

    # ---------------------------------------------------------------- ingest

    def ingest(self, data: bytes, file_name: str, progress: Progress | None = None) -> LibraryEntry:
        """Add a PDF (idempotent: the same bytes give the same entry) and return its manifest.

        Raises the parsing errors (NotAPdfError, EncryptedPdfError, NoTextLayerError,
        DocumentTooLargeError); the library is unchanged when ingest fails.
        """
        report = progress or (lambda fraction, message: None)
        doc_id = doc_id_of(data)
        name = sanitize_file_name(file_name)
        report(0.0, f"checking {name}")
        with self._lock(doc_id):
            final = self._dir(doc_id)
            existing = self._read_manifest(final)
            if existing is not None:
                report(1.0, f"{name} is already in the library")
                return existing
            if final.exists():
                logger.warning("removing incomplete library entry %s", doc_id)
                shutil.rmtree(final, ignore_errors=True)
            self._clean_stale_staging()
            entry = self._build_entry(data, doc_id, name, report)
        report(1.0, f"{name} added: {entry.total_pages} pages")
        return entry

    def _build_entry(self, data: bytes, doc_id: str, name: str, report: Progress) -> LibraryEntry:
        staging = self.root / f"{STAGING_PREFIX}{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(8)}"
        staging.mkdir()
        try:
            report(0.05, "reading the document structure")
            profile = probe_pdf(data, name, self.config)
            report(0.15, f"parsing {profile.total_pages} pages")
            doc = parse_pdf(data, name, self.config)
            report(0.6, "building the keyword index")
            (staging / PDF_NAME).write_bytes(data)
            (staging / PARSED_NAME).write_text(doc.model_dump_json(), encoding="utf-8")
            _build_index(doc, staging / INDEX_DIR, self.config)
            report(0.9, "saving")
            entry = LibraryEntry(
                doc_id=doc_id, file_name=name, size_bytes=len(data), total_pages=doc.total_pages,
                added_at=datetime.now(UTC).isoformat(timespec="microseconds"), profile=profile,
            )  # fmt: skip
            (staging / MANIFEST_NAME).write_text(entry.model_dump_json(indent=2), encoding="utf-8")
            os.replace(staging, self._dir(doc_id))
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
        logger.info("ingested %s as %s (%d pages)", name, doc_id[:16], entry.total_pages)
        return entry

    def _clean_stale_staging(self) -> None:
        """Remove staging folders whose writer is gone: a process of this host that no longer runs (killed
        mid-ingest), or any folder older than ``STALE_STAGING_SECONDS`` (another host's, or an old name)."""
        now = time.time()
        for folder in self.root.glob(f"{STAGING_PREFIX}*"):
            try:
                if now - folder.stat().st_mtime > STALE_STAGING_SECONDS or _writer_is_gone(folder.name):
                    shutil.rmtree(folder, ignore_errors=True)
            except OSError:
                continue

    def ingest_path(self, path: str | Path) -> LibraryEntry:
        """Ingest a PDF file from disk (the display name is the file's name)."""
        path = Path(path)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            raise DocumentNotFoundError(f"no file at {path}; check the path and try again") from None
        except IsADirectoryError:
            raise DocumentNotFoundError(f"{path} is a folder; give the path of a PDF file") from None
        return self.ingest(data, path.name)

    # ---------------------------------------------------------------- lookups

    def entries(self) -> list[LibraryEntry]:
        """Every complete entry, newest first."""
        found: list[LibraryEntry] = []
        for folder in self.root.iterdir():
            if folder.name.startswith(".") or not folder.is_dir():
                continue
            entry = self._read_manifest(folder)
            if entry is not None:
                found.append(entry)
        return sorted(found, key=lambda e: e.added_at, reverse=True)

    def get(self, doc_id: str) -> LibraryEntry:
        """The entry of ``doc_id`` or of a unique prefix of it."""
        key = str(doc_id).strip().lower()
        if not _HEX.match(key):
            raise DocumentNotFoundError(f"{doc_id!r} is not a document id; pick a document from the library")
        entry = self._read_manifest(self._dir(key)) if len(key) == 64 else None
        if entry is not None:
            return entry
        matches = [e for e in self.entries() if e.doc_id.startswith(key)]
        if len(matches) == 1:
            return matches[0]
        if not matches:
            raise DocumentNotFoundError(f"no document {doc_id!r} in the library; upload it first")
        raise DocumentNotFoundError(f"{doc_id!r} matches {len(matches)} documents; give more characters of the id")

    def pdf_bytes(self, doc_id: str) -> bytes:
        """The original PDF bytes of an entry."""
        entry = self.get(doc_id)
        try:
            return (self._dir(entry.doc_id) / PDF_NAME).read_bytes()
        except FileNotFoundError:
            raise LibraryCorruptError(
                f"the PDF of {entry.file_name} is missing from the library; delete it and upload it again"
            ) from None

    def parsed(self, doc_id: str) -> ParsedDocument:
        """The parsed document of an entry (re-parsed from the PDF when parsed.json is damaged)."""
        entry = self.get(doc_id)
        return self._parsed(entry)

    def _parsed(self, entry: LibraryEntry) -> ParsedDocument:
        path = self._dir(entry.doc_id) / PARSED_NAME
        try:
            doc = ParsedDocument.model_validate_json(path.read_text(encoding="utf-8"))
            if doc.parser_version == PARSER_VERSION:
                return doc
            logger.info("%s was parsed by parser version %d; re-parsing with version %d",
                        entry.doc_id[:16], doc.parser_version, PARSER_VERSION)  # fmt: skip
        except (OSError, ValueError, ValidationError) as exc:
            logger.warning("parsed.json of %s is unreadable (%s); re-parsing the PDF", entry.doc_id[:16], exc)
        with self._lock(entry.doc_id):
            doc = parse_pdf(self.pdf_bytes(entry.doc_id), entry.file_name, self.config)
            _write_atomic(path, doc.model_dump_json())
            self._rebuild_index(entry, doc)
        return doc

    def _rebuild_index(self, entry: LibraryEntry, doc: ParsedDocument) -> None:
        folder = self._dir(entry.doc_id)
        fresh = folder / f".index-{secrets.token_hex(4)}"
        try:
            _build_index(doc, fresh, self.config)
            old = folder / INDEX_DIR
            trash = folder / f".old-index-{secrets.token_hex(4)}"
            if old.exists():
                os.replace(old, trash)
            os.replace(fresh, old)
            shutil.rmtree(trash, ignore_errors=True)
        except BaseException:
            shutil.rmtree(fresh, ignore_errors=True)
            raise

    def load(self, doc_id: str) -> DocumentIndex:
        """The parsed document with its indexes, cached in-process; a damaged index is rebuilt."""
        entry = self.get(doc_id)
        key = (str(self.root.resolve()), entry.doc_id, self.config.fingerprint())
        with _CACHE_LOCK:
            cached = _CACHE.get(key)
        if cached is not None:
            return cached
        doc = self._parsed(entry)
        directory = self._dir(entry.doc_id) / INDEX_DIR
        try:
            keyword = KeywordIndex.open(directory, doc, self.config.retrieval)
        except LibraryCorruptError as exc:
            logger.warning("rebuilding the keyword index of %s: %s", entry.doc_id[:16], exc)
            with self._lock(entry.doc_id):
                self._rebuild_index(entry, doc)
            keyword = KeywordIndex.open(directory, doc, self.config.retrieval)
        index = DocumentIndex(doc, entry.profile, keyword, self.config.retrieval)
        with _CACHE_LOCK:
            return _CACHE.setdefault(key, index)

    # ---------------------------------------------------------------- delete

    def delete(self, doc_id: str) -> None:
        """Remove an entry from disk and from the in-process caches."""
        entry = self.get(doc_id)
        with self._lock(entry.doc_id):
            _evict(entry.doc_id)
            folder = self._dir(entry.doc_id)
            trash = self.root / f"{STAGING_PREFIX}deleted-{secrets.token_hex(4)}"
            os.replace(folder, trash)  # the entry disappears at once; the files go next
            shutil.rmtree(trash, ignore_errors=True)
        logger.info("deleted %s (%s)", entry.file_name, entry.doc_id[:16])


def _evict(doc_id: str) -> None:
    invalidate_shared(doc_id)
    with _CACHE_LOCK:
        for key in [k for k in _CACHE if k[1] == doc_id]:
            index = _CACHE.pop(key)
            index.retrieval_cache.invalidate(doc_id)
            try:
                index.keyword.close()
            except Exception:
                logger.debug("closing the index of %s failed", doc_id[:16], exc_info=True)
