"""``FallbackBackend(primary, fallback)``: run each step on the primary, and on the fallback when it fails.

The backend factory wraps every network backend in one, with the offline rules as the fallback, so a
network backend never calls another backend itself. A step the primary could not do is done by the
fallback and the reply says so once (``BackendReply.fallback``), with the primary's own reason.
"""

from __future__ import annotations

import logging
import time

from engine.contracts import Backend, BackendFallback, BackendReply, LlmUsage, TaskName, TaskRequest
from engine.contracts.backend import T
from engine.errors import BackendError, BackendStepError

logger = logging.getLogger(__name__)


class FallbackBackend:
    """``Backend`` that answers with ``primary`` and falls back to ``fallback`` step by step."""

    def __init__(self, primary: Backend, fallback: Backend) -> None:
        self.primary = primary
        self.fallback = fallback

    @property
    def name(self) -> str:
        """The primary's name: the run is recorded as the backend the user chose."""
        return self.primary.name

    def __repr__(self) -> str:
        return f"FallbackBackend({self.primary!r}, {self.fallback!r})"

    def run(self, task: TaskName, request: TaskRequest, output_type: type[T]) -> BackendReply[T]:
        """The primary's reply; when the primary raises, the fallback's value with the primary's cost and cause."""
        started = time.perf_counter()
        try:
            return self.primary.run(task, request, output_type)
        except Exception as exc:
            reason, spent = _cause(exc, time.perf_counter() - started)
        logger.warning("%s %s step fell back to %s: %s", self.primary.name, task, self.fallback.name, reason)
        stand_in = self.fallback.run(task, request, output_type)
        return BackendReply(value=stand_in.value, usage=spent, fallback=BackendFallback(task=task, reason=reason))


def _cause(exc: Exception, seconds: float) -> tuple[str, LlmUsage]:
    """A recordable reason for ``exc`` and what the failed step spent."""
    if isinstance(exc, BackendStepError):
        return exc.reason, exc.usage or LlmUsage(calls=1, seconds=round(seconds, 4))
    usage = LlmUsage(calls=1, seconds=round(seconds, 4))
    if isinstance(exc, BackendError):
        return str(exc), usage
    return f"{type(exc).__name__}: {str(exc)[:200]}", usage
