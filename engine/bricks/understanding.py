"""Understanding brick: a question in plain language -> ``ParsedQuestion`` via the backend."""

from __future__ import annotations

from engine.bricks.text import normalize_space
from engine.contracts import ParsedQuestion
from engine.errors import LoupeError
from engine.llm.base import Backend, BackendReply, TaskRequest


def understand(question: str, backend: Backend) -> BackendReply[ParsedQuestion]:
    """Parse ``question`` with ``backend``.

    Raises:
        LoupeError: the question is empty or only whitespace.
    """
    text = normalize_space(question or "")
    if not text:
        raise LoupeError("the question is empty; type a question first")
    return backend.run("parse_question", TaskRequest(question=text), ParsedQuestion)
