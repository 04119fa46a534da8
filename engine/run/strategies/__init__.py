"""The strategy registry: every strategy a run can take, by name.

``STRATEGIES`` maps each strategy that runs to the function that runs it (a module of this package);
``auto`` is not one of them: the router (``router.py``) picks one per question. The CLI, the eval, the
sidebar and the Evaluate page take their choices from ``STRATEGY_NAMES``. Strategy modules load on
first use, so reading the names stays cheap.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.contracts import EffectiveStrategy, StrategyName

if TYPE_CHECKING:
    from engine.run.evidence import RunState
    from engine.run.steps import Outcome


@dataclass(frozen=True)
class StrategySpec:
    """Where a strategy's run function lives ("module:function") and what it does, in a line."""

    target: str
    summary: str


STRATEGIES: dict[EffectiveStrategy, StrategySpec] = {
    "single_pass": StrategySpec(
        "engine.run.strategies.single_pass:run_single_pass", "understand, retrieve once, answer (the baseline)"
    ),
    "dispatched": StrategySpec(
        "engine.run.strategies.dispatched:run_dispatched", "the dispatcher's patterns, then a bounded feedback loop"
    ),
    "dynamic": StrategySpec(
        "engine.run.strategies.dynamic:run_dynamic", "plan sub-queries, judge sufficiency, re-plan for the gap"
    ),
    "plan_execute": StrategySpec(
        "engine.run.strategies.plan_execute:run_plan_execute", "a validated plan of dependent retrieval steps"
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


__all__ = ["AUTO_SUMMARY", "STRATEGIES", "STRATEGY_NAMES", "StrategySpec", "strategy_runner", "strategy_summary"]
