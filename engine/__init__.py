"""Loupe's engine: dispatched RAG over PDF documents.

The public API is what ``__all__`` lists; the app and scripts import only these names. Heavy modules
(PyMuPDF, Whoosh, the openai client) load on first use, so ``import engine`` stays cheap.
"""

from __future__ import annotations

import importlib
import sys
import threading
from typing import Any

from engine.config import MAX_QUESTION_CHARS, PRESETS, EngineConfig, preset, typed_endpoints_allowed
from engine.contracts import (
    PATTERN_NAMES,
    Activations,
    AnswerWithEvidence,
    BackendFallback,
    Budget,
    BudgetOverride,
    Caveat,
    CaveatKind,
    Chunk,
    Citation,
    CorpusHit,
    DocumentPick,
    DocumentProfile,
    IterationRecord,
    LibraryEntry,
    PageMark,
    PageRef,
    PageScore,
    ParsedDocument,
    ParsedQuestion,
    PatternDecision,
    ProgressEvent,
    RunResult,
    StopReason,
    StrategyName,
    TocEntry,
    Usage,
)
from engine.errors import (
    BackendError,
    DocumentError,
    DocumentNotFoundError,
    DocumentTooLargeError,
    EncryptedPdfError,
    LoupeError,
    NotAPdfError,
    NoTextLayerError,
)

_LAZY = {
    "answer": "engine.api",
    "ingest": "engine.library",
    "Library": "engine.library.local",
    "render_page": "engine.present.render",
    "page_marks": "engine.present.render",
    "escape_markdown": "engine.present.render",
    "escape_inline": "engine.present.render",
    "build_sample_pdf": "engine.samples",
    "ensure_sample": "engine.samples",
    "SAMPLE_QUESTIONS": "engine.samples",
    "STOP_TEXT": "engine.run.stops",
    "STRATEGY_NAMES": "engine.run.strategies",
    "strategy_summary": "engine.run.strategies",
    "BACKEND_NAMES": "engine.llm",
    "backend_label": "engine.llm",
    "backend_uses_network": "engine.llm",
    "follow_up": "engine.api.conversation",
    "open_run_store": "engine.history",
    "open_library": "engine.library",
    "store_kind": "engine.library",
    "DocumentLibrary": "engine.library",
    "ask_library": "engine.api.corpus_search",
    "search_library": "engine.api.corpus_search",
    "pick_documents": "engine.api.corpus_search",
    "RunStore": "engine.history",
    "RunSummary": "engine.history",
    "build_pack": "engine.present.export",
    "caveat_text": "engine.present.caveat_text",
    "caveat_texts": "engine.present.caveat_text",
    "add_personal_question": "engine.history.question_sets",
    "personal_set_path": "engine.history.question_sets",
    "personal_set_size": "engine.history.question_sets",
    "run_eval": "engine.eval",
    "load_eval_set": "engine.eval",
    "parse_eval_lines": "engine.eval",
    "bundled_sets": "engine.eval",
    "EvalReport": "engine.eval",
    "EvalProgress": "engine.eval",
    "DEFAULT_CORPUS": "engine.eval",
    "corpus_folders": "engine.eval",
    "stream_answer_text": "engine.llm.streaming",
    "budget_ceiling": "engine.ceilings",
    "timeout_ceiling": "engine.ceilings",
    "check_question_set": "engine.ceilings",
    "check_documents_per_question": "engine.ceilings",
    "save_run": "engine.history.run_store",
    "MAX_SEARCH_CHARS": "engine.history.run_store",
    "PATTERN_LABELS": "engine.present.names",
    "STRATEGY_LABELS": "engine.present.names",
    "INTERNAL_NAMES": "engine.present.names",
    "pattern_label": "engine.present.names",
    "strategy_label": "engine.present.names",
    "strategy_line": "engine.present.names",
    "stop_sentence": "engine.present.names",
    "pass_title": "engine.present.names",
    "pass_sentence": "engine.present.names",
    "pass_lines": "engine.present.names",
    "budget_lines": "engine.present.names",
    "budget_sentence": "engine.present.names",
    "fallback_sentence": "engine.present.names",
    "progress_label": "engine.present.names",
    "analyst_activation_rows": "engine.present.names",
    "snake_case_words": "engine.present.names",
    "question_rows": "engine.present.names",
    "document_rows": "engine.present.names",
    "pass_rows": "engine.present.names",
    "pages_text": "engine.present.names",
    "configured_admins": "engine.library.pg_access",
    "AccessDeniedError": "engine.library.pg_access",
    "open_collections": "engine.library.pg_collections",
}

__all__ = [
    "MAX_QUESTION_CHARS",
    "PATTERN_NAMES",
    "PRESETS",
    "Activations",
    "AnswerWithEvidence",
    "BackendError",
    "BackendFallback",
    "Budget",
    "BudgetOverride",
    "Chunk",
    "Caveat",
    "CaveatKind",
    "Citation",
    "CorpusHit",
    "DocumentPick",
    "DocumentError",
    "DocumentNotFoundError",
    "DocumentProfile",
    "DocumentTooLargeError",
    "EncryptedPdfError",
    "EngineConfig",
    "IterationRecord",
    "LibraryEntry",
    "LoupeError",
    "NoTextLayerError",
    "NotAPdfError",
    "PageMark",
    "PageRef",
    "PageScore",
    "ParsedDocument",
    "ParsedQuestion",
    "PatternDecision",
    "ProgressEvent",
    "RunResult",
    "StopReason",
    "StrategyName",
    "TocEntry",
    "Usage",
    "preset",
    "typed_endpoints_allowed",
    *_LAZY,
]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'engine' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    if name == "ingest" and threading.current_thread() is threading.main_thread():
        _import_answering_while_parsing()
    globals()[name] = value
    return value


_FIRST_ANSWER_MODULES = ("engine.api", "engine.llm.offline", "engine.run.strategies.dispatched")
"""What a first dispatched answer imports: the API, then what it loads on first use (the offline backend, the
strategy); those go on while the question waits for the keyword index, its own thread idle."""


def _import_answering_while_parsing() -> None:
    """A script that ingests usually asks next: the modules ``answer`` needs are imported while the PDF worker
    finishes its first parse alone (its pages read, a core idle), not after ingest returns (compiling them is
    about 0.3 s of CPU without byte-code caches). Only for a script's main thread: an app's threads import what
    they need themselves. Nothing is imported when they are loaded already."""

    def import_answering() -> None:
        for module in _FIRST_ANSWER_MODULES:
            if module not in sys.modules:
                importlib.import_module(module)

    importlib.import_module("engine.library.isolation").WHILE_FINISHING.append(import_answering)
