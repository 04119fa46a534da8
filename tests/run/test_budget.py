"""LoopGuard: limits hold whatever sequence of spends is attempted."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.contracts import Budget, LlmUsage
from engine.run.budget import LoopGuard


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_zero_budget_blocks_everything_with_a_reason():
    guard = LoopGuard(Budget(max_iterations=0, max_llm_calls=0, max_retrieval_calls=0, max_unique_queries=0,
                             max_context_tokens=0, max_seconds=10))  # fmt: skip
    assert not guard.allows_iteration()
    assert guard.blocked_by == "budget_iterations"
    assert not guard.allows_llm_call()
    assert not guard.allows_retrieval("q")
    assert guard.context_allowance(100) == 0


def test_iterations_are_capped_at_four():
    guard = LoopGuard(Budget.model_construct(max_iterations=9, max_llm_calls=1, max_retrieval_calls=1,
                                             max_unique_queries=1, max_context_tokens=1, max_seconds=1))  # fmt: skip
    assert guard.budget.max_iterations == 4


def test_cache_hits_cost_no_retrieval_call_and_repeats_no_unique_query():
    guard = LoopGuard(Budget(max_retrieval_calls=1, max_unique_queries=1))
    assert guard.allows_retrieval("What is X")
    guard.charge_retrieval("What is X")
    assert not guard.allows_retrieval("what   is x")  # calls spent
    guard2 = LoopGuard(Budget(max_retrieval_calls=5, max_unique_queries=1))
    guard2.charge_retrieval("a b", from_cache=True)
    assert guard2.retrieval_calls == 0 and guard2.usage().unique_queries == 1
    assert guard2.allows_retrieval("A  B") and not guard2.allows_retrieval("c")
    assert guard2.blocked_by == "budget_unique_queries"


def test_seconds_budget():
    clock = FakeClock()
    guard = LoopGuard(Budget(max_seconds=2.0), clock=clock)
    assert guard.allows_llm_call()
    clock.now = 2.5
    assert not guard.allows_llm_call() and guard.blocked_by == "budget_seconds"


spend = st.one_of(
    st.tuples(st.just("iteration"), st.none()),
    st.tuples(st.just("llm"), st.integers(1, 3)),
    st.tuples(st.just("retrieve"), st.sampled_from(["a", "b", "A ", "c", "d e", "f"])),
    st.tuples(st.just("context"), st.integers(0, 5000)),
)


@settings(max_examples=300, deadline=None)
@given(
    limits=st.tuples(st.integers(0, 4), st.integers(0, 6), st.integers(0, 6), st.integers(0, 4), st.integers(0, 9000)),
    spends=st.lists(spend, max_size=60),
)
def test_no_budget_is_ever_exceeded(limits, spends):
    iterations, llm, retrieval, queries, tokens = limits
    guard = LoopGuard(Budget(max_iterations=iterations, max_llm_calls=llm, max_retrieval_calls=retrieval,
                             max_unique_queries=queries, max_context_tokens=tokens, max_seconds=60))  # fmt: skip
    for kind, value in spends:
        if kind == "iteration" and guard.allows_iteration():
            guard.charge_iteration()
        elif kind == "llm" and guard.allows_llm_call():
            guard.charge_llm(LlmUsage(calls=value, prompt_tokens=10))
        elif kind == "retrieve" and guard.allows_retrieval(value):
            guard.charge_retrieval(value)
        elif kind == "context":
            guard.charge_context(guard.context_allowance(value))
        assert guard.within_limits()
