"""Run a command against a library folder that cannot be written.

As root (CI), permission bits do not stop writes, so the folder is bind-mounted read-only in a
private mount namespace (``unshare -m``) that only the command sees. As another user the folder's
write permission is removed for the command's duration. Tests skip when neither is possible.
"""

from __future__ import annotations

import functools
import os
import shutil
import stat
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from engine.config import REPO_ROOT

_MOUNT = 'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" && exec "$@"'


@functools.cache
def _namespaces_work() -> bool:
    if os.geteuid() != 0 or shutil.which("unshare") is None or shutil.which("mount") is None:
        return False
    probe = Path("/tmp")
    proc = subprocess.run(
        ["unshare", "-m", "sh", "-c", _MOUNT, str(probe), "sh", "-c", f"! touch {probe}/.loupe-ro-probe"],
        capture_output=True, timeout=30,
    )  # fmt: skip
    return proc.returncode == 0


def read_only_available() -> str | None:
    """None when a read-only run is possible here, else the reason it is not."""
    if os.geteuid() != 0 or _namespaces_work():
        return None
    return "needs unshare and mount (root) to mount the library read-only"


def _set_writable(folder: Path, writable: bool) -> None:
    for path in [folder, *folder.rglob("*")]:
        mode = path.stat().st_mode
        bits = stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH
        path.chmod(mode | stat.S_IWUSR if writable else mode & ~bits)


def run_read_only(library_dir: Path, argv: Sequence[str], timeout: float = 180) -> subprocess.CompletedProcess[str]:
    """``argv`` (run from the repository with LOUPE_LIBRARY=library_dir) while library_dir is read-only."""
    env = {**os.environ, "LOUPE_LIBRARY": str(library_dir), "PYTHONPATH": str(REPO_ROOT)}
    if os.geteuid() == 0:
        command = ["unshare", "-m", "sh", "-c", _MOUNT, str(library_dir), *argv]
        return subprocess.run(command, cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=timeout)
    _set_writable(library_dir, False)
    try:
        return subprocess.run(list(argv), cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=timeout)
    finally:
        _set_writable(library_dir, True)


def python_read_only(library_dir: Path, code: str, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    """Python ``code`` run in a fresh interpreter while library_dir is read-only."""
    return run_read_only(library_dir, [sys.executable, "-c", code], timeout)
