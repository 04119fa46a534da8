"""The strategy registry: every strategy a run can take, by name.

``STRATEGIES`` maps each strategy that runs to the function that runs it (a module of this package), the
retrieval patterns it can run and how it loops: the dispatcher (``engine.run.decide``) and the activation
column take both from here, so the column shows what the chosen strategy runs. ``auto`` is not one of them: the router (``router.py``) picks one per question. The CLI, the eval, the
sidebar and the Evaluate page take their choices from ``STRATEGY_NAMES``. Strategy modules load on
first use, so reading the names stays cheap.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from engine.contracts import PATTERN_NAMES, EffectiveStrategy, PatternName, StrategyName

if TYPE_CHECKING:
    from engine.run.evidence import RunState
    from engine.run.steps import Outcome


LoopKind = Literal["none", "feedback", "re_plan", "plan_steps"]
"""How a strategy goes on after its first retrieval: not at all; the answer's feedback signals drive extra
passes; a judge re-plans sub-queries for the gap; the steps of one plan, in dependency order."""


@dataclass(frozen=True)
class StrategySpec:
    """Where a strategy's run function lives ("module:function"), what it does in a line, the retrieval
    patterns it can run (the dispatcher's rules decide which of them fire) and how it loops."""

    target: str
    summary: str
    patterns: frozenset[PatternName]
    loop: LoopKind


_SEARCH: frozenset[PatternName] = frozenset({"keyword_retrieval", "dense_retrieval"})
"""Fused search: keyword always, dense when its rule fires (a strategy's plain ``search`` runs both)."""

STRATEGIES: dict[EffectiveStrategy, StrategySpec] = {
    "single_pass": StrategySpec(
        "engine.run.strategies.single_pass:run_single_pass",
        "understand, retrieve once, answer (the baseline)",
        frozenset({"toc_retrieval", "keyword_retrieval"}),  # one keyword search, in the outline's section if named
        "none",
    ),
    "dispatched": StrategySpec(
        "engine.run.strategies.dispatched:run_dispatched",
        "the dispatcher's patterns, then a bounded feedback loop",
        frozenset(PATTERN_NAMES),
        "feedback",
    ),
    "dynamic": StrategySpec(
        "engine.run.strategies.dynamic:run_dynamic",
        "plan sub-queries, judge sufficiency, re-plan for the gap",
        _SEARCH | {"iterative_feedback"},  # each sub-query is one fused search; the re-plan is its loop
        "re_plan",
    ),
    "plan_execute": StrategySpec(
        "engine.run.strategies.plan_execute:run_plan_execute",
        "a validated plan of dependent retrieval steps",
        _SEARCH,  # each step is one fused search; the plan runs once
        "plan_steps",
    ),
}
"""Every strategy that runs, in the order choices are shown."""

AUTO_SUMMARY = "a router picks the cheapest strategy that fits the question"
STRATEGY_NAMES: tuple[StrategyName, ...] = ("auto", *STRATEGIES)
"""Every strategy a caller may ask for: ``auto`` and the registered ones."""


def strategy_summary(name: str) -> str:
    """What strategy ``name`` does, in a line (empty when unknown)."""
    if name == "auto":
        return AUTO_SUMMARY
    spec = STRATEGIES.get(name)  # type: ignore[call-overload]
    return spec.summary if spec else ""


def strategy_runner(name: EffectiveStrategy) -> Callable[[RunState], Outcome]:
    """The function that runs strategy ``name``."""
    module_name, _, function = STRATEGIES[name].target.partition(":")
    runner: Callable[[RunState], Outcome] = getattr(importlib.import_module(module_name), function)
    return runner


__all__ = [
    "AUTO_SUMMARY",
    "STRATEGIES",
    "STRATEGY_NAMES",
    "LoopKind",
    "StrategySpec",
    "strategy_runner",
    "strategy_summary",
]
