"""Start and stop the Streamlit app for browser tests (a free port on 127.0.0.1, a given library)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = [Path("/usr/lib/chromium/chromium"), Path("/usr/bin/chromium")]
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]  # fmt: skip


def chromium() -> str:
    """Debian's chromium; skips the test when it is missing (fails in CI)."""
    for path in CHROMIUM:
        if path.exists():
            return str(path)
    if os.environ.get("CI"):
        pytest.fail("chromium is missing in CI (apt-get install -y chromium)")
    pytest.skip("chromium is not installed")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def streamlit_app(
    library: Path, log_path: Path, script: str = "app.py", address: str | None = "127.0.0.1",
    port: int | None = None, extra: tuple[str, ...] = (),
) -> Iterator[str]:  # fmt: skip
    """The app served from ``script`` on a free port (or ``port``) with ``LOUPE_LIBRARY=library``; yields its URL.
    ``address=None`` passes no address, so the repository's .streamlit/config.toml decides; ``extra`` are more
    ``streamlit run`` flags (for example ``--secrets.files``)."""
    port = port or free_port()
    env = {**os.environ, "LOUPE_LIBRARY": str(library), "LOUPE_NO_NETWORK": "1", "PYMUPDF_SUGGEST_LAYOUT_ANALYZER": "0"}
    log = log_path.open("a")
    flags = ["--server.address", address] if address else []
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", script, "--server.port", str(port), *flags,
         "--server.headless", "true", "--browser.gatherUsageStats", "false", *extra],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as reply:
                    if reply.status == 200:
                        break
            except OSError:
                time.sleep(0.3)
        else:
            pytest.fail("streamlit did not start: " + log_path.read_text()[-2000:])
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=15)
        log.close()
