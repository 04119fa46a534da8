"""Backend tests start with no remembered output mode (the memory is per process, per endpoint)."""

from __future__ import annotations

import pytest

from engine.llm.structured import MODES


@pytest.fixture(autouse=True)
def _fresh_output_modes():
    MODES.clear()
    yield
    MODES.clear()
