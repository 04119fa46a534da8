"""Run a question set through the engine, strategy by strategy, and score every run.

Each document is ingested once (the library is idempotent by content, so a second eval run reuses
the parse and the index). A question that raises ``LoupeError`` becomes a failure row; the run goes on.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from engine.config import EngineConfig
from engine.contracts import RunResult, StrategyName
from engine.errors import LoupeError
from engine.eval.dataset import SAMPLE_DOC, EvalQuestion, EvalSet, resolve_doc
from engine.eval.metrics import DEFAULT_PRICE_PER_1K, QuestionScore, Summary, aggregate, failure_score, score_run
from engine.eval.reliability import CalibrationSummary, summarize_calibration
from engine.llm import BACKEND_NAMES
from engine.run.strategies import STRATEGY_NAMES

logger = logging.getLogger(__name__)

ENGINE_STRATEGIES: tuple[StrategyName, ...] = STRATEGY_NAMES
BASELINE_TOP5 = "baseline_top5"
"""single_pass with a fixed top-5 retrieval: the peer frameworks' load -> split -> BM25 top-5 recipe."""
EVAL_STRATEGIES: tuple[str, ...] = (*ENGINE_STRATEGIES, BASELINE_TOP5)


class EvalProgress(BaseModel):
    """A progress notice of an eval run."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    done: int = Field(ge=0)
    total: int = Field(ge=0)
    stage: str = Field(description='"ingest" or "run".')
    message: str


class EvalReport(BaseModel):
    """The result of an eval run: settings, one row per (question, strategy), summaries."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    set_name: str
    set_path: str
    created_at: str
    backend: str
    strategies: tuple[str, ...]
    config_fingerprint: str
    price_per_1k_tokens: float
    questions: int
    seconds: float
    ingest_failures: tuple[str, ...] = ()
    rows: tuple[QuestionScore, ...]
    summaries: tuple[Summary, ...]
    calibration: tuple[CalibrationSummary, ...] = Field(
        default=(), description="Per strategy: reliability bins, the selective-accuracy curve, AUC, claims."
    )

    def summary(self, strategy: str, slice_name: str = "all") -> Summary | None:
        """The summary of one strategy over one slice, if any question fell into it."""
        return next((s for s in self.summaries if s.strategy == strategy and s.slice == slice_name), None)


ProgressFn = Callable[[EvalProgress], None]


def parse_strategies(text: str | Sequence[str]) -> tuple[str, ...]:
    """Strategy names from "a,b" (or a sequence), validated; raises ``LoupeError`` on an unknown one."""
    names = [n.strip() for n in (text.split(",") if isinstance(text, str) else text) if n.strip()]
    if not names:
        raise LoupeError(f"no strategy given; choose from {', '.join(EVAL_STRATEGIES)}")
    unknown = [n for n in names if n not in EVAL_STRATEGIES]
    if unknown:
        raise LoupeError(f"unknown strategy {unknown[0]!r}; choose from {', '.join(EVAL_STRATEGIES)}")
    return tuple(dict.fromkeys(names))


def with_backend(config: EngineConfig, backend: str | None) -> EngineConfig:
    """``config`` with its backend kind replaced (None keeps it)."""
    if backend is None or backend == config.backend.kind:
        return config
    if backend not in BACKEND_NAMES:
        raise LoupeError(f"unknown backend {backend!r}; choose one of {', '.join(BACKEND_NAMES)}")
    return config.model_copy(update={"backend": config.backend.model_copy(update={"kind": backend})})


@dataclass
class _Docs:
    ids: dict[str, str]
    failures: dict[str, str]


def _sample_doc_id(library) -> str:
    from engine import samples as sample

    if hasattr(sample, "ensure_sample"):
        try:
            entry = sample.ensure_sample(library)
        except TypeError:
            entry = sample.ensure_sample()
        return entry if isinstance(entry, str) else entry.doc_id
    data = sample.build_sample_pdf()
    return library.ingest(data, "loupe-sample.pdf").doc_id


def _ingest_ref(ref: str, library, corpus: Path | None, library_only: bool = False) -> str:
    """The doc_id of a set's document: a file inside the corpus folder, else a library entry of that name or id.

    With ``library_only`` (question sets uploaded to the web app) the server's folders are never read.
    """
    if library_only:
        known = _library_doc_id(library, ref)
        if known is None:
            raise LoupeError(f"{ref}: no document of that name in the library; upload it on the Ask page first")
        return known
    try:
        path = resolve_doc(ref, corpus)
    except LoupeError:
        known = _library_doc_id(library, ref)
        if known is None:
            raise
        return known
    assert path is not None
    return library.ingest(path.read_bytes(), path.name).doc_id


def _library_doc_id(library, ref: str) -> str | None:
    entries = getattr(library, "entries", None)
    if entries is None:
        return None
    name = Path(ref).name
    for entry in entries():
        if entry.file_name == name or (len(ref) >= 8 and entry.doc_id.startswith(ref)):
            return entry.doc_id
    return None


def ingest_documents(
    questions: Sequence[EvalQuestion],
    library,
    corpus: Path | None,
    progress: ProgressFn | None = None,
    library_only: bool = False,
) -> _Docs:
    """Ingest every document the questions name, once; failures are recorded per reference."""
    refs = list(dict.fromkeys(ref for q in questions for ref in q.docs))
    docs = _Docs(ids={}, failures={})
    for number, ref in enumerate(refs, start=1):
        _notify(progress, number - 1, len(refs), "ingest", f"ingesting {ref}")
        try:
            if ref == SAMPLE_DOC:
                docs.ids[ref] = _sample_doc_id(library)
            else:
                docs.ids[ref] = _ingest_ref(ref, library, corpus, library_only)
        except LoupeError as error:
            logger.warning("cannot ingest %s: %s", ref, error)
            docs.failures[ref] = str(error)
        except OSError as error:
            docs.failures[ref] = f"{ref}: cannot read the file ({error})"
        except Exception as error:
            logger.warning("cannot ingest %s: unexpected %s: %s", ref, type(error).__name__, error)
            docs.failures[ref] = f"{ref}: unexpected {type(error).__name__}: {error}"
    _notify(progress, len(refs), len(refs), "ingest", f"{len(docs.ids)} document(s) ready")
    return docs


AnswerFn = Callable[..., RunResult]


def engine_answer() -> tuple[AnswerFn, Callable[[EngineConfig], object]]:
    """``engine.api.answer`` and the backend factory, imported on first use."""
    from engine.api import answer
    from engine.llm import make_backend

    return answer, lambda config: make_backend(config.backend)


def run_question(
    question: EvalQuestion,
    strategy: str,
    docs: _Docs,
    *,
    config,
    library,
    backend,
    answer: AnswerFn,
) -> QuestionScore:
    """Run and score one question with one strategy; a ``LoupeError`` becomes a failure row."""
    missing = [ref for ref in question.docs if ref not in docs.ids]
    if missing:
        return failure_score(question, strategy, docs.failures.get(missing[0], f"{missing[0]}: not ingested"))
    doc_ids = [docs.ids[ref] for ref in question.docs]
    top_k = 5 if strategy == BASELINE_TOP5 else None
    engine_strategy = "single_pass" if strategy == BASELINE_TOP5 else strategy
    try:
        result = answer(
            question.question, doc_ids, config=config, strategy=engine_strategy, library=library,
            backend=backend, top_k=top_k, calibrate=False,
        )  # fmt: skip
    except LoupeError as error:
        logger.warning("%s [%s]: %s", question.id, strategy, error)
        return failure_score(question, strategy, str(error))
    except Exception as error:
        logger.warning("%s [%s]: unexpected %s: %s", question.id, strategy, type(error).__name__, error)
        logger.debug("traceback", exc_info=True)
        return failure_score(question, strategy, f"unexpected {type(error).__name__}: {error}")
    return score_run(question, strategy, result, docs.ids, calibrate=True)


def run_eval(
    eval_set: EvalSet,
    strategies: Sequence[str],
    *,
    config: EngineConfig | None = None,
    corpus: Path | None = None,
    library=None,
    price_per_1k: float = DEFAULT_PRICE_PER_1K,
    progress: ProgressFn | None = None,
    library_only: bool = False,
) -> EvalReport:
    """Run every question of ``eval_set`` with every strategy and aggregate the scores.

    Args:
        eval_set: The questions.
        strategies: Names from ``EVAL_STRATEGIES`` (validated).
        config: Engine configuration (backend included); default ``EngineConfig()``.
        corpus: Folder the set's document paths are relative to (default ../shared/corpus); a path may not
            lead out of it.
        library: The library to ingest into (default: the one ``config`` points at).
        price_per_1k: Price per 1000 tokens for the cost-per-correct-answer figure.
        progress: Called after each document and each (question, strategy) run.
        library_only: Documents come from the library only (by file name or id); no folder is read.
    """
    if price_per_1k < 0:
        raise LoupeError("the price per 1k tokens cannot be negative")
    chosen = parse_strategies(strategies)
    config = config or EngineConfig()
    answer, make_backend = engine_answer()
    if library is None:
        from engine.library import open_library

        library = open_library(config)
    started = time.monotonic()
    docs = ingest_documents(eval_set.questions, library, corpus, progress, library_only)
    backend = make_backend(config)
    total = len(eval_set.questions) * len(chosen)
    rows: list[QuestionScore] = []
    for question in eval_set.questions:
        for strategy in chosen:
            rows.append(
                run_question(question, strategy, docs, config=config, library=library, backend=backend, answer=answer)
            )
            _notify(progress, len(rows), total, "run", f"{question.id} [{strategy}]")
    return EvalReport(
        set_name=eval_set.name,
        set_path=eval_set.path,
        created_at=datetime.now(UTC).isoformat(timespec="seconds"),
        backend=config.backend.kind,
        strategies=chosen,
        config_fingerprint=config.fingerprint(),
        price_per_1k_tokens=price_per_1k,
        questions=len(eval_set.questions),
        seconds=round(time.monotonic() - started, 2),
        ingest_failures=tuple(f"{ref}: {msg}" for ref, msg in docs.failures.items()),
        rows=tuple(rows),
        summaries=aggregate(rows, price_per_1k),
        calibration=summarize_calibration(rows),
    )


def _notify(progress: ProgressFn | None, done: int, total: int, stage: str, message: str) -> None:
    if progress is not None:
        progress(EvalProgress(done=done, total=total, stage=stage, message=message))
