"""Fixtures of the reliability suite: hostile PDFs (cached per session), fault servers, helpers."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from engine.config import REPO_ROOT, BackendConfig, EngineConfig, LibraryConfig
from tests.reliability import pdfs
from tests.reliability.fault_server import FaultServer

SECRET = "sk-test-SECRET-123"


def snapshot(folder: Path) -> dict[str, int]:
    """Every file under ``folder`` (relative path -> size); ignores lock files, and files that vanish
    while the folder is walked (a background index build renames its temporary files into place)."""
    if not folder.exists():
        return {}
    found: dict[str, int] = {}
    for path in folder.rglob("*"):
        if path.name.endswith(".lock"):
            continue
        try:
            if path.is_file():
                found[str(path.relative_to(folder))] = path.stat().st_size
        except FileNotFoundError:
            continue
    return found


def entry_dirs(root: Path) -> list[Path]:
    """Folders of the library that carry a manifest (the library's definition of an entry). Read one level down
    (an entry's folder holds its manifest): a background index build's staging folder may vanish mid-walk, and a
    recursive walk would trip over it."""
    return sorted(p for p in root.iterdir() if (p / "manifest.json").is_file()) if root.is_dir() else []


def net_config(library_dir: Path, base_url: str, *, timeout: float = 1.0, retries: int = 1) -> EngineConfig:
    """An engine configuration that talks to ``base_url`` with the test key."""
    return EngineConfig(
        library=LibraryConfig(path=str(library_dir)),
        backend=BackendConfig(
            kind="openai", base_url=base_url, api_key=SECRET, timeout_seconds=timeout, max_retries=retries,
            model="fault-model",
        ),
    )  # fmt: skip


def run_cli(args: list[str], library_dir: Path, timeout: float = 120, **env: str) -> subprocess.CompletedProcess[str]:
    """``python -m engine ARGS`` in a subprocess with the library at ``library_dir``."""
    child_env = {**os.environ, "LOUPE_LIBRARY": str(library_dir), **env}
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        cwd=REPO_ROOT, env=child_env, capture_output=True, text=True, timeout=timeout,
    )  # fmt: skip


@pytest.fixture(scope="session")
def two_thousand_pages() -> bytes:
    return pdfs.many_pages_pdf(2000)


@pytest.fixture(scope="session")
def content_bomb() -> bytes:
    return pdfs.huge_content_stream_pdf(200)


@pytest.fixture(scope="session")
def many_page_objects() -> bytes:
    return pdfs.many_page_objects_pdf(200_000)


@pytest.fixture
def fault_server() -> Iterator[Callable[..., FaultServer]]:
    """Factory: ``fault_server(mode, **options)`` starts a server that is stopped after the test."""
    started: list[FaultServer] = []

    def start(mode: str, **options: object) -> FaultServer:
        server = FaultServer(mode, **options).__enter__()  # type: ignore[arg-type]
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


@pytest.fixture
def outside(tmp_path: Path, library_dir: Path) -> Callable[[], dict[str, int]]:
    """Snapshot of everything under tmp_path except the library: nothing may be written there."""

    def files() -> dict[str, int]:
        return {k: v for k, v in snapshot(tmp_path).items() if not k.startswith(library_dir.name + os.sep)}

    return files


@pytest.fixture
def library_only_config(library_dir: Path) -> Callable[..., EngineConfig]:
    """Factory of offline configurations with library limits changed."""

    def make(**limits: object) -> EngineConfig:
        return EngineConfig(library=LibraryConfig(path=str(library_dir), **limits))  # type: ignore[arg-type]

    return make
