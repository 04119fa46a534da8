"""Wall-clock assertions are deselected unless LOUPE_PERF_TESTS=1 (tests/conftest.py)."""

from __future__ import annotations

import os
import subprocess
import sys

from engine.config import REPO_ROOT

TARGET = "tests/retrieval/test_keyword.py::test_build_is_fast_enough"


def _collect(perf: str | None) -> str:
    env = {k: v for k, v in os.environ.items() if k != "LOUPE_PERF_TESTS"}
    if perf is not None:
        env["LOUPE_PERF_TESTS"] = perf
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", TARGET],
        cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    return proc.stdout


def test_perf_tests_are_deselected_by_default():
    assert "1 deselected" in _collect(None)


def test_perf_tests_run_when_asked():
    out = _collect("1")
    assert "test_build_is_fast_enough" in out and "deselected" not in out
