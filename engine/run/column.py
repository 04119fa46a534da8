"""The activation column of a run: what the chosen strategy runs and why, before the run and after it.

``activation_column`` asks the dispatcher once per run (the side quota and the engines named in the
reasons are computed here, once); ``settled_column`` adds what the run itself showed: whether an armed
loop was needed, and whether dense retrieval fell back to the LSA.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.contracts import Activations, EffectiveStrategy, IterationRecord, ParsedQuestion, StopReason
from engine.retrieval.index import DocumentIndex
from engine.run.decide import decide
from engine.run.evidence import RunState
from engine.run.side_quota import side_quota
from engine.run.stops import STOP_TEXT


def run_side_quota(strategy: EffectiveStrategy, top_k: int, parsed: ParsedQuestion) -> int:
    """Chunks each side of a comparison searches for on its own (0: the strategy runs no side searches)."""
    return side_quota(top_k, len(parsed.sides)) if strategy == "dispatched" else 0


def activation_column(
    strategy: EffectiveStrategy, parsed: ParsedQuestion, indexes: Sequence[DocumentIndex], max_iterations: int,
    quota: int,
) -> Activations:  # fmt: skip
    """The dispatcher's column for ``strategy`` over ``indexes``."""
    return decide(
        parsed, tuple(ix.profile for ix in indexes), strategy,
        keyword_engine=", ".join(dict.fromkeys(ix.keyword.engine for ix in indexes)),
        max_iterations=max_iterations, side_quota=quota,
        dense_engine=", ".join(dict.fromkeys(ix.dense_engine for ix in indexes)),
    )  # fmt: skip


def settled_column(
    activations: Activations, history: Sequence[IterationRecord], stop: StopReason, dense_failures: Sequence[str]
) -> Activations:
    """``activations`` with what the run showed: an armed loop says how many passes it ran, or that none was
    needed and why; dense retrieval says when it fell back to the LSA."""
    update = {}
    loop = activations.iterative_feedback
    if loop.on:
        passes = sum(1 for record in history if record.trigger != "initial")
        ran = (
            f"{passes} more pass{'es' if passes > 1 else ''} ran" if passes else f"armed, not needed: {STOP_TEXT[stop]}"
        )
        update["iterative_feedback"] = loop.model_copy(update={"reason": f"{loop.reason}; {ran}"})
    failures = list(dict.fromkeys(dense_failures))
    if failures:
        dense = activations.dense_retrieval
        note = f"{dense.reason}; it fell back to LSA for this run ({'; '.join(failures)})"
        update["dense_retrieval"] = dense.model_copy(update={"reason": note})
    return activations.model_copy(update=update) if update else activations


def hand_over(state: RunState, strategy: EffectiveStrategy) -> None:
    """Let ``strategy`` run on ``state`` from here on: its own column and side quota (a rejected plan hands
    the question to the dispatched loop)."""
    state.side_quota = run_side_quota(strategy, state.config.retrieval.top_k, state.parsed)
    state.activations = activation_column(
        strategy, state.parsed, state.indexes, state.guard.budget.max_iterations, state.side_quota
    )
