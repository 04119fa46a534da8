"""Plan validation (rejected before it runs) and the auto router's choices."""

from __future__ import annotations

import pytest

from engine.contracts import ComparisonSide, ExecutionPlan, PlanStep
from engine.errors import PlanValidationError
from engine.run.strategies.plan_execute import validate_plan
from engine.run.strategies.router import route
from tests.run.factories import profile, question


def plan(*steps: tuple[str, str, tuple[str, ...]]) -> ExecutionPlan:
    return ExecutionPlan(steps=tuple(PlanStep(step_id=i, query=q, depends_on=d) for i, q, d in steps))


def test_layers_group_independent_steps():
    layers = validate_plan(plan(("a", "x", ()), ("b", "y", ()), ("c", "about {a} and {b}", ("a", "b"))))
    assert [[s.step_id for s in layer] for layer in layers] == [["a", "b"], ["c"]]


@pytest.mark.parametrize(
    ("steps", "message"),
    [
        ((("a", "x", ("zz",)),), "unknown step zz"),
        ((("a", "x {b}", ("b",)), ("b", "y {a}", ("a",))), "cycle"),
        ((("a", "x", ()), ("b", "uses {a}", ())), "without depending"),
        ((("a", "x", ()), ("a", "y", ())), "repeats"),
    ],
)
def test_malformed_plans_are_rejected(steps, message):
    with pytest.raises(PlanValidationError, match=message):
        validate_plan(plan(*steps))


@pytest.mark.parametrize(
    ("kwargs", "docs", "strategy", "klass"),
    [
        ({}, 1, "single_pass", "simple_fact"),
        ({"intent": "open_scoped"}, 1, "dispatched", "investigative"),
        ({"intent": "open_scoped"}, 2, "dispatched", "multi_hop"),  # several documents: one side each
        ({"intent": "multi_hop"}, 2, "dispatched", "multi_hop"),  # a cross-document comparison is no bridge
        ({"intent": "open_corpus_wide"}, 1, "dynamic", "investigative"),
        ({"intent": "vague"}, 1, "dynamic", "investigative"),
        ({"intent": "multi_hop", "complexity": "complex"}, 1, "plan_execute", "multi_hop"),
        ({"intent": "multi_hop", "complexity": "complex", "references": ("Figure 5",)}, 1, "dispatched", "procedural"),
        ({"intent": "listing"}, 1, "dispatched", "procedural"),
        ({"text": "How many tables does the report have?"}, 1, "dispatched", "procedural"),  # a census
        ({"text": "How many tables does the cafe have on its terrace?"}, 1, "single_pass", "simple_fact"),
        ({"references": ("Table 3",)}, 1, "dispatched", "procedural"),
        ({}, 2, "dispatched", "multi_hop"),
        ({"layout_hint": "table", "asks_for_value": True}, 1, "dispatched", "procedural"),
    ],
)
def test_router(kwargs, docs, strategy, klass):
    decision = route(question(**kwargs), [profile()] * docs)
    assert (decision.strategy, decision.question_class) == (strategy, klass)
    assert decision.reason


def test_router_sends_comparisons_to_dispatched():
    sides = (ComparisonSide(label="A", query="A"), ComparisonSide(label="B", query="B"))
    assert route(question(intent="comparison", sides=sides), [profile()]).strategy == "dispatched"


def test_router_sends_named_phrases_joined_by_and_to_the_loop():
    text = "How many people are in the Field Operations and the Records Management Staff?"
    joined = question(text, keywords=("Field Operations", "Records Management Staff", "people"))
    decision = route(joined, [profile()])
    assert (decision.strategy, decision.question_class) == ("dispatched", "multi_hop"), decision
    one = question("How many people are in the Records Management Staff?", keywords=("Records Management Staff",))
    assert route(one, [profile()]).strategy == "single_pass", "one named phrase: one retrieval suffices"
    apart = question("How large is the Field Operations team and how old is it?", keywords=("Field Operations",))
    assert route(apart, [profile()]).strategy == "single_pass", "an 'and' that joins no two named phrases"
