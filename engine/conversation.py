"""Follow-up questions: a turn that continues a saved run, over the same documents."""

from __future__ import annotations

from collections.abc import Callable

from engine.api import answer
from engine.config import EngineConfig
from engine.contracts import Budget, BudgetOverride, ProgressEvent, RunResult, StrategyName
from engine.library import Library
from engine.llm.base import Backend
from engine.store import RunStore


def follow_up(
    question: str,
    previous: RunResult,
    *,
    config: EngineConfig | None = None,
    strategy: StrategyName | None = None,
    budget: Budget | BudgetOverride | None = None,
    library: Library | None = None,
    backend: Backend | None = None,
    progress: Callable[[ProgressEvent], None] | None = None,
    store: RunStore | None = None,
) -> RunResult:
    """Answer ``question`` as a follow-up of ``previous``: the same documents; the result links back."""
    result = answer(
        question, [d.doc_id for d in previous.docs], config=config, strategy=strategy, budget=budget,
        library=library, backend=backend, progress=progress,
    )  # fmt: skip
    result = result.model_copy(update={"follow_up_of": previous.run_id or None, "asked": question})
    if store is not None:
        store.save(result)
    return result
