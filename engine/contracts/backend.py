"""The backend seam: the narrow protocol every backend implements, and its request/reply types.

A backend gets a task name, a ``TaskRequest`` and the pydantic type the task must produce, and returns a
``BackendReply`` holding a validated instance, what the call cost, and whether another backend had to
stand in for that step (``fallback``). Bricks and the composition layer depend on this protocol only;
the concrete backends live in ``engine.llm`` and are built by its factory.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Generic, Literal, Protocol, TypeVar

from pydantic import BaseModel, Field

from engine.contracts.answers import AnswerWithEvidence, EvidenceItem, ExecutionPlan, SubQueryPlan, SufficiencyJudgement
from engine.contracts.base import Contract
from engine.contracts.questions import FollowUpRewrite, ParsedQuestion

TaskName = Literal["parse_question", "plan_subqueries", "judge_sufficiency", "answer", "make_plan", "rewrite_follow_up"]
BackendName = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]{0,31}$")]
"""A backend's registry name ("offline", "openai"); the set is open: ``engine.llm.BACKENDS`` lists them."""

T = TypeVar("T", bound=BaseModel)

TASK_OUTPUTS: dict[str, type[BaseModel]] = {
    "parse_question": ParsedQuestion,
    "plan_subqueries": SubQueryPlan,
    "judge_sufficiency": SufficiencyJudgement,
    "answer": AnswerWithEvidence,
    "make_plan": ExecutionPlan,
    "rewrite_follow_up": FollowUpRewrite,
}
"""The output type each task produces."""


class LlmUsage(Contract):
    """What one backend call cost."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0


class BackendFallback(Contract):
    """A step the chosen backend did not do itself, and why (the offline rules did it instead)."""

    task: TaskName
    reason: str


class TaskRequest(Contract):
    """Everything a backend may read for one task."""

    question: str
    parsed: ParsedQuestion | None = None
    evidence: tuple[EvidenceItem, ...] = ()
    gaps: tuple[str, ...] = ()
    previous_queries: tuple[str, ...] = ()
    previous_question: str = Field("", description="The previous turn's question (follow-up rewriting).")
    previous_answer: str = Field("", description="The previous turn's answer, when it found one (follow-ups).")
    max_sentences: int = 5
    max_citations: int = 6
    time_limit_seconds: float | None = Field(
        None, ge=0, description="Wall-clock seconds this step may take (the run's remaining time budget)."
    )


@dataclass(frozen=True)
class BackendReply(Generic[T]):
    """A validated task output, its cost, and the fallback record when another backend stood in."""

    value: T
    usage: LlmUsage
    fallback: BackendFallback | None = None


class Backend(Protocol):
    """What the composition layer needs of a backend."""

    @property
    def name(self) -> str:
        """The backend's registry name, recorded on every run."""
        ...

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
