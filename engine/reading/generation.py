"""Generation brick: context assembly under a token budget, the answer request, and the citation check."""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence

from engine.config import GenerationConfig
from engine.contracts import AnswerWithEvidence, Citation, Contract, EvidenceItem, Hit, ParsedQuestion, TaskRequest
from engine.documents.text import estimate_tokens, normalize_space
from engine.reading.passages import Unit, score_units, split_units
from engine.reading.periods import YEAR

logger = logging.getLogger(__name__)


class ContextBundle(Contract):
    """The evidence that goes into one answer call, and what the budget left out."""

    evidence: tuple[EvidenceItem, ...]
    tokens: int
    dropped: tuple[str, ...] = ()


def assemble_context(
    hits: Sequence[Hit], file_names: Mapping[str, str], max_tokens: int | None, reserved: Sequence[str] = ()
) -> ContextBundle:
    """Deduplicate hits by chunk id, take the strongest first, stop at ``max_tokens`` (None: no limit).

    Hits with equal scores keep their input order. Chunks that do not fit are listed in ``dropped``
    (a smaller later chunk may still fit). The ``reserved`` chunk ids go first, in their order (the
    best passages of each side of a comparison, so one side cannot crowd out the other); the rest
    follows strongest first.
    """
    best: dict[str, tuple[int, Hit]] = {}
    for position, hit in enumerate(hits):
        cid = hit.chunk.chunk_id
        if cid not in best or hit.score > best[cid][1].score:
            best[cid] = (best[cid][0] if cid in best else position, hit)
    first = {cid: n for n, cid in enumerate(dict.fromkeys(reserved)) if cid in best}
    ordered = sorted(
        best.values(),
        key=lambda pair: (
            pair[1].chunk.chunk_id not in first,
            first.get(pair[1].chunk.chunk_id, 0),
            -pair[1].score,
            pair[0],
        ),
    )
    evidence: list[EvidenceItem] = []
    dropped: list[str] = []
    tokens = 0
    for _, hit in ordered:
        cost = estimate_tokens(hit.chunk.text)
        if max_tokens is not None and tokens + cost > max_tokens:
            dropped.append(hit.chunk.chunk_id)
            continue
        tokens += cost
        evidence.append(_item(hit, file_names))
    return ContextBundle(evidence=tuple(evidence), tokens=tokens, dropped=tuple(dropped))


def _item(hit: Hit, file_names: Mapping[str, str]) -> EvidenceItem:
    c = hit.chunk
    return EvidenceItem(
        chunk_id=c.chunk_id, doc_id=c.doc_id, file_name=file_names.get(c.doc_id, c.doc_id), page=c.page,
        text=c.text, score=hit.score, retriever=hit.retriever, section_path=c.section_path, kind=c.kind,
        bold_terms=c.bold_terms,
    )  # fmt: skip


def answer_request(
    question: str, parsed: ParsedQuestion, context: ContextBundle, settings: GenerationConfig | None = None
) -> TaskRequest:
    """The ``answer`` request over ``context`` (the caller adds the time limit)."""
    settings = settings or GenerationConfig()
    return TaskRequest(
        question=question, parsed=parsed, evidence=context.evidence,
        max_sentences=settings.max_answer_sentences, max_citations=settings.max_citations,
    )  # fmt: skip


def validate_citations(answer: AnswerWithEvidence, evidence: Sequence[EvidenceItem]) -> AnswerWithEvidence:
    """Drop citations whose chunk was not retrieved or whose quote is not in that chunk.

    Both sides are whitespace-normalised; the comparison is case-sensitive. Each dropped citation is
    recorded in ``validation_failures``; nothing else is changed.
    """
    texts = {e.chunk_id: normalize_space(e.text) for e in evidence}
    kept = []
    failures = list(answer.validation_failures)
    for citation in answer.citations:
        text = texts.get(citation.chunk_id)
        quote = normalize_space(citation.quote)
        if text is None:
            failures.append(f"{citation.chunk_id}: cited chunk was not in the evidence")
        elif not quote or quote not in text:
            failures.append(f"{citation.chunk_id}: quote not found in the chunk ({quote[:60]!r})")
        else:
            kept.append(citation)
    if len(kept) == len(answer.citations):
        return answer
    logger.info("dropped %d citation(s) that failed the check", len(answer.citations) - len(kept))
    return answer.model_copy(update={"citations": tuple(kept), "validation_failures": tuple(failures)})


def _by_turns(pages: list[tuple[str, int]], cited: set[tuple[str, int]]) -> list[tuple[str, int]]:
    """Pages in their order, but taking the documents in turns, the least cited document first, so
    one document's pages cannot fill every supporting slot."""
    docs = list(dict.fromkeys(d for d, _ in pages))
    if len(docs) < 2:
        return pages
    queues = {d: [p for p in pages if p[0] == d] for d in docs}
    docs.sort(key=lambda d: sum(1 for c in cited if c[0] == d))
    out: list[tuple[str, int]] = []
    while any(queues.values()):
        for doc in docs:
            if queues[doc]:
                out.append(queues[doc].pop(0))
    return out


def add_support(
    answer: AnswerWithEvidence,
    parsed: ParsedQuestion,
    evidence: Sequence[EvidenceItem],
    max_pages: int,
    min_share: float,
) -> AnswerWithEvidence:
    """Cite the closest passage of each further strongly retrieved page, up to ``max_pages`` pages.

    Pages are taken in evidence order (strongest retrieval first). On each page not cited yet, the
    best-scoring sentence or row that shares a term with the question is a candidate; it is added as
    a ``support`` citation when it scores at least ``min_share`` of the best candidate. The answer's
    text and signals are unchanged: support citations show the reader where else the evidence points.
    """
    cited = {(c.doc_id, c.page) for c in answer.citations}
    if len(cited) >= max_pages or not evidence:
        return answer
    units = split_units(evidence)
    # the glossary's document words count too: "purchases of property and equipment" answers "capex"
    score_units(units, parsed.model_copy(update={"keywords": parsed.keywords + parsed.retrieval.expansions}))
    best: dict[tuple[str, int], Unit] = {}
    for unit in units:
        page = (unit.item.doc_id, unit.item.page)
        if unit.coverage <= 0 or unit.item.kind == "heading" or page in cited:
            continue
        if page not in best or unit.score > best[page].score:
            best[page] = unit
    if not best:
        return answer
    floor = min_share * max(0.0, max(u.score for u in best.values()))
    best = {page: unit for page, unit in best.items() if unit.score >= floor}
    order = _by_turns(list(dict.fromkeys((e.doc_id, e.page) for e in evidence)), cited)
    support = [
        Citation(chunk_id=u.item.chunk_id, doc_id=u.item.doc_id, page=u.item.page, quote=u.text, role="support")
        for u in (best[p] for p in order if p in best)
    ][: max_pages - len(cited)]
    if not support:
        return answer
    return answer.model_copy(update={"citations": answer.citations + tuple(support)})


_HEADER_CELL = re.compile(
    rf"(?:FY\s*)?{YEAR}|\(?\s*(?:in\s+)?(?:millions?|thousands?|billions?|dollars|percent|%|\$|usd|eur)"
    r"(?:[^)]{0,30})\)?|[-\u2013\u2014$]?",
    re.I,
)
"""A cell of a table's header row: a year, a unit ("(Millions)", "in thousands, except per share"), or empty."""


def is_bare_header(quote: str) -> bool:
    """A quoted table row that is only the table's column headings ("(Millions) | 2018 | 2017 | 2016"): it
    names no item and holds no value, so it supports nothing."""
    if "|" not in quote:
        return False
    return all(_HEADER_CELL.fullmatch(cell.strip()) for cell in quote.split("|"))


def without_bare_headers(answer: AnswerWithEvidence) -> AnswerWithEvidence:
    """``answer`` without supporting passages that are only a table's header row (the answer's own
    citations are kept whatever they quote)."""
    kept = tuple(c for c in answer.citations if c.role != "support" or not is_bare_header(c.quote))
    return answer if len(kept) == len(answer.citations) else answer.model_copy(update={"citations": kept})
