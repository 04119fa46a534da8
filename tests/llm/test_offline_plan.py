"""Offline planning: sub-queries, re-plans for gaps, sufficiency, plan-and-execute plans."""

from __future__ import annotations

import re

from engine.contracts import EvidenceItem, ExecutionPlan, SubQueryPlan, SufficiencyJudgement, TaskRequest
from engine.llm.offline import OfflineBackend
from engine.reading.question import parse_question

BACKEND = OfflineBackend()


def ev(page: int, text: str) -> EvidenceItem:
    return EvidenceItem(chunk_id=f"d:p{page}:b0", doc_id="d", file_name="f.pdf", page=page, text=text)


def plan(question: str, **kw) -> SubQueryPlan:
    request = TaskRequest(question=question, parsed=parse_question(question), **kw)
    return BACKEND.run("plan_subqueries", request, SubQueryPlan).value


def judge(question: str, *evidence: EvidenceItem) -> SufficiencyJudgement:
    request = TaskRequest(question=question, parsed=parse_question(question), evidence=evidence)
    return BACKEND.run("judge_sufficiency", request, SufficiencyJudgement).value


def make(question: str) -> ExecutionPlan:
    return BACKEND.run(
        "make_plan", TaskRequest(question=question, parsed=parse_question(question)), ExecutionPlan
    ).value


def test_comparison_is_split_per_side():
    queries = [q.query for q in plan("Were Copper Kettle and Nightjar founded in the same town?").sub_queries]
    assert len(queries) == 2
    assert queries[0].startswith("Copper Kettle") and queries[1].startswith("Nightjar")


def test_multi_part_question_is_split_at_the_second_clause():
    queries = [q.query for q in plan("What dropout rate is used, and where is label smoothing described?").sub_queries]
    assert len(queries) == 2
    assert "dropout" in queries[0] and "label smoothing" in queries[1]


def test_listing_plans_the_list_and_its_reference():
    queries = [q.query for q in plan("Which filters are listed in Table 2?").sub_queries]
    assert "Table 2" in queries and 1 < len(queries) <= 4


def test_replan_only_queries_new_gaps():
    question = "Compare the Heron survey and the Egret survey turbidity results"
    first = [q.query for q in plan(question).sub_queries]
    again = plan(question, gaps=(first[1], "Egret survey station values"), previous_queries=tuple(first))
    assert [q.query for q in again.sub_queries] == ["Egret survey station values"]


def test_replan_with_only_repeated_gaps_still_proposes_something_new():
    question = "How does the attention mechanism work?"
    first = [q.query for q in plan(question).sub_queries]
    again = plan(question, gaps=tuple(first), previous_queries=tuple(first))
    assert again.sub_queries and all(q.query not in first for q in again.sub_queries)


def test_sufficiency_needs_evidence_for_every_side():
    question = "Were Copper Kettle and Nightjar founded in the same town?"
    goo = ev(3, "The Copper Kettle are a rock band founded in 1979 in Port Elsby, Maine.")
    echo = ev(9, "Nightjar is a band founded in Dunmore Flats, Oregon in 2012.")
    partial = judge(question, goo)
    assert not partial.sufficient and partial.missing and partial.missing[0].startswith("Nightjar")
    assert judge(question, goo, echo).sufficient
    assert not judge(question).sufficient


def test_bridge_question_plans_a_dependent_step_with_a_placeholder():
    steps = make("Who directed the film that won the Palme d'Or in 1994?").steps
    assert len(steps) == 2
    first, second = steps
    assert not first.depends_on and "film" in first.query
    assert second.depends_on == (first.step_id,) and "{" + first.step_id + "}" in second.query


def test_comparison_plan_has_independent_steps():
    steps = make("Is the Quercus or the Ginkgo the genus with more living species?").steps
    assert len(steps) == 2 and all(not s.depends_on for s in steps)
    assert not any(re.search(r"\{\w+\}", s.query) for s in steps)
