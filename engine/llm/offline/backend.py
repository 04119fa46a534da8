"""The offline backend: deterministic rules, no network, no model files.

It is what every demo and test runs on, and what the factory's ``FallbackBackend`` falls back to for a
step a network backend could not do. One ``run`` is one "call" in the usage count; tokens are
estimated from the request.
"""

from __future__ import annotations

import logging
import time

from pydantic import BaseModel

from engine.config import BackendConfig
from engine.contracts import BackendReply, LlmUsage, ParsedQuestion, TaskName, TaskRequest, check_output_type
from engine.contracts.backend import T
from engine.documents.text import estimate_tokens
from engine.reading.extractive import extract_answer
from engine.reading.followup_rewrite import rewrite_follow_up
from engine.reading.plan import judge_sufficiency, make_plan, plan_subqueries
from engine.reading.question import parse_question

logger = logging.getLogger(__name__)


def run_rule(task: TaskName, request: TaskRequest) -> BaseModel:
    """The offline rule for ``task`` applied to ``request``."""
    if task == "parse_question":
        return parse_question(request.question)
    if task == "rewrite_follow_up":
        return rewrite_follow_up(request.question, request.previous_question, request.previous_answer)
    parsed = request.parsed or parse_question(request.question)
    if task == "answer":
        return extract_answer(request.question, parsed, request.evidence, request.max_sentences, request.max_citations)
    if task == "plan_subqueries":
        return plan_subqueries(parsed, request.gaps, request.previous_queries)
    if task == "judge_sufficiency":
        return judge_sufficiency(parsed, [e.text for e in request.evidence])
    if task == "make_plan":
        return make_plan(parsed)
    raise ValueError(f"unknown backend task {task!r}")


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
        value = run_rule(task, request)
        seconds = time.perf_counter() - started
        usage = LlmUsage(
            calls=1,
            prompt_tokens=request_tokens(request),
            completion_tokens=estimate_tokens(value.model_dump_json()),
            seconds=round(seconds, 6),
        )
        logger.debug("offline %s in %.1f ms", task, seconds * 1000)
        return BackendReply(value=value, usage=usage)  # type: ignore[arg-type]
