"""AppTest fixtures: a temporary library, and the real engine (or a stand-in until it is importable)."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

import engine

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def _real_engine() -> bool:
    try:
        importlib.import_module("engine.library.local")
        importlib.import_module("engine.api")
    except ImportError:
        return False
    return True


REAL_ENGINE = _real_engine()


@pytest.fixture
def app_engine(library_dir: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """'real' when the engine's Library and answer() import; else patches the stand-ins in tests/app/fakes."""
    if REAL_ENGINE:
        return "real"
    from tests.app import fakes

    names = vars(engine)  # setitem: getattr on the lazy module would try the missing import
    monkeypatch.setitem(names, "Library", fakes.FakeLibrary)
    monkeypatch.setitem(names, "open_library", fakes.FakeLibrary)
    monkeypatch.setitem(names, "answer", fakes.fake_answer)
    monkeypatch.setitem(names, "ensure_sample", fakes.fake_ensure_sample)
    return "fake"
