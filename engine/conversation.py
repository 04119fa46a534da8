"""Follow-up questions: a turn that continues a saved run, over the same documents.

The follow-up is rewritten into a full question with the previous turn (shown to the user as
"understood as: ..."), then answered with the first pass starting from the previous turn's parsed
question and evidence pages. The run records the user's own words (``asked``) and the turn it
continues (``follow_up_of``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from engine.api import answer
from engine.bricks.text import normalize_space
from engine.config import EngineConfig
from engine.contracts import Budget, BudgetOverride, ProgressEvent, RunResult, StrategyName
from engine.errors import LoupeError
from engine.library import Library
from engine.llm.base import Backend
from engine.llm.offline_followup import Rewrite, rewrite_follow_up
from engine.store import RunStore

logger = logging.getLogger(__name__)


def rewrite_question(question: str, previous: RunResult) -> Rewrite:
    """The follow-up as a full question, by the offline rules over the previous turn's question and answer."""
    return rewrite_follow_up(question, previous.question, previous.answer.text, previous.answer.answer_found)


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
    """Answer ``question`` as a follow-up of ``previous`` (same documents); saved in ``store`` when given.

    Raises:
        LoupeError: an empty question, or a document of the previous turn that is no longer in the library.
    """
    asked = normalize_space(question or "")
    if not asked:
        raise LoupeError("the question is empty; type a question first")
    rewrite = rewrite_question(asked, previous)
    logger.info("follow-up %r understood as %r (%s)", asked, rewrite.question, rewrite.rule)
    if progress is not None and rewrite.question != asked:
        progress(ProgressEvent(stage="understand", message=f"understood as: {rewrite.question}"))
    result = answer(
        rewrite.question, [d.doc_id for d in previous.docs], config=config, strategy=strategy, budget=budget,
        library=library, backend=backend, progress=progress, previous=previous,
    )  # fmt: skip
    result = result.model_copy(
        update={"follow_up_of": previous.run_id or None, "asked": asked if rewrite.question != asked else None}
    )
    if store is not None:
        store.save(result)
    return result
