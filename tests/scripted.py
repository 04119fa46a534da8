"""A scripted backend for loop and strategy tests (in the spirit of pydantic-ai's TestModel / FunctionModel).

``ScriptedBackend`` implements the ``Backend`` protocol (``engine.contracts.backend``). The test scripts the
answer of each task it cares about:

- a value (an ``AnswerWithEvidence``, an ``ExecutionPlan``...): returned on every call of that task;
- a function ``(request) -> value``: called with the task's ``TaskRequest`` (to cite the chunks it was given);
- a list of values or functions: one per call, in order; the last one repeats once the list is used up.

A task the script does not name is done by the offline rules (``rules``, default: the engine's rules backend),
so a test scripts only the step it is about; ``strict=True`` makes an unscripted task an error instead. Every
call is recorded in ``calls`` as (task, request), so a test can assert what the loop asked and in which order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from engine.contracts import AnswerWithEvidence, Backend, Citation, TaskName, TaskRequest
from engine.contracts.backend import BackendReply, LlmUsage, T, check_output_type

Reply = BaseModel | Callable[[TaskRequest], BaseModel]
Script = Reply | Sequence[Reply]


class UnscriptedTask(AssertionError):
    """A strict scripted backend was asked for a task its script does not name."""


@dataclass
class ScriptedBackend:
    """A backend whose reply to each task is scripted by the test; see the module docstring."""

    script: dict[str, Script]
    rules: Backend | None = None
    strict: bool = False
    calls: list[tuple[TaskName, TaskRequest]] = field(default_factory=list)
    _served: dict[str, int] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return "scripted"

    def tasks(self) -> list[str]:
        """The tasks asked so far, in order."""
        return [task for task, _ in self.calls]

    def run(self, task: TaskName, request: TaskRequest, output_type: type[T]) -> BackendReply[T]:
        check_output_type(task, output_type)
        self.calls.append((task, request))
        if task not in self.script:
            if self.strict:
                raise UnscriptedTask(f"the script has no reply for {task!r}")
            return self._rules().run(task, request, output_type)
        value = self._next(task, request)
        if not isinstance(value, output_type):
            raise TypeError(f"the script's reply to {task!r} is a {type(value).__name__}, not {output_type.__name__}")
        return BackendReply(value=value, usage=LlmUsage(calls=1, prompt_tokens=10, completion_tokens=5))

    def _next(self, task: str, request: TaskRequest) -> Any:
        entry: Any = self.script[task]
        if not isinstance(entry, BaseModel) and not callable(entry):
            served = self._served.get(task, 0)
            self._served[task] = served + 1
            entry = entry[min(served, len(entry) - 1)]
        return entry if isinstance(entry, BaseModel) else entry(request)

    def _rules(self) -> Backend:
        if self.rules is None:
            from engine.llm import rules_backend

            self.rules = rules_backend()
        return self.rules


def cite_first(
    text: str, *, complete: bool = True, confidence: float = 0.9, **fields: Any
) -> Callable[[TaskRequest], AnswerWithEvidence]:
    """A scripted ``answer`` that cites the first passage it is given (a valid citation, so the engine's
    citation check keeps it), with the other answer fields as given."""

    def reply(request: TaskRequest) -> AnswerWithEvidence:
        cited = request.evidence[:1]
        citations = tuple(Citation(chunk_id=e.chunk_id, doc_id=e.doc_id, page=e.page, quote=e.text[:60]) for e in cited)
        return AnswerWithEvidence(
            text=text, citations=citations, complete_answer_found=complete, confidence=confidence, **fields
        )

    return reply
