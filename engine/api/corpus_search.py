"""Questions asked of the whole library: a corpus-wide keyword search picks the documents, then the
per-document patterns run on them as for any question.

``search_library`` runs one keyword search across every document (one full-text query on a team
library; each document's Whoosh index in turn on the embedded one). ``choose_documents`` is pure: it
reads the question's intent and the hits and returns the documents with the reason its rule gave.
``ask_library`` does both, answers over the picked documents and records the reason on the run.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.api import answer, check_bounds, check_question_length
from engine.config import MAX_QUESTION_CHARS, EngineConfig
from engine.contracts import (
    Backend,
    Budget,
    BudgetOverride,
    CorpusHit,
    DocumentPick,
    ParsedQuestion,
    ProgressEvent,
    RunResult,
    StrategyName,
)
from engine.errors import LoupeError
from engine.history import RunStore
from engine.history.run_store import save_run
from engine.library import CorpusSearch, DocumentLibrary, open_library
from engine.llm import rules_backend
from engine.reading.understanding import check_parse, question_request

SEARCH_DEPTH = 60
"""Passages the corpus-wide search returns for the choice (enough for several documents to show up)."""
MAX_DOCS_CORPUS_WIDE = 5
"""A corpus-wide question reads at most this many documents (each costs its own retrieval)."""
CORPUS_WIDE_SHARE = 0.5
"""...whose best passage scores at least this share of the best document's."""
MAX_DOCS_FOCUSED = 3
"""Any other question goes to the best document, plus near ties up to this many in all."""
NEAR_TIE_SHARE = 0.8
"""A document is a near tie when its best passage scores at least this share of the best one's."""


def search_library(library: DocumentLibrary, query: str, k: int = 10) -> list[CorpusHit]:
    """The ``k`` best passages of the whole library for ``query``, best first.

    A team library answers with one full-text query. The embedded library searches each document's
    Whoosh index in turn (BM25 scores of different documents are close to comparable: same formula,
    each with its own term statistics).
    """
    if k < 1:
        raise LoupeError("the number of hits must be at least 1")
    if len(query) > MAX_QUESTION_CHARS:  # a 100,000-character word kept a library search busy for 319 s
        raise LoupeError(
            f"the query is {len(query):,} characters long, over the limit of {MAX_QUESTION_CHARS:,}; "
            "search for a few words"
        )
    if isinstance(library, CorpusSearch):
        return library.search_all(query, k)
    found: list[CorpusHit] = []
    for entry in library.entries():
        for hit in library.load(entry.doc_id).search(query, "keyword", k=k).hits:
            found.append(CorpusHit(doc_id=entry.doc_id, file_name=entry.file_name, page=hit.chunk.page,
                                   chunk_id=hit.chunk.chunk_id, score=hit.score, text=hit.chunk.text,
                                   highlight=hit.highlight))  # fmt: skip
    return sorted(found, key=lambda h: (-h.score, h.doc_id, h.chunk_id))[:k]


def _best_by_document(hits: Sequence[CorpusHit]) -> list[tuple[str, float, str]]:
    """(doc_id, best passage score, file name) per document, best first."""
    best: dict[str, tuple[float, str]] = {}
    for hit in hits:
        if hit.doc_id not in best or hit.score > best[hit.doc_id][0]:
            best[hit.doc_id] = (hit.score, hit.file_name)
    return sorted(((d, s, n) for d, (s, n) in best.items()), key=lambda t: (-t[1], t[0]))


def choose_documents(
    parsed: ParsedQuestion, hits: Sequence[CorpusHit], side_hits: Sequence[Sequence[CorpusHit]] = ()
) -> DocumentPick:
    """The documents a library-wide question goes to, and why (pure; one rule per branch).

    Args:
        parsed: The understood question.
        hits: Corpus-wide hits for the question's main query.
        side_hits: For a comparison, corpus-wide hits for each side's own query.
    """
    if parsed.intent == "comparison" and len(side_hits) >= 2:
        picks = [
            (side.label, _best_by_document(found)[:1]) for side, found in zip(parsed.sides, side_hits, strict=False)
        ]
        chosen = list(dict.fromkeys(best[0][0] for _, best in picks if best))
        if chosen:
            names = "; ".join(f"{label}: {best[0][2]}" for label, best in picks if best)
            return DocumentPick(doc_ids=tuple(chosen), reason=f"comparison: the best-matching document per side ({names})",
                                hits=tuple(hits))  # fmt: skip
    ranked = _best_by_document(hits)
    if not ranked:
        return DocumentPick(doc_ids=(), reason="no passage of the library matches the question's words", hits=())
    top = ranked[0][1]
    if parsed.intent == "open_corpus_wide":
        kept = [r for r in ranked if r[1] >= CORPUS_WIDE_SHARE * top][:MAX_DOCS_CORPUS_WIDE]
        rule = f"corpus-wide question: the {len(kept)} document(s) whose best passage scores at least " \
               f"{CORPUS_WIDE_SHARE:.0%} of the best"  # fmt: skip
    else:
        kept = [r for r in ranked if r[1] >= NEAR_TIE_SHARE * top][:MAX_DOCS_FOCUSED]
        rule = f"{parsed.intent.replace('_', ' ')} question: the best-matching document" + (
            f" and {len(kept) - 1} near tie(s) (at least {NEAR_TIE_SHARE:.0%} of its score)" if len(kept) > 1 else ""
        )
    names = ", ".join(name for _, _, name in kept)
    return DocumentPick(doc_ids=tuple(d for d, _, _ in kept), reason=f"{rule}: {names}", hits=tuple(hits))


def pick_documents(
    question: str, library: DocumentLibrary, *, parsed: ParsedQuestion | None = None, depth: int = SEARCH_DEPTH
) -> DocumentPick:
    """Search the whole library for ``question`` and choose its documents.

    The question is understood by the offline rules (no model call is spent on the choice) unless
    ``parsed`` is given.
    """
    if parsed is None:
        reply = rules_backend().run("parse_question", question_request(question), ParsedQuestion)
        parsed = check_parse(reply.value, question)
    hits = search_library(library, parsed.retrieval.main_query, depth)
    sides = (
        [search_library(library, side.query, depth) for side in parsed.sides] if parsed.intent == "comparison" else []
    )
    return choose_documents(parsed, hits, sides)


def ask_library(
    question: str,
    *,
    config: EngineConfig | None = None,
    library: DocumentLibrary | None = None,
    store: RunStore | None = None,
    strategy: StrategyName | None = None,
    budget: Budget | BudgetOverride | None = None,
    backend: Backend | None = None,
    progress: Callable[[ProgressEvent], None] | None = None,
) -> RunResult:
    """Answer ``question`` over the documents a corpus-wide search picks; the run records why (``picked_by``).

    Raises:
        LoupeError: an empty question, an empty library, no document matching the question's words, or a question,
            budget or timeout above its limit (checked before the corpus-wide search).
    """
    config = config or EngineConfig()
    check_question_length(question)
    check_bounds(budget, config)
    library = library or open_library(config)
    pick = pick_documents(question, library)
    if not pick.doc_ids:
        raise LoupeError(f"{pick.reason}; pick the documents by hand (ask --doc DOC_ID) or rephrase the question")
    if progress is not None:
        progress(ProgressEvent(stage="parse", message=f"picked by corpus-wide search: {pick.reason}"))
    result = answer(question, list(pick.doc_ids), config=config, strategy=strategy, budget=budget, library=library,
                    backend=backend, progress=progress)  # fmt: skip
    result = result.model_copy(update={"picked_by": pick.reason})
    if store is not None:
        save_run(store, result)
    return result
