"""The one call path of a run: budget check, call, charge, fallback record."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.contracts import (
    BackendFallback,
    BackendReply,
    Budget,
    LlmUsage,
    ParsedQuestion,
    SubQuery,
    SubQueryPlan,
    TaskRequest,
)
from engine.run.budget import LoopGuard
from engine.run.calls import LlmCalls

from .factories import question

PLAN = SubQueryPlan(sub_queries=(SubQuery(query="q"),))


@dataclass
class Recorder:
    """A backend that returns a fixed value and remembers every request."""

    name: str = "fake"
    fallback: BackendFallback | None = None
    requests: list[TaskRequest] = field(default_factory=list)

    def run(self, task, request, output_type):
        self.requests.append(request)
        value = question() if output_type is ParsedQuestion else PLAN
        return BackendReply(value=value, usage=LlmUsage(calls=1, prompt_tokens=5, completion_tokens=2),
                            fallback=self.fallback)  # fmt: skip


def calls(llm_calls: int = 4, backend: Recorder | None = None) -> tuple[LlmCalls, Recorder, Recorder]:
    primary, rules = backend or Recorder(), Recorder(name="offline")
    guard = LoopGuard(Budget(max_llm_calls=llm_calls, max_seconds=30))
    return LlmCalls(backend=primary, rules=rules, guard=guard), primary, rules


def test_a_call_the_budget_allows_is_charged_and_carries_the_remaining_seconds():
    llm, primary, rules = calls()
    value = llm.call("plan_subqueries", TaskRequest(question="q"), SubQueryPlan, "skip")
    assert value == PLAN and not rules.requests and llm.fallbacks == []
    assert (llm.guard.llm_calls, llm.guard.prompt_tokens, llm.guard.completion_tokens) == (1, 5, 2)
    limit = primary.requests[0].time_limit_seconds
    assert limit is not None and 0 < limit <= 30


def test_a_fallback_the_backend_reports_is_recorded_once():
    cause = BackendFallback(task="plan_subqueries", reason="the endpoint answered HTTP 500")
    llm, _, _ = calls(backend=Recorder(fallback=cause))
    llm.call("plan_subqueries", TaskRequest(question="q"), SubQueryPlan, "skip")
    assert llm.fallbacks == [cause]


def test_a_spent_budget_skips_an_optional_step_without_a_record():
    llm, primary, rules = calls(llm_calls=0)
    assert llm.call("plan_subqueries", TaskRequest(question="q"), SubQueryPlan, "skip") is None
    assert not primary.requests and not rules.requests and llm.fallbacks == []


def test_a_spent_budget_has_the_rules_do_a_required_step_and_records_why_once():
    llm, primary, rules = calls(llm_calls=0)
    parsed = llm.call("parse_question", TaskRequest(question="q"), ParsedQuestion, "rules")
    assert isinstance(parsed, ParsedQuestion) and not primary.requests and len(rules.requests) == 1
    assert llm.guard.llm_calls == 0, "the rules cost no LLM call"
    assert [(f.task, f.reason) for f in llm.fallbacks] == [
        ("parse_question", "the LLM-call budget is spent; offline rules used")
    ]


def test_a_spent_seconds_budget_is_named_as_such():
    primary, rules = Recorder(), Recorder(name="offline")
    guard = LoopGuard(Budget(max_llm_calls=4, max_seconds=0))
    llm = LlmCalls(backend=primary, rules=rules, guard=guard)
    llm.call("parse_question", TaskRequest(question="q"), ParsedQuestion, "rules")
    assert [f.reason for f in llm.fallbacks] == ["the time budget is spent; offline rules used"]
