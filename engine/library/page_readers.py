"""The PDF worker's page readers: a long document is read by the worker and a helper it forks, together.

Documents of ``SPLIT_MIN_PAGES`` pages or more are read by two processes: the worker forks a helper (safe: the
worker has a single thread) and both take the pages in blocks of ``CLAIM_PAGES`` from one queue (a pipe filled
with the blocks' numbers before the fork: a read of one number is atomic), until none is left; the helper hands
its lines back through a pipe and the worker puts every page in its place. Whichever reader is free takes the
next block, so neither waits for the other at the end (one half of a manual can take a fifth longer than the
other), and the worker's other work at the start (the probe of the document) is made up by the helper meanwhile.
Both report their pages to the parent themselves (a message is one small atomic write), so the per-page deadline
watches both. The helper asks the kernel (Linux ``PR_SET_PDEATHSIG``) to end it with the worker.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import pickle
import signal
import struct
import sys
from collections.abc import Callable, Iterator
from multiprocessing.connection import Connection
from typing import Any

import pymupdf

from engine.config import EngineConfig
from engine.documents.parsing import PageCallback, RawPage, is_memory_error, read_pages
from engine.errors import DocumentError, LoupeError

SPLIT_MIN_PAGES = 40
"""Documents this long are read by two processes (below, forking a helper costs more than it saves)."""
CLAIM_PAGES = 4
"""Pages a reader takes from the queue at a time."""
_BLOCK = struct.Struct("<I")
_PR_SET_PDEATHSIG = 1
"""prctl option: the signal the kernel sends this process when the thread that forked it ends."""


def die_with_parent() -> None:
    """Ask the kernel to kill this process when its parent goes (Linux; elsewhere nothing happens).

    Only for processes forked by the worker's only thread (which lives as long as the worker): the kernel sends
    the signal when the *thread* that forked the process ends. The worker itself is forked by whatever thread
    ingests (a Streamlit script thread ends while the worker still builds the dense index), so it watches its
    parent instead.
    """
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def outcome(exc: BaseException) -> tuple[Any, ...]:
    """The message reporting a failure: a LoupeError as it is, else a memory failure or a crash."""
    if isinstance(exc, LoupeError):
        return ("error", exc)
    return ("memory",) if is_memory_error(exc) else ("crash", f"{type(exc).__name__}: {exc}")


def _finished(conn: Connection) -> None:
    """Tell the parent this process read its last page (its per-page deadline no longer applies)."""
    conn.send(("reader-done", os.getpid()))


def two_readers(
    conn: Connection, first: Callable[[], None], pdf: pymupdf.Document, config: EngineConfig,
    on_page: PageCallback | None,
) -> tuple[list[RawPage], list[int]]:  # fmt: skip
    """Read the pages in this process and a forked helper, each taking the next pages free; lines come back in
    page order. ``first`` (the probe) runs in this process before it reads: after the fork for a long document,
    so the helper reads meanwhile."""
    total = pdf.page_count
    if total < SPLIT_MIN_PAGES:
        first()
        pages = read_pages(pdf, config, on_page)
        _finished(conn)
        return pages
    queue = _page_queue(total)
    receive_fd, send_fd = os.pipe()
    helper = os.fork()
    if helper == 0:
        os.close(receive_fd)
        die_with_parent()
        _helper(conn, pdf, config, on_page, queue, send_fd)
    os.close(send_fd)
    try:
        first()
        taken: list[int] = []
        mine, my_ocr = read_pages(pdf, config, on_page, _claimed(queue, total, taken))
        _finished(conn)
        theirs, their_ocr = _collect(receive_fd, helper)
    finally:
        os.close(queue)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(helper, os.WNOHANG)
    by_number = dict(zip(taken, mine, strict=True)) | theirs
    return [by_number[number] for number in range(total)], sorted(my_ocr + their_ocr)


def _page_queue(total: int) -> int:
    """A pipe holding the first page of every block (the read end, its write end closed: empty means done)."""
    read_end, write_end = os.pipe()
    try:
        os.write(write_end, b"".join(_BLOCK.pack(first) for first in range(0, total, CLAIM_PAGES)))
    finally:
        os.close(write_end)
    return read_end


def _claimed(queue: int, total: int, taken: list[int]) -> Iterator[int]:
    """The pages this reader takes from ``queue``, block by block, each noted in ``taken`` as it is read."""
    while len(block := os.read(queue, _BLOCK.size)) == _BLOCK.size:
        (first,) = _BLOCK.unpack(block)
        for number in range(first, min(first + CLAIM_PAGES, total)):
            taken.append(number)
            yield number


def _helper(
    conn: Connection, pdf: pymupdf.Document, config: EngineConfig, on_page: PageCallback | None, queue: int, fd: int
) -> None:
    """The helper's body: read the pages it takes, send them (by number) through ``fd``, exit without cleanup."""
    code = 0
    try:
        taken: list[int] = []
        pages, ocr = read_pages(pdf, config, on_page, _claimed(queue, pdf.page_count, taken))
        result: tuple[Any, ...] = ("ok", dict(zip(taken, pages, strict=True)), ocr)
        _finished(conn)
    except BaseException as exc:
        result = outcome(exc)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL))
    except BaseException:
        code = 1
    os._exit(code)


def _collect(fd: int, helper: int) -> tuple[dict[int, RawPage], list[int]]:
    with os.fdopen(fd, "rb") as source:
        payload = source.read()
    _, status = os.waitpid(helper, 0)
    if not payload:
        raise DocumentError(
            f"reading the pages of the second reader crashed it (status {status}); the file is damaged or hostile: "
            "export it again and retry"
        )
    result = pickle.loads(payload)
    if result[0] == "ok":
        return result[1], result[2]
    if result[0] == "error":
        raise result[1]
    if result[0] == "memory":
        raise MemoryError("the pages of the second reader")
    raise DocumentError(f"this PDF could not be read (the second reader failed: {result[1]}); export it again")
