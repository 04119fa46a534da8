"""Untrusted text (PDF text, file names, questions, model output) made safe to render.

Every place the app shows such text goes through these helpers: ``md``/``inline`` escape Markdown
(including Streamlit's ``$`` math and ``:colour[...]`` directives), ``clip`` shortens it first.
"""

from __future__ import annotations

from engine import escape_inline, escape_markdown

QUESTION_ECHO_CHARS = 300
"""A question longer than this is echoed shortened, with the whole text one click away."""


def clip(text: str, limit: int) -> str:
    """``text`` on one line, cut to ``limit`` characters with an ellipsis."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: max(1, limit - 1)].rstrip() + "…"


def inline(text: str, limit: int | None = None) -> str:
    """One escaped line of Markdown, optionally clipped."""
    return escape_inline(clip(text, limit) if limit else text)


def md(text: str) -> str:
    """Escaped Markdown keeping the text's own line breaks."""
    return escape_markdown(text)
