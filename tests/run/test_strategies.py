"""End-to-end runs of every strategy on a generated report, offline."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.api import answer
from engine.contracts import Budget, BudgetOverride
from engine.contracts import CaveatKind as K
from tests.scripted import ScriptedBackend, cite_first

LISTING_Q = "What kinds of filtering are applied to the turbidity readings?"
TABLE_Q = "What mean turbidity does Table 3 report for Station B?"

STRATEGIES = ["single_pass", "dispatched", "dynamic", "plan_execute", "auto"]


def pages(result) -> set[int]:
    return {p.page for p in result.evidence_pages}


def within(usage, budget: Budget) -> bool:
    return (
        usage.iterations <= budget.max_iterations
        and usage.llm_calls <= budget.max_llm_calls
        and usage.retrieval_calls <= budget.max_retrieval_calls
        and usage.unique_queries <= budget.max_unique_queries
        and usage.context_tokens <= budget.max_context_tokens
    )


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_every_strategy_answers_within_budget(report, strategy):
    library, entry = report
    result = answer(LISTING_Q, [entry.doc_id], strategy=strategy, library=library)
    assert result.answer.text
    assert result.history, "every run records at least one pass"
    assert result.history[0].iteration == 0
    assert within(result.usage, result.budget)
    assert result.strategy_requested == strategy
    if strategy != "auto":
        assert result.strategy_effective in (strategy, "dispatched")
    assert len(result.config_fingerprint) == 16


def test_listing_question_fires_listing_and_finds_the_items(report):
    library, entry = report
    result = answer(LISTING_Q, [entry.doc_id], strategy="dispatched", library=library)
    assert result.activations.listing_aggregation.on
    assert result.answer.expected_count == 3
    assert 2 in pages(result)


def test_table_reference_is_followed_to_its_caption_page(report):
    library, entry = report
    result = answer(TABLE_Q, [entry.doc_id], strategy="dispatched", library=library)
    assert result.activations.two_hop_references.on
    assert "Table 3" in result.activations.two_hop_references.reason
    assert 3 in pages(result)
    assert "6.8" in result.answer.text


def test_single_pass_never_loops(report):
    library, entry = report
    result = answer(LISTING_Q, [entry.doc_id], strategy="single_pass", library=library)
    assert len(result.history) == 1
    assert result.stop_reason == "single_pass"
    assert not result.activations.iterative_feedback.on


def test_zero_iterations_still_answers_flagged(report):
    """An incomplete answer (scripted) with no pass allowed: answered, flagged as cut short by the budget."""
    library, entry = report
    incomplete = cite_first("Median smoothing and drift correction.", complete=False, confidence=0.4)
    result = answer(LISTING_Q, [entry.doc_id], strategy="dispatched", library=library,
                    backend=ScriptedBackend({"answer": incomplete}), budget=BudgetOverride(max_iterations=0))  # fmt: skip
    assert result.answer.text
    assert result.usage.iterations == 0
    assert len(result.history) == 1
    assert not result.answer.complete_answer_found
    assert result.exhausted and result.stop_reason == "budget_iterations"
    assert any(c.kind == K.STOPPED_EARLY for c in result.answer.caveats)


def test_one_retrieval_call_still_answers_flagged(report):
    """An incomplete answer (scripted) after the only retrieval call: answered, flagged by a budget stop."""
    library, entry = report
    incomplete = cite_first("Station B.", complete=False, confidence=0.4)
    result = answer(TABLE_Q, [entry.doc_id], strategy="dispatched", library=library,
                    backend=ScriptedBackend({"answer": incomplete}), budget=BudgetOverride(max_retrieval_calls=1))  # fmt: skip
    assert result.answer.text
    assert result.usage.retrieval_calls <= 1
    assert result.exhausted
    assert result.stop_reason.startswith("budget_")


def test_zero_llm_budget_uses_offline_rules_and_says_so(report):
    library, entry = report
    result = answer(TABLE_Q, [entry.doc_id], strategy="dispatched", library=library,
                    budget=BudgetOverride(max_llm_calls=0))  # fmt: skip
    assert result.usage.llm_calls == 0
    assert {f.task for f in result.fallbacks} >= {"parse_question", "answer"}
    assert result.answer.text


def test_history_narrates_every_pass(report):
    library, entry = report
    result = answer(TABLE_Q, [entry.doc_id], strategy="dispatched", library=library)
    for rec in result.history:
        assert rec.narration.startswith(f"Pass {rec.iteration}")
    assert len(result.page_added_in) == len(result.evidence_pages)


def test_two_documents_each_cited_by_name(report, config):
    from tests.run.conftest import build_report_pdf

    library, entry = report
    other = library.ingest(build_report_pdf().replace(b"Heron", b"Egret"), "egret-report.pdf")
    result = answer("Compare the Heron survey and the Egret survey turbidity results", [entry.doc_id, other.doc_id],
                    strategy="dispatched", library=library)  # fmt: skip
    assert len(result.docs) == 2
    assert {p.file_name for p in result.evidence_pages} <= {"heron-report.pdf", "egret-report.pdf"}


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    iterations=st.integers(0, 4), llm=st.integers(0, 5), retrieval=st.integers(0, 6),
    queries=st.integers(0, 5), tokens=st.integers(0, 4000),
    strategy=st.sampled_from(STRATEGIES), question=st.sampled_from([LISTING_Q, TABLE_Q]),
)  # fmt: skip
def test_no_budget_is_ever_exceeded_end_to_end(report, iterations, llm, retrieval, queries, tokens, strategy, question):
    library, entry = report
    budget = Budget(max_iterations=iterations, max_llm_calls=llm, max_retrieval_calls=retrieval,
                    max_unique_queries=queries, max_context_tokens=tokens, max_seconds=30)  # fmt: skip
    result = answer(question, [entry.doc_id], strategy=strategy, library=library, budget=budget)
    assert within(result.usage, budget)
    assert result.answer.text
