"""Read an untrusted PDF (probe + parse) in a forked worker process with memory, CPU and time limits.

No single PDF can take the server down: the worker may use at most ``max_parse_memory_mb`` beyond
what it inherits (a page needing more fails inside the worker with a clear error), and a page that
runs longer than ``max_page_seconds`` (``max_ocr_page_seconds`` while it is OCR'd) or a parse
longer than ``max_parse_seconds`` is stopped by killing the worker. The structural guards of
:mod:`engine.bricks.pdf_guard` refuse the common bombs in milliseconds before that. Forking costs
a few milliseconds (no interpreter start, nothing re-imported); the result comes back in the
compact ``parsed.json`` layout, which the library writes as it is. Where fork does not exist, or
``isolate_parsing`` is off, the same reading runs in-process, bounded by the guards and the total
parse time only.
"""

from __future__ import annotations

import contextlib
import gc
import logging
import multiprocessing
import os
import resource
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from engine.bricks.parsed_codec import decode, encode
from engine.bricks.parsing import is_memory_error, parse_pdf
from engine.bricks.profile import probe_pdf
from engine.config import EngineConfig, LibraryConfig
from engine.contracts import DocumentProfile, ParsedDocument
from engine.errors import DocumentError, DocumentTooLargeError, LoupeError

logger = logging.getLogger(__name__)

Progress = Callable[[float, str], None]
READ_START, READ_END = 0.1, 0.85
"""Share of the ingest progress bar the reading of pages covers."""


@dataclass
class ReadResult:
    """A read PDF: its profile (OCR'd pages included) and the parse, in the on-disk layout."""

    profile: DocumentProfile
    encoded: bytes
    _doc: ParsedDocument | None = field(default=None, repr=False)

    def document(self) -> ParsedDocument:
        if self._doc is None:
            self._doc = decode(self.encoded)
        return self._doc


def _finish(profile: DocumentProfile, doc: ParsedDocument) -> tuple[DocumentProfile, ParsedDocument]:
    if not doc.ocr_pages:
        return profile, doc
    return profile.model_copy(update={"ocr_pages": doc.ocr_pages, "is_likely_scanned": True}), doc


def _page_progress(progress: Progress) -> Callable[[int, int, bool], None]:
    def report(page: int, total: int, ocr: bool) -> None:
        fraction = READ_START + (READ_END - READ_START) * (page - 1) / max(total, 1)
        progress(fraction, f"{'reading page' if not ocr else 'OCR of page'} {page} of {total}")

    return report


def read_pdf(data: bytes, name: str, config: EngineConfig, progress: Progress) -> ReadResult:
    """Profile and parse ``data``, in a bounded worker process where the platform allows it.

    Raises the parsing errors (NotAPdfError, EncryptedPdfError, NoTextLayerError,
    DocumentTooLargeError) and DocumentTooLargeError for a page over a time or memory limit.
    """
    if config.library.isolate_parsing and _can_fork():
        return _read_in_worker(data, name, config, progress)
    profile = probe_pdf(data, name, config)
    profile, doc = _finish(profile, parse_pdf(data, name, config, _page_progress(progress)))
    return ReadResult(profile, encode(doc))  # decoded when needed, so it equals what is read back from disk


def _can_fork() -> bool:
    return hasattr(os, "fork") and "fork" in multiprocessing.get_all_start_methods()


# --------------------------------------------------------------------------------------------
# The worker
# --------------------------------------------------------------------------------------------


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


def _worker(conn: Connection, data: bytes, name: str, config: EngineConfig) -> None:
    _limit_resources(config.library)
    message: tuple[Any, ...]
    try:
        profile = probe_pdf(data, name, config, lambda page: conn.send(("probe", page)))
        doc = parse_pdf(data, name, config, lambda page, total, ocr: conn.send(("page", page, total, ocr)))
        profile, doc = _finish(profile, doc)
        message = ("done", profile, encode(doc))
    except LoupeError as exc:
        message = ("error", exc)
    except BaseException as exc:  # anything else is reported, never a silent death
        message = ("memory",) if is_memory_error(exc) else ("crash", f"{type(exc).__name__}: {exc}")
    with contextlib.suppress(OSError, ValueError, MemoryError):  # the parent is gone or stopped listening
        conn.send(message)
    conn.close()


@dataclass
class _Watch:
    """What the worker said last, and until when it may stay silent."""

    limits: LibraryConfig
    started: float = field(default_factory=time.monotonic)
    page: int = 0
    total: int = 0
    ocr: bool = False
    deadline: float = 0.0

    def __post_init__(self) -> None:
        self.deadline = self.started + self.limits.max_page_seconds

    def saw_page(self, page: int, total: int, ocr: bool) -> None:
        self.page, self.total, self.ocr = page, total, ocr
        allowance = self.limits.max_ocr_page_seconds if ocr else self.limits.max_page_seconds
        self.deadline = time.monotonic() + allowance

    def wait_seconds(self) -> float:
        return min(self.deadline, self.started + self.limits.max_parse_seconds) - time.monotonic()

    def where(self) -> str:
        return f"page {self.page}" if self.page else "opening the file"

    def timeout_error(self) -> DocumentTooLargeError:
        if time.monotonic() >= self.started + self.limits.max_parse_seconds:
            return DocumentTooLargeError(
                f"parsing took longer than {self.limits.max_parse_seconds:g} s (stopped at {self.where()}); "
                "split the PDF into smaller files or raise the parse time limit"
            )
        seconds = self.limits.max_ocr_page_seconds if self.ocr else self.limits.max_page_seconds
        action = "OCR of" if self.ocr else "reading"
        return DocumentTooLargeError(
            f"{action} {self.where()} took longer than {seconds:g} s (a damaged or hostile PDF); "
            "export the document again or split that page out"
        )

    def memory_error(self) -> DocumentTooLargeError:
        return DocumentTooLargeError(
            f"{self.where()} needs more than {self.limits.max_parse_memory_mb} MB of memory to read "
            "(a damaged or hostile PDF); export the document again or split that page out"
        )


def _read_in_worker(data: bytes, name: str, config: EngineConfig, progress: Progress) -> ReadResult:
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    for stream in (sys.stdout, sys.stderr):  # a forked child would flush the parent's buffered output again
        with contextlib.suppress(OSError, ValueError, AttributeError):
            stream.flush()
    worker = context.Process(target=_worker, args=(send, data, name, config), name="loupe-pdf-reader", daemon=True)
    gc.freeze()  # the worker's garbage collector then leaves the inherited objects (and their pages) alone
    try:
        worker.start()
    finally:
        gc.unfreeze()
    send.close()
    try:
        return _supervise(worker, receive, _Watch(config.library), progress)
    finally:
        if worker.is_alive():
            worker.kill()
        worker.join(10)
        receive.close()


def _supervise(worker: Any, receive: Connection, watch: _Watch, progress: Progress) -> ReadResult:
    report = _page_progress(progress)
    while True:
        wait = watch.wait_seconds()
        if wait <= 0:
            worker.kill()
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
            watch.saw_page(message[1], 0, False)
        elif kind == "page":
            watch.saw_page(*message[1:])
            report(*message[1:])
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


def _died(exitcode: int | None, watch: _Watch) -> DocumentError:
    logger.warning("the PDF worker died at %s (exit code %s)", watch.where(), exitcode)
    if exitcode is not None and exitcode < 0 and -exitcode in (9, 24):  # SIGKILL (memory), SIGXCPU (CPU time)
        return watch.memory_error() if -exitcode == 9 else watch.timeout_error()
    return DocumentError(
        f"reading {watch.where()} of this PDF crashed the reader (exit code {exitcode}); the file is damaged or "
        "hostile: export it again and retry"
    )
