"""Shared test configuration: offline by default, a temporary library per test, the shared corpus."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("LOUPE_NO_NETWORK", "1")
os.environ.setdefault("PYMUPDF_SUGGEST_LAYOUT_ANALYZER", "0")

from engine.config import REPO_ROOT, EngineConfig, LibraryConfig

SHARED_DIR = REPO_ROOT.parent / "shared"


@pytest.fixture
def shared_dir() -> Path:
    """The read-only ../shared folder (corpus and eval sets); skips the test when it is absent."""
    if not (SHARED_DIR / "corpus").is_dir():
        pytest.skip("../shared/corpus is not available on this machine")
    return SHARED_DIR


@pytest.fixture
def library_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh, empty library folder; LOUPE_LIBRARY points at it for the test's duration."""
    folder = tmp_path / "library"
    folder.mkdir()
    monkeypatch.setenv("LOUPE_LIBRARY", str(folder))
    return folder


@pytest.fixture
def config(library_dir: Path) -> EngineConfig:
    """The default engine configuration, with the library in a temporary folder."""
    return EngineConfig(library=LibraryConfig(path=str(library_dir)))


ONE_WORKER_GROUPS = {"e2e": "browser", "real_llm": "real_llm"}
"""Test folders whose tests share one worker under ``-n 2 --dist loadgroup`` (pyproject's addopts): two
Streamlit servers and two Chromiums at once would overload two cores, and the one real model served on
127.0.0.1 answers one request at a time (a second worker's requests would queue into its timeouts)."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Group the tests that must share a worker. (Tests assert no wall-clock limits: bench/ prints timings.)"""
    for item in items:
        folder = item.path.parent.name
        if folder in ONE_WORKER_GROUPS and item.path.parent.parent.name == "tests":
            item.add_marker(pytest.mark.xdist_group(ONE_WORKER_GROUPS[folder]))


@pytest.fixture(scope="session")
def pg_server() -> str:
    """The PostgreSQL test server's URL ($LOUPE_TEST_DATABASE_URL); skips without one, except in CI (fails)."""
    from tests.pg import server_url

    return server_url()


@pytest.fixture
def pg_url(pg_server: str, monkeypatch: pytest.MonkeyPatch):
    """A fresh, empty database for this test; LOUPE_DATABASE_URL points at it (dropped afterwards)."""
    from tests.pg import fresh_database

    yield from fresh_database(pg_server, monkeypatch)
