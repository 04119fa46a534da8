"""A killed ingest's staging folder is removed by the next ingest, not an hour later."""

from __future__ import annotations

import json
import os
import signal
import subprocess
from pathlib import Path

import pytest

from engine.config import EngineConfig
from engine.library.local import Library
from tests.reliability import pdfs
from tests.reliability.subproc import child_command, child_env, lingering


def _staging(library_dir: Path) -> list[Path]:
    return sorted(library_dir.glob(".staging-*"))


@pytest.mark.timeout(300)
def test_killed_ingest_leaves_no_staging_folder_behind(
    tmp_path: Path, library_dir: Path, config: EngineConfig, two_thousand_pages: bytes
) -> None:
    path = tmp_path / "register.pdf"
    path.write_bytes(two_thousand_pages)
    proc = subprocess.Popen(
        child_command(path, "register.pdf", library_dir, max_pages=2500),
        env=child_env(), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    assert proc.stdout is not None
    for line in proc.stdout:
        if json.loads(line).get("progress", 0) >= 0.15:  # parsing: the staging folder exists
            os.kill(proc.pid, signal.SIGKILL)
            break
    proc.wait(timeout=60)
    assert lingering(str(library_dir)) == [], "the killed ingest's PDF worker outlived it"
    assert _staging(library_dir), "the child was not killed while staging (nothing to clean up)"
    library = Library(config)
    library.ingest(pdfs.text_pdf(), "heron.pdf")  # any later ingest cleans up
    assert library.wait_for_background(60)  # this ingest's own dense index hand-off is gone once built
    assert _staging(library_dir) == [], "the killed ingest's staging folder is still there"


def test_a_live_writers_staging_folder_is_kept(library_dir: Path, config: EngineConfig) -> None:
    import socket

    live = library_dir / f".staging-{socket.gethostname()}-{os.getppid()}-0123456789abcdef"
    foreign = library_dir / ".staging-another-host-1-0123456789abcdef"
    for folder in (live, foreign):
        folder.mkdir()
    Library(config).ingest(pdfs.text_pdf(), "heron.pdf")
    assert live.is_dir() and foreign.is_dir(), "a staging folder of a running (or unknown) writer was removed"
