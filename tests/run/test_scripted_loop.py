"""The loop and the strategies driven by a scripted backend: what the backend answers is fixed by the test,
so these tests check the loop's mechanics (which pass runs, in which order, when it stops), not the offline rules.
"""

from __future__ import annotations

import pymupdf
import pytest

from engine.api import answer
from engine.contracts import AnswerWithEvidence, ExecutionPlan, PlanStep, TaskRequest
from engine.library.local import Library
from tests.scripted import ScriptedBackend, UnscriptedTask, cite_first

PAGES = [
    "Median smoothing removes isolated spikes caused by debris in the river readings. "
    "The station values appear in Table 3.",
    "The survey boat carried a crew of four and left the harbour at dawn each morning.",
    "The spring flood raised the water at every station for a week.",
    "Funding came from the regional water board and two universities.",
    "<b>Table 3: Smoothed readings per station</b><br>Station A 4.2<br>Station B 6.8<br>Station C 2.9",
]
"""A five-page survey: the passage that answers also mentions Table 3 (in a sentence of its own, which the
offline checks do not read as relevant, so only a scripted answer raises it), whose caption is four pages
further on and shares no word with the question."""

QUESTION = "Which filter removes isolated spikes caused by debris?"


def _survey_pdf() -> bytes:
    doc = pymupdf.open()
    for html in PAGES:
        page = doc.new_page()
        page.insert_htmlbox(pymupdf.Rect(72, 72, 540, 400), html, css="* {font-family: sans-serif; font-size: 11px;}")
    return doc.tobytes()


@pytest.fixture
def survey(config):
    library = Library(config)
    return library, library.ingest(_survey_pdf(), "survey.pdf")


def _run(survey, backend: ScriptedBackend, strategy: str = "dispatched"):
    library, entry = survey
    # one chunk per retrieval: pass 0 reads the passage that names Table 3, not the table itself
    return answer(QUESTION, [entry.doc_id], strategy=strategy, library=library, backend=backend, top_k=1)


def test_a_complete_first_answer_stops_after_one_pass(survey):
    backend = ScriptedBackend({"answer": cite_first("Median smoothing.")})
    result = _run(survey, backend)
    assert result.activations.iterative_feedback.on
    assert [r.trigger for r in result.history] == ["initial"]
    assert result.stop_reason == "complete"
    assert result.answer.text == "Median smoothing."
    assert backend.tasks().count("answer") == 1
    assert result.backend == "scripted"


def test_a_pending_reference_runs_a_two_hop_pass_and_the_complete_answer_then_stops_the_loop(survey):
    """Pass 0's answer is incomplete and reports Table 3; pass 1 fetches its page and answers again,
    completely: the loop stops there, after two passes and two answers."""
    first = AnswerWithEvidence(
        text="Not found yet.", answer_found=False, confidence=0.2, pending_references=("Table 3",)
    )
    backend = ScriptedBackend({"answer": [first, cite_first("Station B read 6.8.")]})
    result = _run(survey, backend)
    assert 5 not in {p.page for p in result.history[0].pages_added}, "pass 0 must not have read Table 3 already"
    assert [(r.trigger, r.action_taken) for r in result.history] == [
        ("initial", "retrieve"),
        ("pending_references", "two_hop"),
    ]
    assert result.history[1].queries == ("two-hop Table 3",)
    assert {p.page for p in result.history[1].pages_added} == {5}
    assert result.stop_reason == "complete" and not result.exhausted
    assert result.answer.text == "Station B read 6.8."
    answers = [request for task, request in backend.calls if task == "answer"]
    assert len(answers) == 2
    assert 5 not in {e.page for e in answers[0].evidence} and 5 in {e.page for e in answers[1].evidence}


def test_the_same_pending_reference_reported_again_is_not_fetched_twice(survey):
    again = AnswerWithEvidence(
        text="Not found yet.", answer_found=False, confidence=0.2, pending_references=("Table 3",)
    )
    result = _run(survey, ScriptedBackend({"answer": again}))
    assert [r.trigger for r in result.history].count("pending_references") == 1
    assert not result.answer.complete_answer_found


def test_an_answer_that_stays_incomplete_is_flagged_when_the_loop_stops(survey):
    stuck = AnswerWithEvidence(text="Not found.", answer_found=False, confidence=0.1)
    result = _run(survey, ScriptedBackend({"answer": stuck}))
    assert len(result.history) >= 2, "an incomplete answer asks for at least one more pass"
    assert result.stop_reason != "complete"
    assert not result.answer.complete_answer_found


def test_single_pass_answers_once_whatever_the_answer_says(survey):
    pending = cite_first("Median smoothing.", complete=False, confidence=0.4, pending_references=("Table 3",))
    backend = ScriptedBackend({"answer": pending})
    result = _run(survey, backend, "single_pass")
    assert len(result.history) == 1 and result.stop_reason == "single_pass"
    assert backend.tasks().count("answer") == 1


def _step_answer(request: TaskRequest) -> AnswerWithEvidence:
    """The step ``a`` names a station; the final answer cites what it was given."""
    if request.question == "which station had the highest reading":
        return AnswerWithEvidence(text="Station B", confidence=0.8, complete_answer_found=True)
    return cite_first("Station B read 6.8.")(request)


def test_a_plan_runs_its_layers_in_dependency_order(survey):
    plan = ExecutionPlan(steps=(
        PlanStep(step_id="b", query="smoothed reading of {a}", depends_on=("a",)),
        PlanStep(step_id="a", query="which station had the highest reading"),
    ))  # fmt: skip
    backend = ScriptedBackend({"make_plan": plan, "answer": _step_answer})
    result = _run(survey, backend, "plan_execute")
    assert result.strategy_effective == "plan_execute"
    assert [r.queries for r in result.history] == [
        ("which station had the highest reading",),
        ("smoothed reading of Station B",),
    ], "step b ran after step a, with a's result in its query"
    assert [r.trigger for r in result.history] == ["initial", "plan_layer"]
    assert result.stop_reason == "plan_complete"
    asked = [req.question for task, req in backend.calls if task == "answer"]
    assert asked == ["which station had the highest reading", QUESTION]
    assert backend.tasks().index("make_plan") < backend.tasks().index("answer")


def test_a_cyclic_plan_is_rejected_and_handed_to_dispatched(survey):
    cyclic = ExecutionPlan(steps=(
        PlanStep(step_id="a", query="x {b}", depends_on=("b",)),
        PlanStep(step_id="b", query="y {a}", depends_on=("a",)),
    ))  # fmt: skip
    backend = ScriptedBackend({"make_plan": cyclic, "answer": cite_first("Median smoothing.")})
    result = _run(survey, backend, "plan_execute")
    assert result.strategy_effective == "dispatched"
    assert any(f.task == "make_plan" and "cycle" in f.reason for f in result.fallbacks)
    assert result.history[0].trigger == "initial" and result.stop_reason == "complete"


def test_a_strict_script_refuses_an_unscripted_task():
    backend = ScriptedBackend({}, strict=True)
    with pytest.raises(UnscriptedTask, match="answer"):
        backend.run("answer", TaskRequest(question="q"), AnswerWithEvidence)


def test_a_reply_of_the_wrong_type_is_refused():
    backend = ScriptedBackend({"make_plan": AnswerWithEvidence(text="no plan")})
    with pytest.raises(TypeError, match="make_plan"):
        backend.run("make_plan", TaskRequest(question="q"), ExecutionPlan)
