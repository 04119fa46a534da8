"""Download buttons for a run's evidence pack (PDF, or Markdown with the page images inline)."""

from __future__ import annotations

import re

import streamlit as st

from engine import RunResult
from ui import services


def pack_file_name(result: RunResult, fmt: str) -> str:
    """A safe file name for the pack: ``loupe-<run id>.<fmt>``."""
    run = re.sub(r"[^A-Za-z0-9-]", "", result.run_id) or "run"
    return f"loupe-{run}.{fmt}"


def download_buttons(result: RunResult, key: str) -> None:
    """Two download buttons side by side. Each pack is built when its button is clicked (building both
    formats renders every evidence page: seconds on a loaded machine, on every draw of the page)."""
    left, right = st.columns(2)
    left.download_button("Evidence pack (PDF)", services.pack_data(result, "pdf"), file_name=pack_file_name(result, "pdf"),
                         mime="application/pdf", key=f"{key}_pdf", icon=":material/picture_as_pdf:", width="stretch",
                         on_click="ignore")  # fmt: skip
    right.download_button("Evidence pack (Markdown)", services.pack_data(result, "md"),
                          file_name=pack_file_name(result, "md"), mime="text/markdown", key=f"{key}_md",
                          icon=":material/description:", width="stretch", on_click="ignore")  # fmt: skip
