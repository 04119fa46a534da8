"""Download buttons for a run's evidence pack (PDF, or Markdown with the page images inline)."""

from __future__ import annotations

import hashlib
import re

import streamlit as st

from engine import LoupeError, RunResult
from ui import safe, services


def pack_file_name(result: RunResult, fmt: str) -> str:
    """A safe file name for the pack: ``loupe-<run id>.<fmt>``."""
    run = re.sub(r"[^A-Za-z0-9-]", "", result.run_id) or "run"
    return f"loupe-{run}.{fmt}"


def download_buttons(result: RunResult, key: str) -> None:
    """Two download buttons side by side; a pack that cannot be built is a message, not a traceback."""
    left, right = st.columns(2)
    key_of = result.run_id or "unsaved-" + hashlib.sha256(result.model_dump_json().encode()).hexdigest()[:16]
    try:
        pdf = services.pack_bytes(key_of, "pdf", result)
        markdown = services.pack_bytes(key_of, "md", result)
    except LoupeError as error:
        st.error(f"The evidence pack could not be built: {safe.inline(str(error))}")
        return
    left.download_button("Evidence pack (PDF)", pdf, file_name=pack_file_name(result, "pdf"), mime="application/pdf",
                         key=f"{key}_pdf", icon=":material/picture_as_pdf:", width="stretch")  # fmt: skip
    right.download_button("Evidence pack (Markdown)", markdown, file_name=pack_file_name(result, "md"),
                          mime="text/markdown", key=f"{key}_md", icon=":material/description:", width="stretch")  # fmt: skip
