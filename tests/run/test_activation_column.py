"""The activation column is truthful for every strategy: it shows what the strategy that ran runs, and
an armed loop says whether it was needed (the bundled sample's table question, offline backend)."""

from __future__ import annotations

import pytest

from engine.api import answer
from engine.config import EngineConfig, LibraryConfig
from engine.contracts import RunResult
from engine.library.local import Library
from engine.run.strategies import STRATEGIES
from engine.samples import SAMPLE_QUESTIONS, ensure_sample

TABLE_QUESTION = next(q for q in SAMPLE_QUESTIONS if "Table 3" in q)


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, RunResult]:
    config = EngineConfig(library=LibraryConfig(path=str(tmp_path_factory.mktemp("library"))))
    library = Library(config)
    entry = ensure_sample(library)
    strategies = ["auto", *STRATEGIES]
    return {s: answer(TABLE_QUESTION, [entry.doc_id], config=config, library=library, strategy=s) for s in strategies}


@pytest.mark.parametrize("strategy", list(STRATEGIES))
def test_the_column_switches_on_only_what_the_strategy_runs(runs, strategy):
    result = runs[strategy]
    spec = STRATEGIES[result.strategy_effective]
    for name, decision in result.activations.items():
        if name != "iterative_feedback" and decision.on:
            assert name in spec.patterns, (strategy, name, decision.reason)


def test_the_dispatched_column_follows_the_tables_reference(runs):
    column = runs["dispatched"].activations
    assert column.two_hop_references.on and "Table 3" in column.two_hop_references.reason


@pytest.mark.parametrize("strategy", ["dynamic", "plan_execute", "single_pass"])
def test_the_other_strategies_do_not_claim_the_dispatchers_patterns(runs, strategy):
    column = runs[strategy].activations
    assert not column.two_hop_references.on and "not part of this strategy" in column.two_hop_references.reason
    assert not column.adaptive_parsing.on


def test_plan_execute_says_it_runs_its_steps_once(runs):
    loop = runs["plan_execute"].activations.iterative_feedback
    assert not loop.on and "plan's steps once" in loop.reason


@pytest.mark.parametrize("strategy", ["dispatched", "dynamic"])
def test_an_armed_loop_says_whether_it_was_needed(runs, strategy):
    result = runs[strategy]
    loop = result.activations.iterative_feedback
    passes = sum(1 for record in result.history if record.trigger != "initial")
    assert loop.on
    assert ("armed, not needed" in loop.reason) == (passes == 0), loop.reason
    assert ("ran" in loop.reason.rsplit(";", 1)[-1]) == (passes > 0), loop.reason


def test_auto_shows_the_column_of_the_strategy_it_chose(runs):
    chosen = runs["auto"].strategy_effective
    assert runs["auto"].activations == runs[chosen].activations
