"""Streamlit entry used by the browser test only while the real engine is not importable.

It swaps the engine's Library/answer/ensure_sample for the stand-ins in tests/app/fakes.py, then runs app.py.
"""

import runpy
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from tests.app import fakes  # noqa: E402

vars(engine).update(Library=fakes.FakeLibrary, answer=fakes.fake_answer, ensure_sample=fakes.fake_ensure_sample)
runpy.run_path(str(ROOT / "app.py"), run_name="__main__")
