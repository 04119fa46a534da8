"""Run a library ingest in a child process with memory and time limits (for PDF bombs and kills)."""

from __future__ import annotations

import contextlib
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from engine.config import REPO_ROOT

CHILD = r"""
import json, sys
from engine.config import EngineConfig, LibraryConfig
from engine.errors import DocumentError, LoupeError
from engine.library.local import Library

path, name, library, max_pages = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
config = EngineConfig(library=LibraryConfig(path=library, max_pages=max_pages))
def progress(fraction, message):
    sys.stdout.write(json.dumps({"progress": fraction}) + "\n"); sys.stdout.flush()
try:
    entry = Library(config).ingest(open(path, "rb").read(), name, progress=progress)
    out = {"ok": True, "doc_id": entry.doc_id, "pages": entry.total_pages}
except LoupeError as error:
    out = {"ok": False, "error": type(error).__name__, "message": str(error),
           "is_document_error": isinstance(error, DocumentError)}
sys.stdout.write(json.dumps(out) + "\n")
"""


def _limit(memory_mb: int):
    def apply() -> None:
        limit = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    return apply


def child_command(pdf: Path, name: str, library_dir: Path, max_pages: int = 1500) -> list[str]:
    return [sys.executable, "-c", CHILD, str(pdf), name, str(library_dir), str(max_pages)]


def child_env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO_ROOT)}


def ingest_in_child(
    data: bytes, name: str, library_dir: Path, *, memory_mb: int = 3000, timeout: float = 60, max_pages: int = 1500
) -> dict:
    """Ingest ``data`` in a child limited to ``memory_mb`` MB; the child's last JSON line, or
    ``{"crashed": ...}`` when it died, ran out of memory or time."""
    with tempfile.NamedTemporaryFile(suffix=".pdf", delete=False) as handle:
        handle.write(data)
    try:
        proc = subprocess.run(
            child_command(Path(handle.name), name, library_dir, max_pages),
            cwd=REPO_ROOT, env=child_env(), capture_output=True, text=True, timeout=timeout,
            preexec_fn=_limit(memory_mb),
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        return {"crashed": f"timed out after {timeout}s"}
    finally:
        os.unlink(handle.name)
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{") and '"progress"' not in line]
    if proc.returncode != 0 or not lines:
        return {"crashed": f"rc={proc.returncode}", "stderr": proc.stderr[-2000:]}
    return json.loads(lines[-1])


def _alive_with(marker: str) -> list[int]:
    """Processes (not zombies) whose command line holds ``marker``, this test process excluded."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if marker in command and state not in ("Z", "X"):
            found.append(int(entry.name))
    return found


def lingering(marker: str, grace: float = 15.0) -> list[int]:
    """Processes a killed child left running: those whose command line holds ``marker`` (the forked PDF workers
    keep their parent's command line, which names the test's own library folder) and that are still alive after
    ``grace`` seconds. They are then killed, so a failing test leaves nothing behind either."""
    if not Path("/proc").is_dir():
        return []
    deadline = time.monotonic() + grace
    while (left := _alive_with(marker)) and time.monotonic() < deadline:
        time.sleep(0.2)
    for pid in left:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    return left
