"""The backend tasks: one registry entry per task, read by every backend and the prompts.

Each ``TaskSpec`` names what a task returns (its contract, ``TASK_OUTPUTS``), the small schema a model fills
for it (``wire``), the instruction a model reads, how its request is sized, and the offline rule that does
the task without a model.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pydantic import BaseModel

from engine.contracts import (
    TASK_OUTPUTS,
    ExecutionPlan,
    FollowUpRewrite,
    ParsedQuestion,
    SubQueryPlan,
    SufficiencyJudgement,
    TaskName,
    TaskRequest,
)
from engine.llm.wire import WireAnswer, WireQuestion
from engine.reading.extractive import extract_answer
from engine.reading.followup_rewrite import rewrite_follow_up
from engine.reading.plan import judge_sufficiency, make_plan, plan_subqueries
from engine.reading.question import parse_question


@dataclass(frozen=True)
class TaskLimits:
    """How one task's request is sized: reply tokens, temperature, and its share of the seconds left."""

    max_tokens: int
    temperature: float
    budget_share: float


@dataclass(frozen=True)
class TaskSpec:
    """One backend task: its output contract, the model's schema, its instruction, its limits, its rule."""

    output: type[BaseModel]
    wire: type[BaseModel]
    prompt: str
    limits: TaskLimits
    rule: Callable[[TaskRequest], BaseModel]


def _parsed(request: TaskRequest) -> ParsedQuestion:
    """The request's parsed question (parsed by the rules when the caller sent none)."""
    return request.parsed or parse_question(request.question)


TASKS: dict[TaskName, TaskSpec] = {
    "parse_question": TaskSpec(
        output=TASK_OUTPUTS["parse_question"],
        wire=WireQuestion,
        prompt=(
            "Read the question. intent: one of single_fact, comparison, multi_hop, listing, section_retrieval, "
            "open_scoped, open_corpus_wide, vague. keywords: the key terms of the question. sides: the things the "
            "question compares, if it compares. parts: when the question asks several things, one short phrase per "
            "part. expansions: other words a document may use for the question's key terms. asks_for_value: true "
            "when the question asks for a number, amount or date."
        ),
        # a handful of keywords and flags; deterministic, and cheap enough to leave time for the answer
        limits=TaskLimits(max_tokens=96, temperature=0.0, budget_share=0.3),
        rule=lambda r: parse_question(r.question),
    ),
    "plan_subqueries": TaskSpec(
        output=TASK_OUTPUTS["plan_subqueries"],
        wire=SubQueryPlan,
        prompt=(
            "Write 1-4 short search queries that together cover the question. If gaps are listed, write queries "
            "only for those gaps, and never repeat a previous query."
        ),
        # up to four short queries; a little variety in wording helps recall
        limits=TaskLimits(max_tokens=160, temperature=0.2, budget_share=0.3),
        rule=lambda r: plan_subqueries(_parsed(r), r.gaps, r.previous_queries),
    ),
    "judge_sufficiency": TaskSpec(
        output=TASK_OUTPUTS["judge_sufficiency"],
        wire=SufficiencyJudgement,
        prompt=(
            "Decide whether the passages answer every part of the question. sufficient: true or false. missing: "
            "search queries for the parts the passages do not cover. reason: one short sentence."
        ),
        # a yes/no, a few gap queries and a sentence
        limits=TaskLimits(max_tokens=160, temperature=0.0, budget_share=0.3),
        rule=lambda r: judge_sufficiency(_parsed(r), [e.text for e in r.evidence]),
    ),
    "answer": TaskSpec(
        output=TASK_OUTPUTS["answer"],
        wire=WireAnswer,
        prompt=(
            "Answer the question from the passages only. statements: 1 to {sentences} short statements that answer "
            "the question; each lists in passages the numbers of the passages that support it. Use only facts written "
            "in those passages. answer_found: false when the passages do not answer the question (then statements is "
            "empty). missing: the parts of the question the passages do not answer (empty when none)."
        ),
        # up to six statements with passage numbers; deterministic, faithful to the passages
        limits=TaskLimits(max_tokens=320, temperature=0.0, budget_share=0.85),
        rule=lambda r: extract_answer(r.question, _parsed(r), r.evidence, r.max_sentences, r.max_citations),
    ),
    "make_plan": TaskSpec(
        output=TASK_OUTPUTS["make_plan"],
        wire=ExecutionPlan,
        prompt=(
            "Write a plan of 1-6 search steps. step_id: s1, s2 ... in order. A step that needs an earlier step's "
            "result lists that step's id in depends_on and writes the id in curly braces in its query where the "
            "result goes. Other steps have an empty depends_on."
        ),
        # up to six steps
        limits=TaskLimits(max_tokens=320, temperature=0.2, budget_share=0.3),
        rule=lambda r: make_plan(_parsed(r)),
    ),
    "rewrite_follow_up": TaskSpec(
        output=TASK_OUTPUTS["rewrite_follow_up"],
        wire=FollowUpRewrite,
        prompt=(
            "The question is a follow-up in a conversation about the same documents. Rewrite it into one full, "
            "self-contained question, using the previous question (and answer) only to resolve what the follow-up "
            "leaves out: pronouns, elliptical forms such as 'And in 2022?', 'What about X?', 'Are there any others?', "
            "'Why?'. Keep the follow-up's own intent and wording otherwise; do not answer it. If it is already "
            "self-contained, return it unchanged. question: the rewritten question. rule: leave empty."
        ),
        # one question; deterministic, and it runs before the run's own steps
        limits=TaskLimits(max_tokens=120, temperature=0.0, budget_share=0.25),
        rule=lambda r: rewrite_follow_up(r.question, r.previous_question, r.previous_answer),
    ),
}
"""Every backend task."""


__all__ = ["TASKS", "TaskLimits", "TaskSpec"]
