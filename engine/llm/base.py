"""The narrow LLM backend protocol, the request/reply types and the "no network" switch.

A backend gets a task name, a ``TaskRequest`` and the pydantic type the task must produce, and returns a
``BackendReply`` holding a validated instance, what the call cost, and (for network backends) whether
the offline rules had to stand in for that step.

Network switch: when the environment sets ``LOUPE_NO_NETWORK=1`` (the test suite does), no network
backend may be built, except for an endpoint on the loopback interface inside ``allow_network()``
(tests opt in to talk to their stub server). Outside that variable everything is allowed unless a
caller forbids it with ``allow_network(False)``.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar
from urllib.parse import urlparse

from pydantic import BaseModel, Field

from engine.config import BackendConfig
from engine.contracts import (
    AnswerWithEvidence,
    BackendFallback,
    BackendName,
    Contract,
    EvidenceItem,
    ExecutionPlan,
    LlmUsage,
    ParsedQuestion,
    SubQueryPlan,
    SufficiencyJudgement,
    TaskName,
)
from engine.errors import BackendUnavailableError

T = TypeVar("T", bound=BaseModel)

TASK_OUTPUTS: dict[str, type[BaseModel]] = {
    "parse_question": ParsedQuestion,
    "plan_subqueries": SubQueryPlan,
    "judge_sufficiency": SufficiencyJudgement,
    "answer": AnswerWithEvidence,
    "make_plan": ExecutionPlan,
}
"""The output type each task produces."""


class TaskRequest(Contract):
    """Everything a backend may read for one task."""

    question: str
    parsed: ParsedQuestion | None = None
    evidence: tuple[EvidenceItem, ...] = ()
    gaps: tuple[str, ...] = ()
    previous_queries: tuple[str, ...] = ()
    max_sentences: int = 5
    max_citations: int = 6
    time_limit_seconds: float | None = Field(
        None, ge=0, description="Wall-clock seconds this step may take (the run's remaining time budget)."
    )


@dataclass(frozen=True)
class BackendReply(Generic[T]):
    """A validated task output, its cost, and the fallback record when offline rules stood in."""

    value: T
    usage: LlmUsage
    fallback: BackendFallback | None = None


class Backend(Protocol):
    """What the composition layer needs of a backend."""

    name: BackendName

    def run(self, task: TaskName, request: TaskRequest, output_type: type[T]) -> BackendReply[T]:
        """Run ``task`` and return an instance of ``output_type``."""
        ...


def check_output_type(task: str, output_type: type[BaseModel]) -> None:
    """Raise ``ValueError`` when ``output_type`` is not the type ``task`` produces."""
    expected = TASK_OUTPUTS.get(task)
    if expected is None:
        raise ValueError(f"unknown backend task {task!r}; expected one of {', '.join(TASK_OUTPUTS)}")
    if not issubclass(expected, output_type):
        raise ValueError(f"task {task!r} produces {expected.__name__}, not {output_type.__name__}")


# --------------------------------------------------------------------------------------------
# Network switch
# --------------------------------------------------------------------------------------------

_LOCK = threading.Lock()
_OVERRIDES: list[bool] = []
_LOOPBACK = {"127.0.0.1", "localhost", "::1"}


def _forbidden_by_env() -> bool:
    return os.environ.get("LOUPE_NO_NETWORK", "").strip().lower() in ("1", "true", "yes")


def network_allowed() -> bool:
    """Whether network backends may be used right now (innermost ``allow_network`` wins)."""
    with _LOCK:
        if _OVERRIDES:
            return _OVERRIDES[-1]
    return not _forbidden_by_env()


@contextmanager
def allow_network(flag: bool = True) -> Iterator[None]:
    """Allow (or with ``False`` forbid) network backends inside the block.

    Under ``LOUPE_NO_NETWORK=1`` an opted-in block still only reaches loopback endpoints.
    """
    with _LOCK:
        _OVERRIDES.append(flag)
    try:
        yield
    finally:
        with _LOCK:
            _OVERRIDES.pop()


def is_loopback(base_url: str | None) -> bool:
    """True when ``base_url`` points at this machine (127.0.0.1, localhost, ::1)."""
    if not base_url:
        return False
    host = urlparse(base_url).hostname or ""
    return host.lower() in _LOOPBACK


def ensure_network(base_url: str | None) -> None:
    """Raise ``BackendUnavailableError`` when a network backend for ``base_url`` may not be used here."""
    if not network_allowed():
        raise BackendUnavailableError(
            "network backends are switched off here (LOUPE_NO_NETWORK=1); use the offline backend, "
            "or unset LOUPE_NO_NETWORK to reach an OpenAI-compatible endpoint"
        )
    if _forbidden_by_env() and not is_loopback(base_url):
        raise BackendUnavailableError(
            "with LOUPE_NO_NETWORK=1 only a local endpoint (127.0.0.1 or localhost) may be used; "
            "unset LOUPE_NO_NETWORK to reach a remote endpoint"
        )


def make_backend(config: BackendConfig) -> Backend:
    """Build the backend ``config`` names.

    Raises:
        BackendUnavailableError: an ``openai`` backend while network backends are switched off.
    """
    from engine.llm.offline import OfflineBackend

    if config.kind == "offline":
        return OfflineBackend()
    from engine.llm.openai_compat import OpenAIBackend

    return OpenAIBackend(config)
