"""plan_execute: a schema-validated plan of steps with ``depends_on``, run layer by layer.

A step's query may use an earlier step's result through a ``{step_id}`` placeholder. Independent
steps form one layer. A malformed plan (unknown dependency, cycle, placeholder that names a step the
query does not depend on) is rejected before anything runs, and the question is handed to the
dispatched strategy (the run records why).
"""

from __future__ import annotations

import logging
import re

from engine.contracts import AnswerWithEvidence, ExecutionPlan, IterationRecord, PlanStep, TaskRequest, Trigger
from engine.errors import PlanValidationError
from engine.reading.generation import answer_request, assemble_context
from engine.run.column import hand_over
from engine.run.evidence import RunState
from engine.run.steps import Outcome, answer_now, pages_phrase, record
from engine.run.strategies.dispatched import run_dispatched

logger = logging.getLogger(__name__)

_PLACEHOLDER = re.compile(r"\{([A-Za-z][A-Za-z0-9_]*)\}")


def validate_plan(plan: ExecutionPlan) -> list[list[PlanStep]]:
    """Check a plan and return its layers (steps whose dependencies are all in earlier layers).

    Raises:
        PlanValidationError: duplicate ids, unknown dependency, a cycle, or a placeholder that is not
            one of the step's dependencies.
    """
    ids = [s.step_id for s in plan.steps]
    if len(set(ids)) != len(ids):
        raise PlanValidationError("the plan repeats a step id")
    known = set(ids)
    for step in plan.steps:
        unknown = [d for d in step.depends_on if d not in known]
        if unknown:
            raise PlanValidationError(f"step {step.step_id} depends on unknown step {unknown[0]}")
        missing = [p for p in _PLACEHOLDER.findall(step.query) if p not in step.depends_on]
        if missing:
            raise PlanValidationError(f"step {step.step_id} uses {{{missing[0]}}} without depending on it")
    layers: list[list[PlanStep]] = []
    done: set[str] = set()
    remaining = list(plan.steps)
    while remaining:
        layer = [s for s in remaining if set(s.depends_on) <= done]
        if not layer:
            raise PlanValidationError(
                "the plan's dependencies form a cycle: " + ", ".join(s.step_id for s in remaining)
            )
        layers.append(layer)
        done |= {s.step_id for s in layer}
        remaining = [s for s in remaining if s.step_id not in done]
    return layers


def make_plan(state: RunState) -> ExecutionPlan | None:
    """Ask the backend for a plan (None when the LLM budget allows no call)."""
    request = TaskRequest(question=state.question, parsed=state.parsed)
    return state.llm.call("make_plan", request, ExecutionPlan, "skip")


def run_plan_execute(state: RunState) -> Outcome:
    """Plan, validate and run the plan; a plan that cannot run hands the question to dispatched."""
    plan = make_plan(state)
    try:
        if plan is None:
            raise PlanValidationError("the LLM budget allows no planning call")
        layers = validate_plan(plan)
    except PlanValidationError as error:
        logger.info("plan rejected: %s", error)
        state.llm.record_fallback("make_plan", f"plan rejected: {error}")
        hand_over(state, "dispatched")
        outcome = run_dispatched(state)
        outcome.handed_to, outcome.note = "dispatched", f"plan rejected ({error}), fell back to dispatched"
        return outcome
    return run_plan(state, layers)


def run_plan(state: RunState, layers: list[list[PlanStep]]) -> Outcome:
    """Execute validated layers, then answer over all the evidence."""
    history: list[IterationRecord] = []
    results: dict[str, str] = {}
    dependents = {d for layer in layers for s in layer for d in s.depends_on}
    for number, layer in enumerate(layers):
        if number and not state.guard.allows_iteration():
            break
        if number:
            state.guard.charge_iteration()
            state.iteration += 1
        queries, added = [], []
        for step in layer:
            query = _substitute(step.query, results)
            queries.append(query)
            step_added = state.search(query)
            added += step_added
            if step.step_id in dependents:
                results[step.step_id] = _step_result(state, query, step_added)
        narration = f"Layer {number}: {len(layer)} step(s) retrieved {pages_phrase(state, added)}"
        trigger: Trigger = "initial" if number == 0 else "plan_layer"
        history.append(
            record(state, trigger, "execute_steps", queries, list(dict.fromkeys(added)), 0.0, 0.0, narration)
        )
    answer = answer_now(state)
    history[-1] = history[-1].model_copy(update={"confidence_after": round(answer.confidence, 3)})
    ran_all = len(history) == len(layers)
    stop = "plan_complete" if ran_all else (state.guard.blocked_by or "budget_iterations")
    return Outcome(answer, history, stop, not ran_all)


def _substitute(query: str, results: dict[str, str]) -> str:
    return _PLACEHOLDER.sub(lambda m: results.get(m.group(1), ""), query).strip()


def _step_result(state: RunState, query: str, added: list[str]) -> str:
    """A short result for a step others depend on: the answer to the step's own query."""
    hits = [state.ledger[cid].hit for cid in added if cid in state.ledger][:4]
    if not hits or not state.guard.allows_llm_call():
        return " ".join(h.chunk.text for h in hits[:1])[:160]
    allowance = state.guard.context_allowance(800)
    context = assemble_context(hits, state.file_names(), allowance)
    step_question = state.parsed.model_copy(update={"original_question": query, "parts": ()})
    answer = state.llm.call("answer", answer_request(query, step_question, context), AnswerWithEvidence, "skip")
    state.guard.charge_context(min(context.tokens, allowance))
    return answer.text[:200] if answer is not None else " ".join(h.chunk.text for h in hits[:1])[:160]
