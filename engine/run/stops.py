"""Stop rules of the feedback loop: small functions of a read-only view of the loop, in one ordered list.

The dispatched strategy builds a ``LoopView`` at three points of every pass (before it starts, after
its retrieval, after its answer) and asks ``first_stop``; the first rule in ``STOP_RULES`` that returns
a ``StopReason`` ends the run. Each rule looks at one phase and returns ``None`` in the others. Adding
a stop rule is one function here, one entry in ``STOP_RULES`` and its test.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, get_args

from engine.contracts import Action, AnswerWithEvidence, BudgetStopReason, StopReason, Trigger

Phase = Literal["before_pass", "after_retrieval", "after_answer"]

BUDGET_STOPS: frozenset[StopReason] = frozenset(get_args(BudgetStopReason))
"""Stop reasons that mean a budget ran out (the run is flagged ``exhausted``)."""

SEARCH_TRIGGERS: frozenset[Trigger] = frozenset({"discovered_vocabulary", "incomplete_answer"})
"""Triggers whose action is one more search; the others fetch something a signal named."""


@dataclass(frozen=True)
class LoopView:
    """What the stop rules may read of the loop at one point of a pass. Nothing here can be changed."""

    phase: Phase
    answer: AnswerWithEvidence
    """The latest answer."""
    best: AnswerWithEvidence
    """The best answer seen before the latest one."""
    previous: AnswerWithEvidence | None = None
    """The answer before the last pass (after_answer only)."""
    next_trigger: Trigger | None = None
    """The trigger of the next action the signals ask for (None: no action is left)."""
    only_used_actions_left: bool = False
    """Every action the signals ask for was already taken."""
    pass_allowed: bool = True
    """The budget allows one more pass."""
    blocked_by: StopReason | None = None
    """The first budget limit that blocked a spend, if any."""
    last_action: Action | None = None
    """The action the pass ran (after_retrieval, after_answer)."""
    added: int = 0
    """Chunks the pass added to the evidence."""
    anchor_share: float | None = None
    """Share of the question's anchors the new chunks hold (None when the action is not checked for drift)."""
    new_strength: float | None = None
    """How much of the question the best passage the pass added covers (None: not measured)."""
    cited_strength: float = 0.0
    """How much of the question the best passage the answer cites covers."""
    drift_min_overlap: float = 0.1
    confidence_drop: float = 0.15
    claim_confidence: float = 0.6
    """The confidence at which a complete answer is claimed: below it the loop looks on."""


StopRule = Callable[[LoopView], StopReason | None]


def claimed(answer: AnswerWithEvidence, claim_confidence: float) -> bool:
    """A complete answer with the confidence to claim it: the loop has nothing left to look for. One
    below the claim line is treated as incomplete (read on, widen, and flagged when a budget stops it)."""
    return answer.complete_answer_found and answer.confidence >= claim_confidence


def answer_complete(view: LoopView) -> StopReason | None:
    """The answer covers the question, with the confidence to claim it: nothing left to look for. (A
    complete answer below the claim line goes on: a search or the next page may hold a surer one.)"""
    if view.phase == "before_pass" and claimed(view.answer, view.claim_confidence):
        return "complete"
    return None


def no_action_left(view: LoopView) -> StopReason | None:
    """No signal asks for an action, or every action asked for was already taken (same trigger, same action)."""
    if view.phase == "before_pass" and view.next_trigger is None:
        return "repeated_trigger_action" if view.only_used_actions_left else "no_trigger"
    return None


def no_pass_allowed(view: LoopView) -> StopReason | None:
    """The budget allows no further pass (iterations or seconds)."""
    if view.phase == "before_pass" and not view.pass_allowed:
        return view.blocked_by or "budget_iterations"
    return None


def nothing_new(view: LoopView) -> StopReason | None:
    """The pass's retrieval found no new chunk (a budget that blocked it is named as the cause)."""
    if view.phase == "after_retrieval" and view.last_action != "retry_answer" and not view.added:
        return view.blocked_by if view.blocked_by in BUDGET_STOPS else "no_new_candidates"
    return None


def drift(view: LoopView) -> StopReason | None:
    """The new chunks share (nearly) none of the question's anchors: the search wandered off-topic."""
    if view.phase == "after_retrieval" and view.anchor_share is not None:
        return "drift" if view.anchor_share < view.drift_min_overlap else None
    return None


def weaker_evidence(view: LoopView) -> bool:
    """Not a stop: one more search found only passages that cover less of the question than the one
    the answer already cites, so the pass does not answer again (an LLM call saved) and the loop goes
    on to the next signal's action. A cited passage's continuation is answered from only when it covers
    more than the passage (it is cited beside the passage in any case); so are passages found with the
    evidence's new vocabulary: words the evidence already used find nothing new at equal strength."""
    if view.phase != "after_retrieval":
        return False
    if view.last_action == "read_continuation":
        return view.new_strength is None or view.new_strength <= view.cited_strength
    if view.last_action == "expand_keywords":
        return view.new_strength is not None and view.new_strength <= view.cited_strength
    return view.new_strength is not None and view.new_strength < view.cited_strength


def unchanged(before: AnswerWithEvidence, after: AnswerWithEvidence) -> bool:
    """The pass changed nothing the reader sees: the same quotes and no gain in confidence."""
    quotes = {(c.chunk_id, c.quote) for c in before.citations if c.role == "answer"}
    return quotes == {(c.chunk_id, c.quote) for c in after.citations if c.role == "answer"} and (
        after.confidence <= before.confidence + 0.005
    )


def no_improvement(view: LoopView) -> StopReason | None:
    """The pass changed nothing, and the next action would only search again or read on across a page
    break (not fetch a named target). Reading a cited passage's continuation tells nothing of what a
    search would find: a pass that did so never stops the loop here."""
    if view.phase != "after_answer" or view.previous is None or claimed(view.answer, view.claim_confidence):
        return None
    if view.last_action == "read_continuation":
        return None
    targeted_next = view.next_trigger is not None and view.next_trigger not in {*SEARCH_TRIGGERS, "passage_continues"}
    return "no_improvement" if unchanged(view.previous, view.answer) and not targeted_next else None


def confidence_dropped(view: LoopView) -> StopReason | None:
    """Confidence fell past the threshold below the best answer seen (the best one is returned)."""
    if view.phase == "after_answer" and view.answer.confidence < view.best.confidence - view.confidence_drop:
        return "confidence_drop"
    return None


def budget_spent(view: LoopView) -> StopReason | None:
    """A budget blocked a spend during the pass and the answer is still incomplete."""
    if (
        view.phase == "after_answer"
        and view.blocked_by in BUDGET_STOPS
        and not claimed(view.answer, view.claim_confidence)
    ):
        return view.blocked_by
    return None


STOP_RULES: tuple[StopRule, ...] = (
    answer_complete,
    no_action_left,
    no_pass_allowed,
    nothing_new,
    drift,
    no_improvement,
    confidence_dropped,
    budget_spent,
)
"""Every stop rule, in the order they are asked."""


def first_stop(view: LoopView, rules: tuple[StopRule, ...] = STOP_RULES) -> StopReason | None:
    """The reason of the first rule that stops the loop at this point, or ``None`` to go on."""
    for rule in rules:
        reason = rule(view)
        if reason is not None:
            return reason
    return None


STOP_TEXT: dict[StopReason, str] = {
    "complete": "the answer covers the question",
    "single_pass": "the single-pass strategy answers once",
    "iteration_cap": "the iteration cap was reached",
    "no_new_candidates": "the last pass found no new evidence",
    "repeated_trigger_action": "the same signal asked for the same action again",
    "repeated_queries": "every planned query had already been run",
    "confidence_drop": "confidence fell, so the best earlier answer is returned",
    "drift": "new evidence drifted away from the question's anchor terms",
    "no_improvement": "the last pass changed neither the cited passages nor the confidence",
    "no_trigger": "no feedback signal suggested a useful next step",
    "budget_iterations": "the iteration budget is spent",
    "budget_llm_calls": "the LLM-call budget is spent",
    "budget_retrieval_calls": "the retrieval-call budget is spent",
    "budget_unique_queries": "the unique-query budget is spent",
    "budget_context_tokens": "the context-token budget is spent",
    "budget_seconds": "the time budget is spent",
    "partial_answer": "the evidence is partial and the budget allows no more rounds",
    "plan_complete": "every plan step ran",
}
"""Why a run stopped, in words a person reads."""
