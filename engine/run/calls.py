"""The one path every backend call of a run takes: budget check, call, charge, fallback record.

``LlmCalls.call`` asks the ``LoopGuard`` first. When the guard allows a call, the chosen backend runs
the task with the run's remaining seconds as its deadline, the usage is charged and a fallback the
backend reports is recorded. When the LLM-call budget is spent, a required step (understanding the
question, answering) is done by the rules backend and recorded as a fallback once; an optional step
(planning, judging) is skipped and the caller decides what that means.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, overload

from engine.contracts import Backend, BackendFallback, TaskName, TaskRequest
from engine.contracts.backend import T
from engine.run.budget import LoopGuard

WhenSpent = Literal["rules", "skip"]


@dataclass
class LlmCalls:
    """The backend of a run, the rules that stand in when the budget is spent, and what both did."""

    backend: Backend
    rules: Backend
    guard: LoopGuard
    fallbacks: list[BackendFallback] = field(default_factory=list)

    @overload
    def call(self, task: TaskName, request: TaskRequest, output_type: type[T], when_spent: Literal["rules"]) -> T: ...

    @overload
    def call(
        self, task: TaskName, request: TaskRequest, output_type: type[T], when_spent: Literal["skip"]
    ) -> T | None: ...

    def call(self, task: TaskName, request: TaskRequest, output_type: type[T], when_spent: WhenSpent) -> T | None:
        """Run ``task`` within the budget; ``when_spent`` says what happens when no LLM call is left.

        ``"rules"``: the rules backend does the step (no LLM call is charged) and a fallback is recorded.
        ``"skip"``: nothing runs and ``None`` is returned.
        """
        if not self.guard.allows_llm_call():
            if when_spent == "skip":
                return None
            reason = f"{self.guard.spent_reason()}; {self.rules.name} rules used"
            self.record_fallback(task, reason)
            return self.rules.run(task, request, output_type).value
        timed = request.model_copy(update={"time_limit_seconds": self.guard.remaining_seconds()})
        reply = self.backend.run(task, timed, output_type)
        self.guard.charge_llm(reply.usage)
        if reply.fallback is not None:
            self.record_fallback(reply.fallback.task, reply.fallback.reason)
        return reply.value

    def record_fallback(self, task: TaskName, reason: str) -> None:
        """Record a step a strategy could not do as asked (a rejected plan) with its cause, once: the
        same step failing the same way again adds nothing to the record."""
        fallback = BackendFallback(task=task, reason=reason)
        if fallback not in self.fallbacks:
            self.fallbacks.append(fallback)
