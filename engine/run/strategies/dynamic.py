"""dynamic: plan 1-4 sub-queries, retrieve each, judge sufficiency, re-plan only for the gap.

Each round is one IterationRecord. The loop ends when the judge says the evidence suffices, when a
re-plan proposes nothing new (repeated queries), or when the budget runs out; in the last case the
answer is a partial answer, flagged.
"""

from __future__ import annotations

from engine.contracts import (
    Action,
    IterationRecord,
    StopReason,
    SubQueryPlan,
    SufficiencyJudgement,
    TaskRequest,
    Trigger,
)
from engine.documents.text import normalize_query
from engine.run.evidence import RunState
from engine.run.steps import Outcome, answer_now, evidence_items, pages_phrase, record
from engine.run.stops import BUDGET_STOPS


def run_dynamic(state: RunState) -> Outcome:
    history: list[IterationRecord] = []
    plan = _plan(state, gaps=())
    queries = [q.query for q in plan.sub_queries] if plan else [state.parsed.retrieval.main_query]
    stop: StopReason = "iteration_cap"
    while True:
        fresh = [q for q in dict.fromkeys(queries) if state.guard.is_new_query(q)]
        if not fresh:
            stop = "repeated_queries"
            break
        state.notify("pass", f"round {state.iteration}: {len(fresh)} sub-queries")
        added: list[str] = []
        for query in fresh:
            added += state.search(query, k=max(3, state.config.retrieval.top_k // max(1, len(fresh)) + 2))
        judgement = _judge(state)
        trigger: Trigger = "initial" if state.iteration == 0 else "insufficient_evidence"
        action: Action = "retrieve" if state.iteration == 0 else "re_plan"
        verdict = "sufficient" if judgement and judgement.sufficient else "not yet sufficient"
        narration = (
            f"Round {state.iteration}: {len(fresh)} sub-queries found {pages_phrase(state, added)}; judged {verdict}"
        )
        history.append(record(state, trigger, action, fresh, list(dict.fromkeys(added)), 0.0, 0.0, narration))
        if judgement is None:
            stop = state.guard.blocked_by or "budget_llm_calls"
            break
        if judgement.sufficient:
            stop = "complete"
            break
        if not state.guard.allows_iteration():
            stop = state.guard.blocked_by or "budget_iterations"
            break
        state.guard.charge_iteration()
        state.iteration += 1
        plan = _plan(state, gaps=judgement.missing)
        if plan is None:
            stop = state.guard.blocked_by or "budget_llm_calls"
            break
        queries = [q.query for q in plan.sub_queries]
    answer = answer_now(state)
    if stop in BUDGET_STOPS and not answer.complete_answer_found:
        stop = "partial_answer"
    last = history[-1]
    history[-1] = last.model_copy(update={"confidence_after": round(answer.confidence, 3)})
    exhausted = stop == "partial_answer" or stop in BUDGET_STOPS
    return Outcome(answer, history, stop, exhausted)


def _plan(state: RunState, gaps: tuple[str, ...]) -> SubQueryPlan | None:
    """Sub-queries from the backend (for the gaps only, when given); None when the LLM budget is spent."""
    request = TaskRequest(
        question=state.question, parsed=state.parsed, gaps=gaps, previous_queries=tuple(state.queries_run)
    )
    plan = state.llm.call("plan_subqueries", request, SubQueryPlan, "skip")
    if plan is None:
        return None
    seen = {normalize_query(q) for q in state.queries_run}
    kept = tuple(q for q in plan.sub_queries if normalize_query(q.query) not in seen) if gaps else plan.sub_queries
    return SubQueryPlan(sub_queries=kept) if kept else plan


def _judge(state: RunState) -> SufficiencyJudgement | None:
    """The backend's judgement of the strongest evidence; None when the LLM budget is spent."""
    ordered = sorted(state.ledger, key=lambda cid: -state.ledger[cid].fused)[:12]
    request = TaskRequest(
        question=state.question,
        parsed=state.parsed,
        evidence=evidence_items(state, ordered),
        previous_queries=tuple(state.queries_run),
    )
    return state.llm.call("judge_sufficiency", request, SufficiencyJudgement, "skip")
