"""The document library on disk: ``<root>/<doc_id>/{original.pdf, parsed.json, manifest.json, index/, dense.npz}``.

An entry is built in ``<root>/.staging-<host>-<pid>-<random>/`` and renamed into place, under a file lock per
doc_id, with the manifest written last: a folder without ``manifest.json`` is not an entry (it is
removed by the next ingest of the same bytes). Storage is always keyed by the sha256 of the bytes;
file names are kept for display only.

Ingest returns as soon as the document is read and stored. Its search indexes (the keyword index,
then the LSA) are built next by a background thread, each written to a temporary name and renamed
into place, so a killed process leaves at worst a missing index: whoever loads the document next
builds it, under the same lock. What is not on disk yet is the entry's ``building`` state.

A library folder that cannot be written stays readable: entries are listed and asked about (a
missing index is then built in memory only); adding or deleting raises ``LibraryReadOnlyError``.
"""

from __future__ import annotations

import functools
import logging
import os
import re
import secrets
import shutil
import socket
import time
import unicodedata
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from filelock import FileLock
from pydantic import ValidationError

from engine.config import EngineConfig
from engine.contracts import LibraryEntry, ParsedDocument
from engine.documents.parsed_codec import decode
from engine.documents.parsing import PARSER_VERSION, doc_id_of
from engine.errors import DocumentNotFoundError, LibraryCorruptError, LibraryReadOnlyError
from engine.library.entry_files import DENSE_NAME, INDEX_DIR, MANIFEST_NAME, PARSED_NAME, PDF_NAME
from engine.library.isolation import Progress, ReadResult, read_pdf
from engine.library.loaded import BUILDS, DOCUMENTS, Build, Loaded, cache_key
from engine.library.placing import place_dense, place_keyword
from engine.retrieval.cache import invalidate_shared
from engine.retrieval.protocols import KEYWORD_META_NAME

if TYPE_CHECKING:
    from engine.retrieval.index import DocumentIndex

logger = logging.getLogger(__name__)


STAGING_PREFIX = ".staging-"
STALE_STAGING_SECONDS = 3600.0
MAX_NAME_CHARS = 200

_HEX = re.compile(r"^[0-9a-f]{1,64}$")


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


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` under a temporary name, then rename it into place (never half-written)."""
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def _writable(root: Path) -> bool:
    """The folder can take new entries (a read-only mount or missing permission says no)."""
    try:
        root.mkdir(parents=True, exist_ok=True)
        (root / ".locks").mkdir(exist_ok=True)
    except OSError:
        return False
    return os.access(root, os.W_OK) and os.access(root / ".locks", os.W_OK)


class Library:
    """The document library; safe to use from several threads and processes."""

    def __init__(self, config: EngineConfig | None = None) -> None:
        self.config = config or EngineConfig()
        self.root: Path = self.config.library.resolved_path()
        self.read_only = not _writable(self.root)
        if self.read_only:
            if not self.root.is_dir():
                raise LibraryReadOnlyError(f"the library folder {self.root} does not exist and cannot be created")
            logger.info("the library at %s is read-only: documents can be asked about, not added", self.root)

    # ---------------------------------------------------------------- paths and locks

    def entry_dir(self, doc_id: str) -> Path:
        """The folder of an entry."""
        return self.root / doc_id

    def entry_lock(self, doc_id: str) -> FileLock:
        """The cross-process lock of an entry (taken by every write to it)."""
        timeout = self.config.library.max_parse_seconds + 60
        return FileLock(str(self.root / ".locks" / f"{doc_id}.lock"), timeout=timeout)

    def _refuse_writes(self, action: str) -> None:
        if self.read_only:
            raise LibraryReadOnlyError(
                f"the library folder {self.root} is read-only, so documents cannot be {action}; the documents in "
                "it can still be listed and asked about (make the folder writable, or set LOUPE_LIBRARY to another)"
            )

    def _read_manifest(self, folder: Path) -> LibraryEntry | None:
        try:
            entry = LibraryEntry.model_validate_json((folder / MANIFEST_NAME).read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError, ValidationError) as exc:
            logger.warning("ignoring %s: unreadable manifest (%s)", folder.name, exc)
            return None
        building = tuple(
            part
            for part, path in (
                ("keyword index", folder / INDEX_DIR / KEYWORD_META_NAME),
                ("dense index", folder / DENSE_NAME),
            )
            if not path.exists()
        )
        return entry.model_copy(update={"building": building}) if building else entry

    # ---------------------------------------------------------------- ingest

    def ingest(self, data: bytes, file_name: str, progress: Progress | None = None) -> LibraryEntry:
        """Add a PDF (idempotent: the same bytes give the same entry) and return its manifest.

        Returns once the document is read and stored; its search indexes are built in the background.
        Raises the parsing errors (NotAPdfError, EncryptedPdfError, NoTextLayerError,
        DocumentTooLargeError) and LibraryReadOnlyError; the library is unchanged when ingest fails.
        """
        report = progress or (lambda fraction, message: None)
        doc_id = doc_id_of(data)
        name = sanitize_file_name(file_name)
        report(0.0, f"checking {name}")
        if self.read_only:
            existing = self._read_manifest(self.entry_dir(doc_id))
            if existing is None:
                self._refuse_writes("added")
            report(1.0, f"{name} is already in the library")
            return existing  # type: ignore[return-value]
        with self.entry_lock(doc_id):
            final = self.entry_dir(doc_id)
            existing = self._read_manifest(final)
            if existing is not None:
                report(1.0, f"{name} is already in the library")
                return existing
            if final.exists():
                logger.warning("removing incomplete library entry %s", doc_id)
                shutil.rmtree(final, ignore_errors=True)
            self._clean_stale_staging()
            entry, result = self._build_entry(data, doc_id, name, report)
        self._start_background(entry, result)
        report(1.0, f"{name} added: {entry.total_pages} pages (search indexes are being built)")
        return entry

    def _build_entry(self, data: bytes, doc_id: str, name: str, report: Progress) -> tuple[LibraryEntry, ReadResult]:
        staging = self.root / f"{STAGING_PREFIX}{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(8)}"
        staging.mkdir()
        result: ReadResult | None = None
        try:
            report(0.05, "reading the document structure")
            dense_to = staging.with_name(f"{staging.name}.{DENSE_NAME}")  # named like its folder: cleaned up alike
            keyword_to = staging.with_name(f"{staging.name}.{INDEX_DIR}")
            result = read_pdf(data, name, self.config, report, dense_to, keyword_to)
            report(0.9, "saving")
            (staging / PDF_NAME).write_bytes(data)
            (staging / PARSED_NAME).write_bytes(result.encoded)
            entry = LibraryEntry(
                doc_id=doc_id, file_name=name, size_bytes=len(data), total_pages=result.profile.total_pages,
                added_at=datetime.now(UTC).isoformat(timespec="microseconds"), profile=result.profile,
            )  # fmt: skip
            (staging / MANIFEST_NAME).write_text(entry.model_dump_json(indent=2), encoding="utf-8")
            os.replace(staging, self.entry_dir(doc_id))
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            if result is not None:
                result.close()
            raise
        logger.info("ingested %s as %s (%d pages)", name, doc_id[:16], entry.total_pages)
        return entry.model_copy(update={"building": ("keyword index", "dense index")}), result

    def _clean_stale_staging(self) -> None:
        """Remove staging folders whose writer is gone: a process of this host that no longer runs (killed
        mid-ingest), or any folder older than ``STALE_STAGING_SECONDS`` (another host's, or an old name)."""
        now = time.time()
        for folder in self.root.glob(f"{STAGING_PREFIX}*"):
            try:
                if now - folder.stat().st_mtime > STALE_STAGING_SECONDS or _writer_is_gone(folder.name):
                    if folder.is_dir():
                        shutil.rmtree(folder, ignore_errors=True)
                    else:  # a dense index handed off by a killed worker
                        folder.unlink(missing_ok=True)
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

    # ---------------------------------------------------------------- background indexes

    def _start_background(self, entry: LibraryEntry, result: ReadResult) -> None:
        run = functools.partial(self._build_indexes, entry, result)
        BUILDS.submit((str(self.root.resolve()), entry.doc_id), Build(run=run))

    def _build_indexes(self, entry: LibraryEntry, result: ReadResult, build: Build) -> None:
        """Keyword index first (the next question needs it), then the LSA; failures leave them to load(). Without
        ``load_after_ingest`` the worker's indexes are only moved into the entry: the parse is decoded only to
        build one the worker did not."""
        try:
            try:
                if self.config.library.load_after_ingest or result.dense is None:
                    build.doc = result.document()
            finally:
                build.doc_ready.set()
            if build.doc is not None or not place_keyword(self, entry, result.dense):
                from engine.library.entry_indexes import open_keyword  # whoosh, numpy: once an index is opened

                build.keyword = open_keyword(self, entry, result.document(), waiting=False, staged=result.dense)
        except Exception:
            logger.warning("background keyword index of %s failed", entry.doc_id[:16], exc_info=True)
        finally:
            build.keyword_ready.set()
        try:
            if not place_dense(self, entry, result.dense):  # the worker built none: built here
                from engine.library.entry_indexes import open_dense

                open_dense(self, entry, result.document(), waiting=False)
        except Exception:
            logger.warning("background dense index of %s failed", entry.doc_id[:16], exc_info=True)
        finally:
            result.close()
            build.dense_ready.set()

    def build_in_progress(self, doc_id: str) -> Build | None:
        """This process's background build of ``doc_id`` when it runs or runs next (one queued behind other
        builds is not waited for: the question builds what it needs itself)."""
        return BUILDS.active((str(self.root.resolve()), doc_id))

    def wait_for_background(self, timeout: float | None = None) -> bool:
        """Wait until the background index builds of this library are done (benchmarks, tests)."""
        return BUILDS.join(str(self.root.resolve()), timeout)

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
        entry = self._read_manifest(self.entry_dir(key)) if len(key) == 64 else None
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
            return (self.entry_dir(entry.doc_id) / PDF_NAME).read_bytes()
        except FileNotFoundError:
            raise LibraryCorruptError(
                f"the PDF of {entry.file_name} is missing from the library; delete it and upload it again"
            ) from None

    def parsed(self, doc_id: str) -> ParsedDocument:
        """The parsed document of an entry (re-parsed from the PDF when parsed.json is damaged or older)."""
        entry = self.get(doc_id)
        loaded = DOCUMENTS.get(cache_key(self.root, entry.doc_id, self.config))
        return loaded.doc if loaded is not None else self._parsed(entry)

    def _parsed(self, entry: LibraryEntry) -> ParsedDocument:
        path = self.entry_dir(entry.doc_id) / PARSED_NAME
        try:
            doc = decode(path.read_bytes())
            if doc.parser_version == PARSER_VERSION:
                return doc
            logger.info("%s was parsed by parser version %d; re-parsing with version %d",
                        entry.doc_id[:16], doc.parser_version, PARSER_VERSION)  # fmt: skip
        except (OSError, ValueError) as exc:
            logger.warning("parsed.json of %s is unreadable or older (%s); re-parsing the PDF", entry.doc_id[:16], exc)
        result = read_pdf(self.pdf_bytes(entry.doc_id), entry.file_name, self.config, lambda f, m: None)
        if not self.read_only:
            with self.entry_lock(entry.doc_id):
                write_atomic(path, result.encoded)
        return result.document()

    def load(self, doc_id: str) -> DocumentIndex:
        """The parsed document with its indexes, cached in-process (a bounded LRU); a damaged index is rebuilt."""
        from engine.library.entry_indexes import open_dense, open_keyword
        from engine.retrieval.index import DenseSlot, DocumentMemo, start_warming

        entry = self.get(doc_id)
        key = cache_key(self.root, entry.doc_id, self.config)
        loaded = DOCUMENTS.get(key)
        if loaded is None:
            build = self.build_in_progress(entry.doc_id)
            memo, warmed = DocumentMemo(), None
            if build is not None:
                if not build.keyword_ready.is_set() and build.doc_ready.wait(self.config.library.max_parse_seconds):
                    warmed = build.doc  # derived values are made while the keyword index is still built
                    if warmed is not None:
                        start_warming(warmed, memo)
                build.keyword_ready.wait(self.config.library.max_parse_seconds)
            doc = build.doc if build is not None and build.doc is not None else self._parsed(entry)
            keyword = build.keyword if build is not None and build.keyword is not None else None
            if keyword is None or keyword.doc is not doc or not keyword.matches(self.config.retrieval):
                keyword = open_keyword(self, entry, doc, waiting=True)
            dense = DenseSlot(lambda: open_dense(self, entry, doc, waiting=True))
            memo = memo if warmed is doc else DocumentMemo()
            loaded = DOCUMENTS.put(key, Loaded(doc, entry.profile, keyword, dense, memo=memo),
                                   self.config.library.cache_documents)  # fmt: skip
        return loaded.view(self.config.retrieval)

    # ---------------------------------------------------------------- delete

    def delete(self, doc_id: str) -> None:
        """Remove an entry from disk and from the in-process caches."""
        entry = self.get(doc_id)
        self._refuse_writes("deleted")
        build = BUILDS.get((str(self.root.resolve()), entry.doc_id))
        if build is not None and build.started.is_set():  # its files go with it, not after it
            build.dense_ready.wait(self.config.library.max_parse_seconds)
        with self.entry_lock(entry.doc_id):
            _evict(entry.doc_id)
            folder = self.entry_dir(entry.doc_id)
            trash = self.root / f"{STAGING_PREFIX}deleted-{secrets.token_hex(4)}"
            os.replace(folder, trash)  # the entry disappears at once; the files go next
            shutil.rmtree(trash, ignore_errors=True)
        logger.info("deleted %s (%s)", entry.file_name, entry.doc_id[:16])


def _evict(doc_id: str) -> None:
    invalidate_shared(doc_id)
    for loaded in DOCUMENTS.drop(doc_id):
        for view in loaded.views.values():
            view.retrieval_cache.invalidate(doc_id)
        try:
            loaded.keyword.close()
        except Exception:
            logger.debug("closing the index of %s failed", doc_id[:16], exc_info=True)
