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


PERF_ENV = "LOUPE_PERF_TESTS"
"""Wall-clock assertions run only when this is "1" (speed targets live in bench/, machines differ)."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Deselect tests marked ``perf`` unless ``LOUPE_PERF_TESTS=1``."""
    if os.environ.get(PERF_ENV, "").strip() == "1":
        return
    kept = [item for item in items if item.get_closest_marker("perf") is None]
    if len(kept) != len(items):
        config.hook.pytest_deselected(items=[item for item in items if item.get_closest_marker("perf") is not None])
        items[:] = kept


@pytest.fixture(params=[False, pytest.param(True, marks=pytest.mark.perf, id="timed")])
def timed(request: pytest.FixtureRequest) -> bool:
    """True in the ``perf``-marked variant of a test, where its wall-clock bound is asserted too."""
    return bool(request.param)
