"""Read an untrusted PDF (probe + parse) in a forked worker process with memory, CPU and time limits.

No single PDF can take the server down: the worker may use at most ``max_parse_memory_mb`` beyond
what it inherits (a page needing more fails inside the worker with a clear error), and a page that
runs longer than ``max_page_seconds`` (``max_ocr_page_seconds`` while it is OCR'd) or a parse
longer than ``max_parse_seconds`` is stopped by killing the worker. The structural guards of
:mod:`engine.documents.pdf_guard` refuse the common bombs in milliseconds before that. Forking costs
a few milliseconds (no interpreter start, nothing re-imported), a long document is read by two
processes at once (:mod:`engine.library.page_readers`), and the result comes back in the compact
``parsed.json`` layout, which the library writes as it is. Where fork does not exist, or
``isolate_parsing`` is off, the same reading runs in-process, bounded by the guards and the total
parse time only.
"""

from __future__ import annotations

import contextlib
import gc
import logging
import multiprocessing
import os
import shutil
import signal
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from engine.config import EngineConfig, LibraryConfig
from engine.contracts import DocumentProfile, ParsedDocument
from engine.documents.parsed_codec import decode, encode
from engine.documents.parsing import parse_pdf
from engine.documents.profile import probe_pdf
from engine.errors import DocumentError, DocumentTooLargeError
from engine.library.pdf_worker import import_builders, run_worker, with_ocr_pages

logger = logging.getLogger(__name__)

Progress = Callable[[float, str], None]
READ_START, READ_END = 0.1, 0.85
"""Share of the ingest progress bar the reading of pages covers."""
PROBE = -1
"""The reader id of the probe's sampled pages (they come before the pages are read in order)."""
WHILE_FINISHING: list[Callable[[], None]] = []
"""Work the ingesting process may do once a worker's pages are read, while the worker alone makes the chunks,
the outline and the parse's encoding: a core is idle then, and this process only waits. Each is run once per
parse, in order, in a daemon thread; a failure is logged and ignored (``engine.ingest`` registers the import
of the answering modules: a script that ingests usually asks next)."""


class Handoff:
    """The worker, still running after the parse, building the document's indexes for the caller: the LSA
    into ``dense_path`` and (by a process it forks) the keyword index into the folder ``keyword_path``.

    Each finished index is announced by one message, ``("dense", ok)`` or ``("keyword", ok)``, in either
    order; :meth:`wait` keeps the one it reads while waiting for the other."""

    def __init__(self, worker: Any, receive: Connection, dense_path: Path, keyword_path: Path | None) -> None:
        self.worker = worker
        self.receive = receive
        self.path = dense_path
        self.keyword_path = keyword_path
        self._done: dict[str, bool] = {}
        self._lock = threading.Lock()

    def wait(self, timeout: float, kind: str = "dense") -> bool:
        """True once the ``kind`` index is saved (False when the worker failed, died or took too long)."""
        path = self.path if kind == "dense" else self.keyword_path
        if path is None:
            return False
        deadline = time.monotonic() + timeout
        with self._lock:
            while kind not in self._done:
                try:
                    if not self.receive.poll(max(0.0, deadline - time.monotonic())):
                        return False
                    message = self.receive.recv()
                except (EOFError, OSError):
                    return False
                if isinstance(message, tuple) and len(message) == 2 and message[0] in ("dense", "keyword"):
                    self._done[message[0]] = bool(message[1] is True)
            return self._done[kind] and path.exists()

    def close(self) -> None:
        _stop(self.worker)
        self.receive.close()
        self.path.unlink(missing_ok=True)
        if self.keyword_path is not None:
            shutil.rmtree(self.keyword_path, ignore_errors=True)


@dataclass
class ReadResult:
    """A read PDF: its profile (OCR'd pages included), the parse in the on-disk layout and, when the
    worker goes on to build the indexes, the handoff of those files."""

    profile: DocumentProfile
    encoded: bytes
    dense: Handoff | None = None
    _doc: ParsedDocument | None = field(default=None, repr=False)

    def document(self) -> ParsedDocument:
        if self._doc is None:
            self._doc = decode(self.encoded)
        return self._doc

    def close(self) -> None:
        """Stop what still runs for this result (the LSA build) and remove its files."""
        if self.dense is not None:
            self.dense.close()


def _report(progress: Progress, done: int, page: int, total: int, ocr: bool) -> None:
    fraction = READ_START + (READ_END - READ_START) * (done - 1) / max(total, 1)
    progress(fraction, f"{'reading page' if not ocr else 'OCR of page'} {page} of {total}")


def read_pdf(
    data: bytes, name: str, config: EngineConfig, progress: Progress, dense_to: Path | None = None,
    keyword_to: Path | None = None,
) -> ReadResult:  # fmt: skip
    """Profile and parse ``data``, in a bounded worker process where the platform allows it.

    With ``dense_to``, the worker goes on to build the LSA into that file after returning the parse, and
    with ``keyword_to`` as well, a process it forks builds the keyword index into that folder at the same
    time: the caller's interpreter stays free for the first question (``ReadResult.dense``, a Handoff).
    Raises the parsing errors (NotAPdfError, EncryptedPdfError, NoTextLayerError,
    DocumentTooLargeError) and DocumentTooLargeError for a page over a time or memory limit.
    """
    if config.library.isolate_parsing and _can_fork():
        return _read_in_worker(data, name, config, progress, dense_to, keyword_to)
    profile = probe_pdf(data, name, config)
    doc = parse_pdf(data, name, config, lambda page, total, ocr: _report(progress, page, page, total, ocr))
    profile, doc = with_ocr_pages(profile, doc)
    return ReadResult(profile, encode(doc))  # decoded when needed, so it equals what is read back from disk


def _can_fork() -> bool:
    return hasattr(os, "fork") and "fork" in multiprocessing.get_all_start_methods()


@dataclass
class _Watch:
    """The page each reader of the worker is on, and until when the worker may stay silent."""

    limits: LibraryConfig
    started: float = field(default_factory=time.monotonic)
    readers: dict[int, tuple[int, bool, float]] = field(default_factory=dict)  # pid -> page, ocr, since
    pages_started: int = 0
    last_message: float = 0.0
    finishing: bool = False
    """Every reader is done: the worker finishes the parse alone."""

    def __post_init__(self) -> None:
        self.last_message = self.started

    def saw_page(self, page: int, ocr: bool, reader: int) -> None:
        now = time.monotonic()
        if reader != PROBE and not ocr:
            self.pages_started += 1
        self.readers[reader] = (page, ocr, now)
        self.last_message = now

    def _allowance(self, ocr: bool) -> float:
        return self.limits.max_ocr_page_seconds if ocr else self.limits.max_page_seconds

    def _stuck(self) -> tuple[int, bool, float]:
        """The page whose time runs out first (after the last page: the finishing work since then)."""
        if not self.readers:
            return 0, False, self.last_message + self.limits.max_page_seconds
        return min(((p, o, since + self._allowance(o)) for p, o, since in self.readers.values()), key=lambda x: x[2])

    def wait_seconds(self) -> float:
        return min(self._stuck()[2], self.started + self.limits.max_parse_seconds) - time.monotonic()

    def where(self) -> str:
        page = self._stuck()[0]
        return f"page {page}" if page else "opening the file"

    def timeout_error(self) -> DocumentTooLargeError:
        if time.monotonic() >= self.started + self.limits.max_parse_seconds:
            return DocumentTooLargeError(
                f"parsing took longer than {self.limits.max_parse_seconds:g} s (stopped at {self.where()}); "
                "split the PDF into smaller files or raise the parse time limit"
            )
        _, ocr, _ = self._stuck()
        action = "OCR of" if ocr else "reading"
        return DocumentTooLargeError(
            f"{action} {self.where()} took longer than {self._allowance(ocr):g} s (a damaged or hostile PDF); "
            "export the document again or split that page out"
        )

    def memory_error(self) -> DocumentTooLargeError:
        return DocumentTooLargeError(
            f"{self.where()} needs more than {self.limits.max_parse_memory_mb} MB of memory to read "
            "(a damaged or hostile PDF); export the document again or split that page out"
        )


def _read_in_worker(
    data: bytes, name: str, config: EngineConfig, progress: Progress, dense_to: Path | None, keyword_to: Path | None
) -> ReadResult:
    if config.library.load_after_ingest or threading.active_count() > 1:  # see pdf_worker.import_builders
        import_builders(dense_to is not None)
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    for stream in (sys.stdout, sys.stderr):  # a forked child would flush the parent's buffered output again
        with contextlib.suppress(OSError, ValueError, AttributeError):
            stream.flush()
    worker = context.Process(
        target=run_worker,
        args=(send, data, name, config, dense_to, os.getpid(), keyword_to),
        name="loupe-pdf-reader",
        daemon=True,
    )
    gc.freeze()  # the worker's garbage collector then leaves the inherited objects (and their pages) alone
    try:
        worker.start()
    finally:
        gc.unfreeze()
    send.close()
    result: ReadResult | None = None
    try:
        result = _supervise(worker, receive, _Watch(config.library), progress)
        if dense_to is not None:
            result.dense = Handoff(worker, receive, dense_to, keyword_to if dense_to is not None else None)
        return result
    finally:
        if result is None or result.dense is None:
            _stop(worker)
            receive.close()


def _stop(worker: Any) -> None:
    """Stop the worker and its helper (they form one process group led by the worker)."""
    if worker.pid is not None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            if worker.is_alive():
                os.killpg(worker.pid, signal.SIGKILL)
    worker.join(10)


def _supervise(worker: Any, receive: Connection, watch: _Watch, progress: Progress) -> ReadResult:
    while True:
        wait = watch.wait_seconds()
        if wait <= 0:
            raise watch.timeout_error()
        if not receive.poll(wait):
            continue
        try:
            message = receive.recv()
        except (EOFError, OSError):
            worker.join(5)
            raise _died(worker.exitcode, watch) from None
        kind = message[0]
        if kind == "probe":
            watch.saw_page(message[1], False, PROBE)
        elif kind == "page":
            page, total, ocr, reader = message[1:]
            watch.readers.pop(PROBE, None)  # the probe is over
            watch.saw_page(page, ocr, reader)
            _report(progress, watch.pages_started, page, total, ocr)
        elif kind == "reader-done":
            watch.readers.pop(message[1], None)
            watch.readers.pop(PROBE, None)  # the worker probes before it reads: a reader done has probed
            watch.last_message = time.monotonic()
            if not watch.finishing and not set(watch.readers) - {PROBE}:
                watch.finishing = True
                _while_finishing()
        elif kind == "done":
            return ReadResult(message[1], message[2])
        elif kind == "error":
            raise message[1]
        elif kind == "memory":
            raise watch.memory_error()
        elif kind == "crash":
            logger.error("the PDF worker failed at %s: %s", watch.where(), message[1])
            raise DocumentError(
                f"this PDF could not be read ({watch.where()} failed: {message[1]}); export it again and retry"
            )


def _while_finishing() -> None:
    """Start the ``WHILE_FINISHING`` work in a daemon thread (nothing to start when none is registered)."""
    work = tuple(WHILE_FINISHING)
    if not work:
        return

    def run() -> None:
        for step in work:
            try:
                step()
            except Exception:
                logger.debug("work while the worker finishes the parse failed", exc_info=True)

    threading.Thread(target=run, name="loupe-while-finishing", daemon=True).start()


def _died(exitcode: int | None, watch: _Watch) -> DocumentError:
    logger.warning("the PDF worker died at %s (exit code %s)", watch.where(), exitcode)
    if exitcode is not None and exitcode < 0 and -exitcode in (9, 24):  # SIGKILL (memory), SIGXCPU (CPU time)
        return watch.memory_error() if -exitcode == 9 else watch.timeout_error()
    return DocumentError(
        f"reading {watch.where()} of this PDF crashed the reader (exit code {exitcode}); the file is damaged or "
        "hostile: export it again and retry"
    )
