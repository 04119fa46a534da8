"""The strategy registry, the API's lookup in it, and settings every strategy shares (RRF constant)."""

from __future__ import annotations

from typing import get_args

import pytest

from engine.api import answer
from engine.config import EngineConfig, RetrievalConfig
from engine.contracts import Budget, Chunk, EffectiveStrategy, Hit, RankedList, StrategyName
from engine.errors import LoupeError
from engine.run.budget import LoopGuard
from engine.run.evidence import RunState
from engine.run.steps import evidence_items
from engine.run.strategies import STRATEGIES, STRATEGY_NAMES, strategy_runner, strategy_summary

from .factories import question


def test_the_registry_covers_every_strategy_name_and_each_one_loads():
    assert set(STRATEGIES) == set(get_args(EffectiveStrategy))
    assert set(STRATEGY_NAMES) == set(get_args(StrategyName)) and STRATEGY_NAMES[0] == "auto"
    for name in STRATEGIES:
        assert callable(strategy_runner(name)) and strategy_summary(name)
    assert strategy_summary("auto") and strategy_summary("nope") == ""


def test_an_unknown_strategy_is_a_clear_error(report):
    library, entry = report
    with pytest.raises(LoupeError, match="unknown strategy 'fastest'; choose one of auto, single_pass"):
        answer("What is measured?", [entry.doc_id], strategy="fastest", library=library)  # type: ignore[arg-type]


def test_rebudget_keeps_what_was_spent_and_forgets_what_blocked():
    guard = LoopGuard(Budget(max_llm_calls=0))
    assert not guard.allows_llm_call() and guard.blocked_by == "budget_llm_calls"
    guard.rebudget(Budget(max_llm_calls=3, max_iterations=4))
    assert guard.blocked_by is None and guard.allows_llm_call() and guard.budget.max_llm_calls == 3


def _state(rrf_k: int) -> RunState:
    config = EngineConfig(retrieval=RetrievalConfig(rrf_k=rrf_k))
    return RunState(question="q", parsed=question(), indexes=[], config=config, llm=None,  # type: ignore[arg-type]
                    activations=None, pdf_bytes=bytes)  # type: ignore[arg-type]  # fmt: skip


def test_the_fusion_constant_comes_from_the_retrieval_settings():
    chunk = Chunk(chunk_id="d:p1:b0", doc_id="d", page=1, index=0, text="text", bboxes=((0, 0, 1, 1),))
    ranked = RankedList(
        query="q", retriever="keyword", hits=(Hit(chunk=chunk, score=1.0, retriever="keyword", rank=1),)
    )
    for rrf_k in (60, 5):
        state = _state(rrf_k)
        state.add(ranked)
        assert state.ledger[chunk.chunk_id].fused == pytest.approx(1 / (rrf_k + 1))
        assert evidence_items(state, [chunk.chunk_id])[0].score == pytest.approx(rrf_k / (rrf_k + 1), abs=1e-4)
        assert state.context(None).evidence[0].score == pytest.approx(rrf_k / (rrf_k + 1), abs=1e-4)
