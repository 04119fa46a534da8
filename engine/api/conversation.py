"""Follow-up questions: a turn that continues a saved run, over the same documents.

``answer(..., previous=run)`` does the work: the follow-up is rewritten into a full question with the
previous turn by the run's backend (shown to the user as "understood as: ..."), and the first pass
starts from the previous turn's parsed question and evidence pages. The run records the user's own
words (``asked``) and the turn it continues (``follow_up_of``).
"""

from __future__ import annotations

from collections.abc import Callable

from engine.api import answer
from engine.config import EngineConfig
from engine.contracts import Backend, Budget, BudgetOverride, ProgressEvent, RunResult, StrategyName
from engine.history import RunStore
from engine.library import DocumentLibrary


def follow_up(
    question: str,
    previous: RunResult,
    *,
    config: EngineConfig | None = None,
    strategy: StrategyName | None = None,
    budget: Budget | BudgetOverride | None = None,
    library: DocumentLibrary | None = None,
    backend: Backend | None = None,
    progress: Callable[[ProgressEvent], None] | None = None,
    store: RunStore | None = None,
) -> RunResult:
    """Answer ``question`` as a follow-up of ``previous`` (its documents); saved in ``store`` when given.

    Raises:
        LoupeError: an empty question, or a document of the previous turn that is no longer in the library.
    """
    return answer(
        question, [d.doc_id for d in previous.docs], config=config, strategy=strategy, budget=budget,
        library=library, backend=backend, progress=progress, store=store, previous=previous,
    )  # fmt: skip
