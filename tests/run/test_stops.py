"""Stop rules, each tested through its signature: a read-only ``LoopView`` in, a ``StopReason`` or None out."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace

import pytest

from engine.config import EngineConfig
from engine.contracts import AnswerWithEvidence, Chunk, Citation, Hit, StopReason
from engine.run import stops
from engine.run.actions import anchor_share
from engine.run.stops import STOP_RULES, STOP_TEXT, LoopView, first_stop, unchanged

from .factories import question


def _answer(confidence: float = 0.5, *quotes: tuple[str, str], complete: bool = False,
            support: tuple[str, str] | None = None) -> AnswerWithEvidence:  # fmt: skip
    cites = [Citation(chunk_id=cid, page=1, quote=q) for cid, q in quotes]
    if support:
        cites.append(Citation(chunk_id=support[0], page=2, quote=support[1], role="support"))
    return AnswerWithEvidence(text="x", citations=tuple(cites), confidence=confidence, complete_answer_found=complete)


A = _answer(0.5, ("a", "The filter removes spikes."))


def view(phase: stops.Phase = "before_pass", **fields) -> LoopView:
    fields.setdefault("answer", A)
    fields.setdefault("best", A)
    fields.setdefault("next_trigger", "discovered_vocabulary")
    return LoopView(phase=phase, **fields)


def test_the_view_is_read_only():
    with pytest.raises(dataclasses.FrozenInstanceError):
        view().answer = A  # type: ignore[misc]


def test_every_rule_is_in_the_ordered_list_once_and_every_reason_has_words():
    rules = [getattr(stops, name) for name in dir(stops) if callable(getattr(stops, name))]
    rule_functions = [r for r in rules if getattr(r, "__annotations__", {}).get("view") == "LoopView"
                      and r is not first_stop and r.__annotations__.get("return") != "bool"]  # fmt: skip
    assert set(rule_functions) == set(STOP_RULES) and len(STOP_RULES) == len(set(STOP_RULES))
    assert set(StopReason.__args__) == set(STOP_TEXT)  # type: ignore[attr-defined]


# ---- before a pass ------------------------------------------------------------------------


def test_answer_complete_stops_before_a_pass_only():
    done = _answer(0.9, complete=True)
    assert stops.answer_complete(view(answer=done)) == "complete"
    assert stops.answer_complete(view()) is None
    assert stops.answer_complete(view("after_answer", answer=done)) is None


def test_a_complete_answer_below_the_claim_line_does_not_end_the_loop():
    unsure = _answer(0.4, complete=True)
    assert stops.answer_complete(view(answer=unsure)) is None, "complete, but not sure enough to claim it"
    assert stops.answer_complete(view(answer=unsure, claim_confidence=0.3)) == "complete"


def test_no_action_left_names_a_repeat_when_only_used_actions_remain():
    assert stops.no_action_left(view(next_trigger=None)) == "no_trigger"
    assert stops.no_action_left(view(next_trigger=None, only_used_actions_left=True)) == "repeated_trigger_action"
    assert stops.no_action_left(view()) is None


def test_no_pass_allowed_names_the_budget_that_blocked():
    assert stops.no_pass_allowed(view(pass_allowed=False)) == "budget_iterations"
    assert stops.no_pass_allowed(view(pass_allowed=False, blocked_by="budget_seconds")) == "budget_seconds"
    assert stops.no_pass_allowed(view()) is None


# ---- after a pass's retrieval -----------------------------------------------------------------


def test_nothing_new_stops_a_search_that_added_nothing_and_names_a_budget_cause():
    assert stops.nothing_new(view("after_retrieval", last_action="expand_keywords")) == "no_new_candidates"
    blocked = view("after_retrieval", last_action="two_hop", blocked_by="budget_retrieval_calls")
    assert stops.nothing_new(blocked) == "budget_retrieval_calls"
    assert stops.nothing_new(view("after_retrieval", last_action="retry_answer")) is None, "a retry adds nothing"
    assert stops.nothing_new(view("after_retrieval", last_action="two_hop", added=2)) is None


def test_drift_compares_the_anchor_share_with_the_threshold():
    assert stops.drift(view("after_retrieval", added=3, anchor_share=0.0)) == "drift"
    assert stops.drift(view("after_retrieval", added=3, anchor_share=0.5)) is None
    assert stops.drift(view("after_retrieval", added=3, anchor_share=None)) is None, "action not checked for drift"
    assert stops.drift(view("after_retrieval", added=3, anchor_share=0.3, drift_min_overlap=0.4)) == "drift"


def test_a_search_that_found_only_weaker_passages_does_not_answer_again():
    weaker = view("after_retrieval", added=3, new_strength=0.3, cited_strength=0.6)
    assert stops.weaker_evidence(weaker) and stops.first_stop(weaker) is None, "not a stop: the loop goes on"
    assert not stops.weaker_evidence(view("after_retrieval", added=3, new_strength=0.6, cited_strength=0.6))
    assert not stops.weaker_evidence(view("after_retrieval", added=3, new_strength=None)), "not measured"
    assert not stops.weaker_evidence(view("after_answer", added=3, new_strength=0.1, cited_strength=0.6))


def test_a_continuation_is_answered_from_only_when_it_covers_more_than_the_cited_passage():
    def read(new: float | None) -> LoopView:
        return view("after_retrieval", added=2, new_strength=new, cited_strength=0.6, last_action="read_continuation")

    assert stops.weaker_evidence(read(0.6)), "a tie: the continuation is cited beside the passage, no new answer"
    assert stops.weaker_evidence(read(None)), "nothing cited to measure against: no new answer either"
    assert not stops.weaker_evidence(read(0.8)), "the other part of the passage answers more of the question"


def test_a_vocabulary_search_that_ties_with_the_cited_passage_does_not_answer_again():
    def expanded(new: float) -> LoopView:
        return view("after_retrieval", added=3, new_strength=new, cited_strength=0.6, last_action="expand_keywords")

    assert stops.weaker_evidence(expanded(0.6)), "the evidence's own words found no stronger passage"
    assert not stops.weaker_evidence(expanded(0.7))
    rephrased = view("after_retrieval", added=3, new_strength=0.6, cited_strength=0.6, last_action="widen_scope")
    assert not stops.weaker_evidence(rephrased), "a rephrasing's tie may read another table: it is answered from"


def _state(anchors: tuple[str, ...], texts: list[str]) -> SimpleNamespace:
    ledger = {}
    for n, text in enumerate(texts):
        chunk = Chunk(chunk_id=f"d:p{n + 1}:b0", doc_id="d", page=n + 1, index=0, text=text, bboxes=((0, 0, 1, 1),))
        ledger[chunk.chunk_id] = SimpleNamespace(hit=Hit(chunk=chunk, score=1.0, retriever="keyword", rank=1))
    return SimpleNamespace(parsed=question(keywords=anchors), ledger=ledger, config=EngineConfig())


def test_anchor_share_compares_word_stems_so_plurals_count():
    state = _state(("sensors", "survey flights"), ["The sensor suite clips under the wing."])
    assert anchor_share(state, list(state.ledger)) == 0.5, "sensor matches sensors; survey flights is absent"
    unrelated = _state(("sensors", "survey flights"), ["Running costs per year and the insurance premium."])
    assert anchor_share(unrelated, list(unrelated.ledger)) == 0.0
    assert anchor_share(unrelated, []) is None, "nothing added is nothing to compare"


# ---- after a pass's answer ------------------------------------------------------------------


def test_a_pass_that_changes_nothing_the_reader_sees_is_unchanged():
    assert unchanged(A, _answer(0.5, ("a", "The filter removes spikes."), support=("b", "other page")))
    assert unchanged(A, _answer(0.4, ("a", "The filter removes spikes.")))
    assert not unchanged(A, _answer(0.6, ("a", "The filter removes spikes."))), "confidence rose"
    assert not unchanged(A, _answer(0.5, ("c", "Another quote."))), "a different passage is cited"


def test_no_improvement_unless_the_next_action_fetches_a_named_target():
    same = _answer(0.5, ("a", "The filter removes spikes."))
    assert stops.no_improvement(view("after_answer", answer=same, previous=A)) == "no_improvement"
    targeted = view("after_answer", answer=same, previous=A, next_trigger="pending_references")
    assert stops.no_improvement(targeted) is None
    assert stops.no_improvement(view("after_answer", answer=same, previous=A, next_trigger=None)) == "no_improvement"
    better = _answer(0.7, ("c", "Another quote."))
    assert stops.no_improvement(view("after_answer", answer=better, previous=A)) is None
    turning = view("after_answer", answer=same, previous=A, next_trigger="passage_continues")
    assert stops.no_improvement(turning) == "no_improvement", "reading on across a page break fetches no target"


def test_a_pass_that_read_a_continuation_does_not_stop_the_loop_for_no_improvement():
    same = _answer(0.5, ("a", "The filter removes spikes."))
    read = view("after_answer", answer=same, previous=A, last_action="read_continuation")
    assert stops.no_improvement(read) is None, "the next search may still find what the page break could not"


def test_confidence_drop_compares_with_the_best_answer_seen():
    best = _answer(0.8)
    assert stops.confidence_dropped(view("after_answer", answer=_answer(0.6), best=best)) == "confidence_drop"
    assert stops.confidence_dropped(view("after_answer", answer=_answer(0.7), best=best)) is None
    assert stops.confidence_dropped(view("after_answer", answer=_answer(0.7), best=best, confidence_drop=0.05))


def test_budget_spent_stops_an_incomplete_answer_only():
    assert stops.budget_spent(view("after_answer", blocked_by="budget_llm_calls")) == "budget_llm_calls"
    done = _answer(0.9, complete=True)
    assert stops.budget_spent(view("after_answer", answer=done, blocked_by="budget_llm_calls")) is None
    assert stops.budget_spent(view("after_answer", blocked_by=None)) is None


def test_a_complete_answer_below_the_claim_line_counts_as_incomplete_for_every_rule():
    unsure = _answer(0.4, ("a", "The filter removes spikes."), complete=True)
    assert stops.claimed(_answer(0.9, complete=True), 0.6) and not stops.claimed(unsure, 0.6)
    blocked = view("after_answer", answer=unsure, blocked_by="budget_llm_calls")
    assert stops.budget_spent(blocked) == "budget_llm_calls", "an unsure answer a budget cut short is flagged"
    same = view("after_answer", answer=unsure, previous=_answer(0.4, ("a", "The filter removes spikes.")))
    assert stops.no_improvement(same) == "no_improvement", "it changed nothing and only a search is next"


# ---- the list ---------------------------------------------------------------------------------


def test_first_stop_follows_the_list_order():
    done = _answer(0.9, complete=True)
    assert first_stop(view(answer=done, next_trigger=None, pass_allowed=False)) == "complete"
    assert first_stop(view(next_trigger=None, pass_allowed=False)) == "no_trigger"
    assert first_stop(view()) is None
    dropped = view("after_answer", answer=_answer(0.1), best=_answer(0.9), previous=_answer(0.1),
                   blocked_by="budget_seconds")  # fmt: skip
    assert first_stop(dropped) == "no_improvement"
    assert first_stop(dropped, rules=(stops.confidence_dropped, stops.budget_spent)) == "confidence_drop"


def test_which_passes_are_measured_before_answering_again():
    from engine.run.actions import PlannedAction
    from engine.run.strategies.dispatched import _measured

    def plan(trigger: str, detail: str = "") -> PlannedAction:
        return PlannedAction(trigger, "two_hop", "why", lambda s: ([], []), detail=detail)  # type: ignore[arg-type]

    state = SimpleNamespace(parsed=question(references=("Table 3",)))
    assert _measured(state, plan("discovered_vocabulary"))  # every search
    assert _measured(state, plan("pending_references", "Note 9"))  # a reference the evidence mentioned
    assert not _measured(state, plan("pending_references", "Table 3"))  # one the question names is read
    assert not _measured(state, plan("side_missing"))
    assert _measured(state, plan("passage_continues"))  # a continuation: support unless it covers more


def test_an_answer_not_found_yet_is_measured_by_the_closest_passages_it_offers():
    from engine.run.strategies.dispatched import _strengths

    strength = {"a": 0.5, "b": 0.3, "new": 0.4}
    state = SimpleNamespace(ledger=dict.fromkeys(strength), question_strength=lambda ids: max(strength[i] for i in ids))
    closest = AnswerWithEvidence(text="not found", confidence=0.05,
                                 citations=(Citation(chunk_id="a", page=1, quote="q", role="support"),))  # fmt: skip
    assert _strengths(state, closest, ["new"]) == (0.4, 0.5), "weaker than the closest passage: no new answer"
    answered = _answer(0.5, ("b", "The filter removes spikes."), support=("a", "other page"))
    assert _strengths(state, answered, ["new"]) == (0.4, 0.3), "an answer is measured by its own passages"
    assert _strengths(state, _answer(0.1), ["new"]) is None, "nothing cited: any passage may be the first answer"
