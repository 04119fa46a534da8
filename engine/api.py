"""The engine's entry points: ``ingest`` a PDF and ``answer`` a question over library documents."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence

from engine.bricks.text import normalize_space
from engine.compose.budget import LoopGuard
from engine.compose.decide import decide
from engine.compose.evidence import RunState
from engine.compose.loop import run_dispatched
from engine.compose.steps import Outcome, finish_caveats, understand_question, with_support
from engine.compose.strategies.dynamic import run_dynamic
from engine.compose.strategies.plan_execute import make_plan, run_plan, validate_plan
from engine.compose.strategies.router import route
from engine.compose.strategies.single_pass import run_single_pass
from engine.config import MAX_QUESTION_CHARS, EngineConfig
from engine.contracts import (
    AnswerWithEvidence,
    BackendFallback,
    Budget,
    BudgetOverride,
    EffectiveStrategy,
    LibraryEntry,
    PageRef,
    ProgressEvent,
    RunResult,
    StrategyName,
)
from engine.errors import LoupeError, PlanValidationError
from engine.library import Library
from engine.llm.base import Backend, make_backend

logger = logging.getLogger(__name__)

Progress = Callable[[ProgressEvent], None]


def ingest(
    data: bytes, file_name: str, *, config: EngineConfig | None = None, library: Library | None = None
) -> LibraryEntry:
    """Add a PDF to the library (idempotent by content) and return its entry."""
    return (library or Library(config)).ingest(data, file_name)


def answer(
    question: str,
    doc_ids: Sequence[str],
    *,
    config: EngineConfig | None = None,
    strategy: StrategyName | None = None,
    budget: Budget | BudgetOverride | None = None,
    library: Library | None = None,
    backend: Backend | None = None,
    progress: Progress | None = None,
    top_k: int | None = None,
) -> RunResult:
    """Answer ``question`` over the library documents ``doc_ids``.

    Args:
        question: The question, in plain language.
        doc_ids: Library ids (or unique prefixes) of the documents to search.
        config: Engine configuration (default ``EngineConfig()``).
        strategy: Overrides ``config.strategy``.
        budget: A whole budget, or an override of some fields of the per-complexity default.
        library: The library (default: the one ``config`` points at).
        backend: A ready backend (default: built from ``config.backend``).
        progress: Called with a ``ProgressEvent`` at every stage.
        top_k: Fixed number of chunks per retrieval (the eval's peer baseline).

    Raises:
        LoupeError: empty question, no documents, unknown document.
    """
    started = time.monotonic()
    config = config or EngineConfig()
    check_question_length(question)
    question = normalize_space(question or "")
    if not question:
        raise LoupeError("the question is empty; type a question first")
    if not doc_ids:
        raise LoupeError("no document selected; upload a PDF or pick one from the library")
    library = library or Library(config)
    requested: StrategyName = strategy or config.strategy
    _notify(progress, "parse", f"loading {len(doc_ids)} document(s)")
    indexes = [library.load(doc_id) for doc_id in dict.fromkeys(doc_ids)]
    profiles = tuple(ix.profile for ix in indexes)
    backend = backend or make_backend(config.backend)

    fallbacks: list[BackendFallback] = []
    provisional = LoopGuard(_limits(budget, config.budgets.moderate))
    _notify(progress, "understand", "reading the question")
    parsed = understand_question(question, backend, provisional, fallbacks)
    limits = _limits(budget, config.budgets.for_complexity(parsed.complexity))
    guard = LoopGuard(limits, started=provisional.started)
    guard.llm_calls, guard.prompt_tokens = provisional.llm_calls, provisional.prompt_tokens
    guard.completion_tokens = provisional.completion_tokens

    effective, reason = _choose(requested, parsed, profiles)
    activations = decide(parsed, profiles, "single_pass" if effective == "single_pass" else "dispatched")
    _notify(progress, "dispatch", f"{effective}: {reason}")
    state = RunState(
        question=question, parsed=parsed, indexes=indexes, config=config, backend=backend, guard=guard,
        activations=activations, pdf_bytes=library.pdf_bytes, progress=progress, fallbacks=fallbacks,
    )  # fmt: skip
    outcome, effective, reason = _run(state, effective, reason, top_k)
    final = finish_caveats(with_support(outcome.answer, state), outcome.stop_reason, outcome.exhausted)
    _notify(progress, "done", f"stopped: {outcome.stop_reason}")
    usage = guard.usage().model_copy(update={"latency_ms": round((time.monotonic() - started) * 1000, 1)})
    pages, chunks, added_in = _evidence(state, final)
    return RunResult(
        question=question,
        docs=tuple(PageRef(doc_id=ix.doc.doc_id, file_name=ix.doc.file_name, page=1) for ix in indexes),
        strategy_requested=requested,
        strategy_effective=effective,
        strategy_reason=reason,
        backend=backend.name,
        parsed_question=parsed,
        profiles=profiles,
        activations=state.activations,
        answer=final,
        history=tuple(outcome.history),
        stop_reason=outcome.stop_reason,
        exhausted=outcome.exhausted,
        evidence_pages=pages,
        evidence_chunks=chunks,
        page_added_in=added_in,
        page_scores=state.page_score_list(),
        fallbacks=tuple(state.fallbacks),
        budget=guard.budget,
        usage=usage,
        config_fingerprint=config.fingerprint(),
    )


def check_question_length(question: str | None) -> None:
    """Raise ``LoupeError`` when ``question`` is longer than ``MAX_QUESTION_CHARS`` (checked before any parsing)."""
    if question is not None and len(question) > MAX_QUESTION_CHARS:
        raise LoupeError(
            f"the question is {len(question):,} characters long, over the limit of {MAX_QUESTION_CHARS:,}; "
            "ask it in fewer words, or split it into several questions"
        )


def _limits(budget: Budget | BudgetOverride | None, default: Budget) -> Budget:
    if budget is None:
        return default
    if isinstance(budget, BudgetOverride):
        return budget.apply(default)
    return budget


def _choose(requested: StrategyName, parsed, profiles) -> tuple[EffectiveStrategy, str]:
    if requested == "auto":
        decision = route(parsed, profiles)
        return decision.strategy, f"auto ({decision.question_class}): {decision.reason}"
    return requested, "chosen by the user"


def _run(
    state: RunState, effective: EffectiveStrategy, reason: str, top_k: int | None
) -> tuple[Outcome, EffectiveStrategy, str]:
    if effective == "single_pass":
        return run_single_pass(state, top_k), effective, reason
    if effective == "dynamic":
        return run_dynamic(state), effective, reason
    if effective == "plan_execute":
        plan = make_plan(state)
        try:
            if plan is None:
                raise PlanValidationError("the LLM budget allows no planning call")
            layers = validate_plan(plan)
        except PlanValidationError as error:
            logger.info("plan rejected: %s", error)
            state.fallbacks.append(BackendFallback(task="make_plan", reason=f"plan rejected: {error}"))
            return run_dispatched(state), "dispatched", f"{reason}; plan rejected ({error}), fell back to dispatched"
        return run_plan(state, layers), effective, reason
    return run_dispatched(state), effective, reason


def _evidence(state: RunState, final: AnswerWithEvidence) -> tuple[tuple[PageRef, ...], tuple, tuple[int, ...]]:
    names = state.file_names()
    pages: dict[tuple[str, int], None] = {}
    chunks = []
    for citation in final.citations:
        entry = state.ledger.get(citation.chunk_id)
        if entry is None:
            continue
        chunk = entry.hit.chunk
        pages.setdefault((chunk.doc_id, chunk.page), None)
        if chunk not in chunks:
            chunks.append(chunk)
    first_pass: dict[tuple[str, int], int] = {}
    for entry in state.ledger.values():
        key = (entry.hit.chunk.doc_id, entry.hit.chunk.page)
        first_pass[key] = min(first_pass.get(key, entry.first_pass), entry.first_pass)
    refs = tuple(PageRef(doc_id=d, file_name=names.get(d, d), page=p) for d, p in pages)
    return refs, tuple(chunks), tuple(first_pass.get(key, 0) for key in pages)


def _notify(progress: Progress | None, stage: str, message: str) -> None:
    if progress is not None:
        progress(ProgressEvent(stage=stage, message=message))  # type: ignore[arg-type]
