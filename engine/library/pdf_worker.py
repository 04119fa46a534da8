"""The PDF worker process (the child side of :mod:`engine.library.isolation`).

It limits its own address space and CPU time, probes and parses the PDF, and reports over a pipe:
``("probe", page)`` and ``("page", page, total, ocr, reader)`` before each page, then one of
``("done", profile, parsed_bytes)``, ``("error", LoupeError)``, ``("memory",)`` or ``("crash", text)``; with
index paths, then ``("keyword", ok)`` and ``("dense", ok)`` once each index is saved.

Documents of ``page_readers.SPLIT_MIN_PAGES`` pages or more are read by the worker and a helper it forks
(:mod:`engine.library.page_readers`); the worker probes the document while the helper starts reading. The
worker leads a process group, so stopping it stops the helper too.

Neither outlives the process that started it: the worker watches its parent from a thread and ends its
group when the parent is gone (a killed ingest, a crashed app replica), and the helper asks the kernel
(Linux ``PR_SET_PDEATHSIG``) to end it with the worker.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import logging
import os
import resource
import signal
import threading
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from engine.config import EngineConfig, LibraryConfig
from engine.contracts import DocumentProfile, ParsedDocument
from engine.documents.parsed_codec import encode
from engine.documents.parsing import parse_pdf
from engine.documents.profile import probe_pdf
from engine.library.page_readers import die_with_parent, outcome, two_readers

logger = logging.getLogger(__name__)

PARENT_CHECK_SECONDS = 0.25
"""How often the worker looks for its parent: a worker of a killed process is gone within this (a 75 MB
worker left sleeping for an hour is what this prevents; the check is one system call)."""


def _watch_parent(parent: int) -> None:
    """Start a thread that ends this worker and its helper as soon as ``parent`` is gone (this process is then
    adopted: its parent id changes). Started before the helper is forked; the helper has no threads (fork copies
    only the calling one) and is covered by ``die_with_parent``."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        if os.getpgid(0) == os.getpid():  # this worker leads its group: the helper goes too
            with contextlib.suppress(OSError):
                os.killpg(0, signal.SIGKILL)
        os._exit(1)

    threading.Thread(target=watch, name="loupe-parent-watch", daemon=True).start()


def with_ocr_pages(profile: DocumentProfile, doc: ParsedDocument) -> tuple[DocumentProfile, ParsedDocument]:
    """The profile told which pages were read by OCR."""
    if not doc.ocr_pages:
        return profile, doc
    return profile.model_copy(update={"ocr_pages": doc.ocr_pages, "is_likely_scanned": True}), doc


def _vm_bytes() -> int:
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


def _limit_resources(limits: LibraryConfig) -> None:
    """Cap the worker's address space (what it inherited plus the allowance) and its CPU time."""
    for kind, soft in (
        (resource.RLIMIT_AS, _vm_bytes() + limits.max_parse_memory_mb * 1024 * 1024),
        (resource.RLIMIT_CPU, int(limits.max_parse_seconds) + 10),
    ):
        _, hard = resource.getrlimit(kind)
        if hard != resource.RLIM_INFINITY:
            soft = min(soft, hard)
        try:
            resource.setrlimit(kind, (soft, hard))
        except (ValueError, OSError) as exc:
            logger.warning("could not limit the PDF worker (%s): %s", kind, exc)


def run_worker(
    conn: Connection, data: bytes, name: str, config: EngineConfig, dense_to: Path | None, parent: int | None = None,
    keyword_to: Path | None = None,
) -> None:  # fmt: skip
    """The worker's body (the target of the forked process); with ``dense_to``, it then saves the LSA there, and
    with ``keyword_to`` too, the keyword index in that folder, one of them built by a process it forks as soon as
    the parse is read (:func:`_builds`). ``parent`` is the starting process's id, taken before the fork (a parent
    killed before this line ran is then noticed too)."""
    with contextlib.suppress(OSError):
        os.setpgid(0, 0)  # the helper joins this group: the parent stops both at once
    parent = parent or os.getppid()
    _watch_parent(parent)
    _limit_resources(config.library)
    # No cyclic garbage collector in the worker (nor in the processes it forks): reading a page makes thousands of
    # objects (its text dict, the lines), which set off collections that find nothing to free (a parse of a
    # 468-page manual leaves 14 objects in cycles) yet took a tenth of the parse. The memory limit still holds.
    gc.disable()

    def on_page(page: int, total: int, ocr: bool) -> None:
        conn.send(("page", page, total, ocr, os.getpid()))

    message: tuple[Any, ...]
    doc: ParsedDocument | None = None
    builds: tuple[Build, Build] | None = None
    builder: _Builder | None = None
    try:
        probed: list[DocumentProfile] = []

        def probe() -> None:  # run by the reader once the helper reads (a long document's)
            probed.append(probe_pdf(data, name, config, lambda page: conn.send(("probe", page))))
            import_builders(dense_to is not None)

        doc = parse_pdf(data, name, config, on_page, reader=functools.partial(two_readers, conn, probe))
        profile, doc = with_ocr_pages(probed[0], doc)
        if dense_to is not None and keyword_to is not None:  # starts while the parse is encoded and sent
            builds = _builds(doc, config, dense_to, keyword_to, parent)
            builder = _fork_builder(conn, *builds[0])
        message = ("done", profile, encode(doc))
    except BaseException as exc:  # every failure is reported, never a silent death
        message = outcome(exc)
    done = _send(conn, message) and message[0] == "done"
    if builder is not None:
        builder.release(done)
        if config.library.dense_after_keyword:
            builder.wait()  # the keyword index first: the builder keeps a core, the asking process the other
    if done and doc is not None and dense_to is not None:
        kind, build = builds[1] if builds is not None and builder is not None else _lsa(doc, config, dense_to, parent)
        _send(conn, (kind, build()))
    if builder is not None:
        builder.wait()
    conn.close()


Build = tuple[str, Callable[[], bool]]
"""An index the worker's processes build: its kind (``"keyword"`` or ``"dense"``, the word announcing it) and the
build, True once its files are saved."""


def _lsa(doc: ParsedDocument, config: EngineConfig, path: Path, parent: int) -> Build:
    return "dense", lambda: _save_lsa(doc, config, path, parent)


def _builds(
    doc: ParsedDocument, config: EngineConfig, dense_to: Path, keyword_to: Path, parent: int
) -> tuple[Build, Build]:
    """The forked build and the one the worker runs once the parse is sent (the LSA alone when no process could
    be forked).

    With ``LibraryConfig.dense_after_keyword`` the keyword index is forked (the first question waits for it) and
    the worker's LSA waits for it. Otherwise (the CLI's ingest, which waits for both) the LSA, the longer build,
    is forked: it starts as soon as the parse is read, and the keyword index is built beside it once the parse is
    encoded and sent, rather than the LSA waiting for that encoding."""
    keyword: Build = ("keyword", lambda: _save_keyword(doc, config, keyword_to))
    if config.library.dense_after_keyword:
        return keyword, _lsa(doc, config, dense_to, parent)
    return _lsa(doc, config, dense_to, os.getpid()), keyword  # the forked builder's parent is this worker


def _send(conn: Connection, message: tuple[Any, ...]) -> bool:
    """Send ``message`` to the parent; False when it is gone or stopped listening."""
    try:
        conn.send(message)
        return True
    except (OSError, ValueError, MemoryError):
        return False


class _Builder:
    """The forked keyword-index builder, as its parent worker sees it: the builder sends its one message on
    the shared pipe only once :meth:`release` lets it (the worker's parse message, many kilobytes written in
    pieces, must not be interleaved with it)."""

    def __init__(self, pid: int, go: int) -> None:
        self.pid = pid
        self._go = go

    def release(self, announce: bool) -> None:
        """Let the builder announce its index (``announce``), or tell it to exit without a word."""
        with contextlib.suppress(OSError):
            os.write(self._go, b"1" if announce else b"0")
        with contextlib.suppress(OSError):
            os.close(self._go)

    def wait(self) -> None:
        with contextlib.suppress(ChildProcessError):
            os.waitpid(self.pid, 0)


def _fork_builder(conn: Connection, kind: str, build: Callable[[], bool]) -> _Builder | None:
    """Fork a process that runs ``build`` (an index) and, once released, says ``(kind, ok)``.

    The keyword index is what the first question waits for: built here, beside the encoding of the parse and
    then the LSA on the other core, it neither waits for them nor takes the interpreter of the process that
    asks (whose threads share one lock); the CLI's ingest forks the LSA instead (:func:`_builds`). The process
    dies with this worker (the kernel's parent-death signal, and this process group)."""
    go_read, go_write = os.pipe()
    try:
        child = os.fork()
    except OSError:
        logger.warning("could not fork the %s index builder", kind, exc_info=True)
        os.close(go_read)
        os.close(go_write)
        return None
    if child:
        os.close(go_read)
        return _Builder(child, go_write)
    code = 0
    try:
        os.close(go_write)
        die_with_parent()
        ok = build()
        if os.read(go_read, 1) == b"1":  # the worker's parse message is sent: the pipe is free
            conn.send((kind, ok))
    except BaseException:
        code = 1
    os._exit(code)


def _save_keyword(doc: ParsedDocument, config: EngineConfig, folder: Path) -> bool:
    """Build the keyword index into ``folder`` for the ingesting process (a folder left by a killed ingest is
    named like its staging folder, and removed alike). Whoosh is imported already (``_import_builders``)."""
    from engine.retrieval.keyword import KeywordIndex

    try:
        KeywordIndex.write(doc, folder, config.retrieval)
        return True
    except Exception:
        logger.warning("the worker could not build the keyword index", exc_info=True)
        return False


def import_builders(indexes: bool) -> None:
    """Import numpy (the encoding of the parse rounds with it) and, when the indexes are built here, the LSA and
    whoosh. The CLI's ingest, which only moves the indexes into the entry, never needs them itself: its worker
    imports them while its helper reads (the probe's step), not the ingesting process before the worker starts,
    a core idle then. A process that opens the indexes next (``LibraryConfig.load_after_ingest``) imports them
    before it forks the worker, which inherits them (imported twice, they cost more than they save), and so
    does a process with other threads: a module another thread was importing at the fork stays locked in the
    worker, whose import of it would wait for ever."""
    import numpy  # noqa: F401

    if indexes:
        import engine.retrieval.dense
        import engine.retrieval.keyword  # noqa: F401


def _save_lsa(doc: ParsedDocument, config: EngineConfig, path: Path, parent: int) -> bool:
    """Build the LSA and save it at ``path`` for the parent; nothing is written once the parent is gone
    (a killed ingest leaves no file behind that a later cleanup could miss)."""
    from engine.retrieval.dense import LsaRetriever

    try:
        lsa = LsaRetriever.build(doc, config.retrieval)
        if os.getppid() != parent:
            return False
        lsa.save(path, config.retrieval.dense_dimensions)
        return True
    except Exception:
        logger.warning("the worker could not build the dense index", exc_info=True)
        return False
