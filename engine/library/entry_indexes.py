"""A library entry's search indexes on disk: opened when current, else rebuilt under the entry's lock.

The keyword index lives in ``<entry>/index/`` and the LSA in ``<entry>/dense.npz``; both are written
under temporary names and renamed into place, so a killed process never leaves a half-written one.
A read-only library builds what is missing in memory only.
"""

from __future__ import annotations

import contextlib
import logging
import os
import secrets
import shutil
from typing import TYPE_CHECKING

from engine.contracts import LibraryEntry, ParsedDocument
from engine.errors import DocumentNotFoundError, LibraryCorruptError
from engine.library.entry_files import DENSE_NAME, INDEX_DIR, MANIFEST_NAME
from engine.library.isolation import Handoff
from engine.library.placing import LibraryFolder, place_index
from engine.retrieval.dense import LsaRetriever

if TYPE_CHECKING:
    from engine.retrieval.keyword import KeywordIndex

logger = logging.getLogger(__name__)


def open_keyword(
    library: LibraryFolder, entry: LibraryEntry, doc: ParsedDocument, waiting: bool, staged: Handoff | None = None
) -> KeywordIndex:
    """The saved keyword index (or the one the PDF worker built), rebuilt (under the entry's lock) when
    missing, stale or damaged."""
    from engine.retrieval.keyword import KeywordIndex  # whoosh, loaded by the first index opened: not by ingest

    directory = library.entry_dir(entry.doc_id) / INDEX_DIR
    settings = library.config.retrieval
    try:
        return KeywordIndex.open(directory, doc, settings)
    except LibraryCorruptError as exc:
        if library.read_only:
            logger.info("keyword index of %s built in memory (read-only library): %s", entry.doc_id[:16], exc)
            return KeywordIndex.in_memory(doc, settings)
        if waiting:
            logger.warning("rebuilding the keyword index of %s: %s", entry.doc_id[:16], exc)
    ready = staged is not None and staged.wait(library.config.library.max_parse_seconds, "keyword")
    with library.entry_lock(entry.doc_id):
        try:
            return KeywordIndex.open(directory, doc, settings)  # built meanwhile by another process
        except LibraryCorruptError:
            pass
        if not (library.entry_dir(entry.doc_id) / MANIFEST_NAME).exists():
            if ready and staged is not None and staged.keyword_path is not None:
                shutil.rmtree(staged.keyword_path, ignore_errors=True)  # the entry is gone, and its index with it
            raise DocumentNotFoundError(f"{entry.file_name} was deleted from the library")
        if ready and staged is not None and staged.keyword_path is not None:
            place_index(staged.keyword_path, directory)
            try:  # checked like any saved index: the same chunks, format and boost
                return KeywordIndex.open(directory, doc, settings)
            except LibraryCorruptError as exc:
                logger.warning("the worker's keyword index of %s is unusable (%s); rebuilding", entry.doc_id[:16], exc)
        built = _rebuild_keyword(library, entry, doc)
    if built.memory_backed:  # searches the bytes it just wrote: no second read of the files
        return built
    built.close()
    return KeywordIndex.open(directory, doc, settings)


def _rebuild_keyword(library: LibraryFolder, entry: LibraryEntry, doc: ParsedDocument) -> KeywordIndex:
    from engine.retrieval.keyword import KeywordIndex

    folder = library.entry_dir(entry.doc_id)
    for leftover in folder.glob(".index-*"):  # from a build that was killed
        shutil.rmtree(leftover, ignore_errors=True)
    fresh = folder / f".index-{secrets.token_hex(4)}"
    try:
        built = KeywordIndex.build(doc, fresh, library.config.retrieval)
        place_index(fresh, folder / INDEX_DIR)
    except BaseException:
        shutil.rmtree(fresh, ignore_errors=True)
        raise
    return built


def open_dense(
    library: LibraryFolder, entry: LibraryEntry, doc: ParsedDocument, waiting: bool, staged: Handoff | None = None
) -> LsaRetriever:
    """The saved LSA (after a background build of this process, or the one the PDF worker built), else
    built here and saved."""
    build = library.build_in_progress(entry.doc_id) if waiting else None
    if build is not None:
        build.dense_ready.wait(library.config.library.max_parse_seconds)
    path = library.entry_dir(entry.doc_id) / DENSE_NAME
    dims = library.config.retrieval.dense_dimensions
    try:
        return LsaRetriever.load(path, doc, dims)
    except ValueError as exc:
        if path.exists():
            logger.info("rebuilding the dense index of %s: %s", entry.doc_id[:16], exc)
    if library.read_only:
        return LsaRetriever.build(doc, library.config.retrieval)
    ready = staged is not None and staged.wait(library.config.library.max_parse_seconds)
    with library.entry_lock(entry.doc_id):
        with contextlib.suppress(ValueError):
            return LsaRetriever.load(path, doc, dims)
        if ready and staged is not None and (library.entry_dir(entry.doc_id) / MANIFEST_NAME).exists():
            os.replace(staged.path, path)
            with contextlib.suppress(ValueError):
                return LsaRetriever.load(path, doc, dims)
        lsa = LsaRetriever.build(doc, library.config.retrieval)
        if (library.entry_dir(entry.doc_id) / MANIFEST_NAME).exists():
            lsa.save(path, dims)
    return lsa
