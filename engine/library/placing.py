"""Moving the indexes the PDF worker built into their library entry (``engine.library.entry_indexes`` opens,
checks and rebuilds them). Loads neither whoosh nor numpy: the CLI's ingest, which only moves the indexes into
the entry, needs nothing more.
"""

from __future__ import annotations

import os
import secrets
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from filelock import FileLock

from engine.config import EngineConfig
from engine.contracts import LibraryEntry
from engine.errors import DocumentNotFoundError
from engine.library.entry_files import DENSE_NAME, INDEX_DIR, MANIFEST_NAME
from engine.library.isolation import Handoff

if TYPE_CHECKING:
    from engine.library.loaded import Build


class LibraryFolder(Protocol):
    """What opening an entry's indexes needs of the library folder (``engine.library.local.Library``)."""

    config: EngineConfig
    read_only: bool

    def entry_dir(self, doc_id: str) -> Path: ...

    def entry_lock(self, doc_id: str) -> FileLock: ...

    def build_in_progress(self, doc_id: str) -> Build | None: ...


def place_index(fresh: Path, directory: Path) -> None:
    """Rename the index folder ``fresh`` into place at ``directory`` (an older one goes to the trash first)."""
    trash = directory.with_name(f".index-old-{secrets.token_hex(4)}")
    if directory.exists():
        os.replace(directory, trash)
    os.replace(fresh, directory)
    shutil.rmtree(trash, ignore_errors=True)


def place_keyword(library: LibraryFolder, entry: LibraryEntry, staged: Handoff | None) -> bool:
    """Move the keyword index the PDF worker built into the entry without opening it (the CLI's ingest: nothing
    is asked in this process; whoever loads the document opens and checks it then, and rebuilds a damaged one);
    False when the worker built none."""
    if staged is None or staged.keyword_path is None:
        return False
    if not staged.wait(library.config.library.max_parse_seconds, "keyword"):
        return False
    with library.entry_lock(entry.doc_id):
        if not (library.entry_dir(entry.doc_id) / MANIFEST_NAME).exists():
            shutil.rmtree(staged.keyword_path, ignore_errors=True)  # deleted meanwhile: the index goes with it
            raise DocumentNotFoundError(f"{entry.file_name} was deleted from the library")
        place_index(staged.keyword_path, library.entry_dir(entry.doc_id) / INDEX_DIR)
    return True


def place_dense(library: LibraryFolder, entry: LibraryEntry, staged: Handoff | None) -> bool:
    """Move the LSA the PDF worker built into the entry, without reading it: the first question that needs it
    loads it and checks it then (a damaged one is rebuilt there, as any saved one), so the background build
    does not read the file a second time while that question runs; False when the worker built none."""
    if staged is None or not staged.wait(library.config.library.max_parse_seconds):
        return False
    with library.entry_lock(entry.doc_id):
        if (library.entry_dir(entry.doc_id) / MANIFEST_NAME).exists():
            os.replace(staged.path, library.entry_dir(entry.doc_id) / DENSE_NAME)
        else:  # deleted while the worker built it: the file goes with the entry
            staged.path.unlink(missing_ok=True)
    return True
