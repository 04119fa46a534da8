"""Shared test configuration: offline by default, a temporary library per test, the shared corpus."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("LOUPE_NO_NETWORK", "1")
os.environ.setdefault("PYMUPDF_SUGGEST_LAYOUT_ANALYZER", "0")

from engine.config import REPO_ROOT, EngineConfig, LibraryConfig

SHARED_DIR = REPO_ROOT.parent / "shared"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked ``perf`` assert wall-clock times: skipped unless LOUPE_PERF_TESTS=1."""
    if os.environ.get("LOUPE_PERF_TESTS") == "1":
        return
    skip = pytest.mark.skip(reason="wall-clock test; set LOUPE_PERF_TESTS=1 (speed targets live in bench/)")
    for item in items:
        if "perf" in item.keywords:
            item.add_marker(skip)


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
