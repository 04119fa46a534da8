"""The engine's entry points: ``ingest`` a PDF and ``answer`` a question over library documents."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from engine.ceilings import check_budget_values, check_timeout, within_ceilings
from engine.config import MAX_QUESTION_CHARS, EngineConfig
from engine.contracts import (
    AnswerWithEvidence,
    Backend,
    Budget,
    BudgetOverride,
    Chunk,
    DocumentProfile,
    EffectiveStrategy,
    PageRef,
    ParsedQuestion,
    ProgressEvent,
    RunResult,
    StrategyName,
)
from engine.documents.text import normalize_space
from engine.errors import LoupeError
from engine.history import RunStore, new_run_id, now_iso
from engine.history.run_store import save_run
from engine.library import DocumentLibrary, open_library
from engine.library import ingest as ingest  # the public entry point; it lives with the library
from engine.llm import make_backend, rules_backend
from engine.llm.embeddings import embedder_for
from engine.present.boxes import with_citation_boxes
from engine.reading.calibration import calibrate_result
from engine.retrieval.embedded_dense import EmbeddingDense, with_embeddings
from engine.retrieval.index import DocumentIndex
from engine.run.budget import LoopGuard
from engine.run.calls import LlmCalls
from engine.run.column import activation_column, run_side_quota, settled_column
from engine.run.evidence import RunState
from engine.run.followup import inherit_parsed, rewrite_question, seed_previous_evidence
from engine.run.side_quota import follow_up_scope, scoped_indexes, with_document_sides
from engine.run.steps import finished_answer, understand_question
from engine.run.strategies import STRATEGY_NAMES, strategy_runner
from engine.run.strategies.router import route

logger = logging.getLogger(__name__)

Progress = Callable[[ProgressEvent], None]


def answer(
    question: str,
    doc_ids: Sequence[str],
    *,
    config: EngineConfig | None = None,
    strategy: StrategyName | None = None,
    budget: Budget | BudgetOverride | None = None,
    library: DocumentLibrary | None = None,
    backend: Backend | None = None,
    progress: Progress | None = None,
    top_k: int | None = None,
    store: RunStore | None = None,
    previous: RunResult | None = None,
    calibrate: bool = True,
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
        store: The run history to save the run in (not saved when None). A run the store cannot take (a
            read-only library, a full disk, a database that is down) is still returned; the reason is logged.
        previous: The turn this question follows up: the question is rewritten with it into a full
            question (``asked`` keeps the user's words), and the first pass starts from its parsed
            question's hints and its evidence pages (see ``engine.api.conversation.follow_up``).
        calibrate: Give the answer its calibrated confidence (``engine.reading.calibration``); the eval
            turns it off to read the features of the uncalibrated run, and applies it itself.

    Raises:
        LoupeError: empty question, no documents, unknown document, a budget or request timeout above the
            operator's ceilings (``engine.ceilings``).
    """
    started = time.monotonic()
    created_at = now_iso()
    config = config or EngineConfig()
    check_question_length(question)
    check_bounds(budget, config)
    question = normalize_space(question or "")
    if not question:
        raise LoupeError("the question is empty; type a question first")
    if not doc_ids:
        raise LoupeError("no document selected; upload a PDF or pick one from the library")
    requested: StrategyName = strategy or config.strategy
    if requested not in STRATEGY_NAMES:
        raise LoupeError(f"unknown strategy {requested!r}; choose one of {', '.join(STRATEGY_NAMES)}")
    library = library or open_library(config)
    _notify(progress, "parse", f"loading {len(doc_ids)} document(s)")
    loaded = [library.load(doc_id) for doc_id in dict.fromkeys(doc_ids)]
    guard = LoopGuard(_limits(budget, config.budgets.moderate))
    indexes, embedded = _on_embeddings(loaded, config, library, lambda: guard.started + guard.budget.max_seconds)
    selected = list(indexes)
    llm = LlmCalls(backend=backend or make_backend(config.backend), rules=rules_backend(), guard=guard)
    asked = question
    if previous is not None:
        question = rewrite_question(question, previous, llm)
        if question != asked:
            _notify(progress, "understand", f"understood as: {question}")
    _notify(progress, "understand", "reading the question")
    parsed = understand_question(question, llm)
    if previous is not None:
        parsed = inherit_parsed(parsed, previous.parsed_question)
    indexes = scoped_indexes(parsed, indexes)  # a question that names one of the documents is about that one
    if previous is not None:
        indexes = follow_up_scope(question, selected, indexes, previous)
    parsed = with_document_sides(parsed, indexes)
    profiles = tuple(ix.profile for ix in indexes)
    llm.guard.rebudget(_limits(budget, config.budgets.for_complexity(parsed.complexity)))

    effective, reason = _choose(requested, parsed, profiles)
    quota = run_side_quota(effective, config.retrieval.top_k, parsed)
    activations = activation_column(effective, parsed, indexes, llm.guard.budget.max_iterations, quota)
    _notify(progress, "dispatch", f"{effective}: {reason}")
    state = RunState(
        question=question, parsed=parsed, indexes=indexes, config=config, llm=llm, activations=activations,
        pdf_bytes=library.pdf_bytes, progress=progress, top_k=top_k, side_quota=quota,
    )  # fmt: skip
    if previous is not None:
        seed_previous_evidence(state, previous)
    outcome = strategy_runner(effective)(state)
    if outcome.handed_to is not None:
        effective, reason = outcome.handed_to, f"{reason}; {outcome.note}"
    final = finished_answer(outcome, state)
    _notify(progress, "done", f"stopped: {outcome.stop_reason}")
    usage = llm.guard.usage().model_copy(update={"latency_ms": round((time.monotonic() - started) * 1000, 1)})
    pages, chunks, added_in = _evidence(state, final)
    final = with_citation_boxes(final, chunks, library.pdf_bytes)  # the run record says where each quote sits
    result = RunResult(
        run_id=new_run_id(),
        created_at=created_at,
        follow_up_of=(previous.run_id or None) if previous is not None else None,
        asked=asked if asked != question else None,
        question=question,
        # every selected document, read or not: a follow-up asks over the same selection
        docs=tuple(PageRef(doc_id=ix.doc.doc_id, file_name=ix.doc.file_name, page=1) for ix in selected),
        strategy_requested=requested,
        strategy_effective=effective,
        strategy_reason=reason,
        backend=llm.backend.name,
        parsed_question=parsed,
        profiles=profiles,
        activations=settled_column(
            state.activations, outcome.history, outcome.stop_reason, [d.failure for d in embedded if d.failure]
        ),
        answer=final,
        history=tuple(outcome.history),
        stop_reason=outcome.stop_reason,
        exhausted=outcome.exhausted,
        evidence_pages=pages,
        evidence_chunks=chunks,
        page_added_in=added_in,
        page_scores=state.page_score_list(),
        fallbacks=tuple(llm.fallbacks),
        budget=llm.guard.budget,
        usage=usage,
        config_fingerprint=config.fingerprint(),
    )
    result = calibrate_result(result) if calibrate else result
    if store is not None:
        save_run(store, result)
    return result


def check_bounds(budget: Budget | BudgetOverride | None, config: EngineConfig) -> None:
    """``LoupeError`` when a budget the caller chose or the request timeout is above the operator's ceilings
    (checked before any work; a preset's own budget is cut to the ceilings instead, see ``_limits``)."""
    if budget is not None:
        check_budget_values({name: getattr(budget, name) for name in BudgetOverride.model_fields})
    if config.backend.kind != "offline":
        check_timeout(config.backend.timeout_seconds)


def check_question_length(question: str | None) -> None:
    """Raise ``LoupeError`` when ``question`` is longer than ``MAX_QUESTION_CHARS`` (checked before any parsing)."""
    if question is not None and len(question) > MAX_QUESTION_CHARS:
        raise LoupeError(
            f"the question is {len(question):,} characters long, over the limit of {MAX_QUESTION_CHARS:,}; "
            "ask it in fewer words, or split it into several questions"
        )


def _on_embeddings(
    indexes: list[DocumentIndex], config: EngineConfig, library: DocumentLibrary, deadline: Callable[[], float]
) -> tuple[list[DocumentIndex], list[EmbeddingDense]]:
    """The documents with dense retrieval on the configured embeddings endpoint for this run (unchanged, on the
    offline LSA, when none is configured). The endpoint's calls end by ``deadline()`` (the question's seconds
    budget), as the model's do."""
    embedder = embedder_for(config.backend, deadline)
    if embedder is None:
        return indexes, []
    entry_dir = getattr(library, "entry_dir", None)  # the local library keeps the vectors in the entry's folder
    settings = config.backend
    pairs = [
        with_embeddings(ix, embedder, Path(entry_dir(ix.doc.doc_id)) if callable(entry_dir) else None,
                        settings.embeddings_batch_size, settings.embeddings_build_seconds, settings.timeout_seconds)
        for ix in indexes
    ]  # fmt: skip
    return [ix for ix, _ in pairs], [dense for _, dense in pairs]


def _limits(budget: Budget | BudgetOverride | None, default: Budget) -> Budget:
    if budget is None:
        return within_ceilings(default)
    if isinstance(budget, BudgetOverride):
        return within_ceilings(budget.apply(default))
    return within_ceilings(budget)


def _choose(
    requested: StrategyName, parsed: ParsedQuestion, profiles: Sequence[DocumentProfile]
) -> tuple[EffectiveStrategy, str]:
    if requested == "auto":
        decision = route(parsed, profiles)
        return decision.strategy, f"auto ({decision.question_class}): {decision.reason}"
    return requested, "chosen by the user"


def _evidence(
    state: RunState, final: AnswerWithEvidence
) -> tuple[tuple[PageRef, ...], tuple[Chunk, ...], tuple[int, ...]]:
    names = state.file_names()
    pages: dict[tuple[str, int], None] = {}
    chunks: list[Chunk] = []
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
