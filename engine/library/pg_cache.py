"""Per-document caches of a team library on this machine: ``<library>/.pgcache/<doc_id>/``.

The database holds the truth (the PDF, the parsed document and its digest); a replica keeps copies
of what it reads often, each rebuilt from the database when missing or damaged:

- ``parsed-<digest>.z``: the parsed document as stored (zlib-compressed JSON), named by its digest,
  so a document re-parsed by another replica never reads an old copy;
- ``original.pdf``: the PDF bytes (pages are rendered from them), checked against the entry's size.

Every file is written under a temporary name and renamed into place. A folder that cannot be written
only disables caching (everything is read from the database).
"""

from __future__ import annotations

import hashlib
import logging
import shutil
import zlib
from pathlib import Path

from pydantic import ValidationError

from engine.contracts import ParsedDocument
from engine.library.entry_files import PDF_NAME
from engine.library.local import write_atomic

logger = logging.getLogger(__name__)

CACHE_DIR = ".pgcache"
FORMAT_VERSION = 1
"""How a row stores the parsed document: zlib-compressed JSON of ``ParsedDocument`` (bump on change)."""


def encode_parsed(doc: ParsedDocument) -> tuple[bytes, str]:
    """The stored form of ``doc`` and its digest (sha256 of the JSON, 32 hex digits)."""
    text = doc.model_dump_json().encode("utf-8")
    return zlib.compress(text, 6), hashlib.sha256(text).hexdigest()[:32]


def decode_parsed(blob: bytes) -> ParsedDocument:
    """A stored parsed document; ``ValueError`` when it is damaged or does not validate."""
    try:
        return ParsedDocument.model_validate_json(zlib.decompress(blob))
    except (zlib.error, ValidationError) as error:
        raise ValueError(f"the stored parsed document cannot be read ({type(error).__name__})") from None


class LocalCache:
    """This machine's copies of a team library's documents."""

    def __init__(self, library_root: Path) -> None:
        self.root = library_root / CACHE_DIR

    def _folder(self, doc_id: str) -> Path:
        return self.root / doc_id

    def _write(self, path: Path, data: bytes) -> None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(path, data)
        except OSError as error:
            logger.debug("not caching %s (%s)", path, error)

    def parsed(self, doc_id: str, digest: str) -> ParsedDocument | None:
        """The cached parsed document with this digest, or None (missing or damaged: read the database)."""
        path = self._folder(doc_id) / f"parsed-{digest}.z"
        try:
            return decode_parsed(path.read_bytes())
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as error:
            logger.warning("the local copy of %s is damaged (%s); reading the database", doc_id[:16], error)
            return None

    def keep_parsed(self, doc_id: str, digest: str, blob: bytes) -> None:
        """Keep the stored form ``blob`` (digest ``digest``); copies of other digests are removed."""
        folder = self._folder(doc_id)
        self._write(folder / f"parsed-{digest}.z", blob)
        for old in folder.glob("parsed-*.z"):
            if old.name != f"parsed-{digest}.z":
                old.unlink(missing_ok=True)

    def pdf(self, doc_id: str, size: int) -> bytes | None:
        """The cached PDF when it has the entry's size, else None."""
        try:
            data = (self._folder(doc_id) / PDF_NAME).read_bytes()
        except OSError:
            return None
        return data if len(data) == size else None

    def keep_pdf(self, doc_id: str, data: bytes) -> None:
        self._write(self._folder(doc_id) / PDF_NAME, data)

    def forget(self, doc_id: str) -> None:
        """Remove every local copy of a document (it was deleted)."""
        shutil.rmtree(self._folder(doc_id), ignore_errors=True)
