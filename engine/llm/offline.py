"""The offline backend: deterministic rules, no network, no model files.

It is what every demo and test runs on, and what the factory's ``FallbackBackend`` falls back to for a
step a network backend could not do. One ``run`` is one "call" in the usage count; tokens are
estimated from the request.
"""

from __future__ import annotations

import logging
import time

from engine.config import BackendConfig
from engine.contracts import BackendReply, LlmUsage, ParsedQuestion, TaskName, TaskRequest, check_output_type
from engine.contracts.backend import T
from engine.documents.text import estimate_tokens
from engine.llm.tasks import TASKS

logger = logging.getLogger(__name__)


def request_tokens(request: TaskRequest) -> int:
    """Estimated tokens a request would cost as a prompt."""
    parsed = request.parsed.model_dump_json() if isinstance(request.parsed, ParsedQuestion) else ""
    texts = [request.question, parsed, *(e.text for e in request.evidence), *request.gaps, *request.previous_queries,
             request.previous_question, request.previous_answer]  # fmt: skip
    return sum(estimate_tokens(t) for t in texts)


class OfflineBackend:
    """Rule-based backend implementing the ``Backend`` protocol."""

    name = "offline"

    def __init__(self, config: BackendConfig | None = None) -> None:
        """The rules take no settings; ``config`` is accepted so the factory builds every backend alike."""
        self.config = config

    def __repr__(self) -> str:
        return "OfflineBackend()"

    def run(self, task: TaskName, request: TaskRequest, output_type: type[T]) -> BackendReply[T]:
        """Apply the rule for ``task``; raises ``ValueError`` for a task/type mismatch."""
        check_output_type(task, output_type)
        started = time.perf_counter()
        value = TASKS[task].rule(request)
        seconds = time.perf_counter() - started
        usage = LlmUsage(
            calls=1,
            prompt_tokens=request_tokens(request),
            completion_tokens=estimate_tokens(value.model_dump_json()),
            seconds=round(seconds, 6),
        )
        logger.debug("offline %s in %.1f ms", task, seconds * 1000)
        return BackendReply(value=value, usage=usage)  # type: ignore[arg-type]
