"""Follow-ups: the question rewritten with the previous turn (a backend task: the offline rules or the
model), and a first pass that starts from the previous turn: its parsed question (for the hints the
follow-up does not restate) and its evidence pages (seeded into the ledger before the first retrieval)."""

from __future__ import annotations

from engine.contracts import FollowUpRewrite, Hit, ParsedQuestion, RankedList, RunResult, TaskRequest
from engine.documents.text import normalize_space
from engine.run.calls import LlmCalls
from engine.run.evidence import RunState

SEED_RANK_OFFSET = 10
"""Seeded chunks enter the ledger as if ranked from 11 on: the first retrieval's own top hits outweigh
them, and a seeded chunk the retrieval finds again gains weight like any other."""
MAX_SEED_PAGES = 5
MAX_REWRITE_CHARS = 2000
"""A rewritten question longer than this is not a question (a model that answered instead): keep the user's."""


def rewrite_question(question: str, previous: RunResult, llm: LlmCalls) -> str:
    """The follow-up as a full question, by the run's backend (the rules when the LLM budget is spent)."""
    request = TaskRequest(
        question=question,
        previous_question=previous.question,
        previous_answer=previous.answer.text if previous.answer.answer_found else "",
    )
    rewrite = llm.call("rewrite_follow_up", request, FollowUpRewrite, "rules")
    text = normalize_space(rewrite.question)
    return text if 0 < len(text) <= MAX_REWRITE_CHARS else question


def _shares_topic(parsed: ParsedQuestion, previous: ParsedQuestion) -> bool:
    """Whether the follow-up keeps the previous question's topic (a keyword or anchor in common)."""
    mine = {k.lower() for k in (*parsed.keywords, *parsed.retrieval.anchor_keywords)}
    theirs = {k.lower() for k in (*previous.keywords, *previous.retrieval.anchor_keywords)}
    return bool(mine & theirs)


def inherit_parsed(parsed: ParsedQuestion, previous: ParsedQuestion) -> ParsedQuestion:
    """The follow-up's parse with the previous turn's section and layout hints where it states none and
    keeps the topic ("And in 2022?" after a table question still looks in tables)."""
    if not _shares_topic(parsed, previous):
        return parsed
    retrieval = parsed.retrieval
    update = {}
    if retrieval.section_hint is None and previous.retrieval.section_hint is not None:
        update["section_hint"] = previous.retrieval.section_hint
    if retrieval.layout_hint is None and previous.retrieval.layout_hint is not None:
        update["layout_hint"] = previous.retrieval.layout_hint
    if not update:
        return parsed
    return parsed.model_copy(update={"retrieval": retrieval.model_copy(update=update)})


def seed_previous_evidence(state: RunState, previous: RunResult) -> int:
    """Add the previous turn's cited chunks (on its first evidence pages) to the ledger; returns how many."""
    docs = {ix.doc.doc_id for ix in state.indexes}
    pages = {(p.doc_id, p.page) for p in previous.evidence_pages[:MAX_SEED_PAGES] if p.doc_id in docs}
    chunks = [c for c in previous.evidence_chunks if (c.doc_id, c.page) in pages]
    if not chunks:
        return 0
    hits = tuple(
        Hit(chunk=chunk, score=0.0, retriever="fused", rank=SEED_RANK_OFFSET + n) for n, chunk in enumerate(chunks, 1)
    )
    state.add(RankedList(query=f"previous turn: {previous.question}", retriever="fused", hits=hits))
    state.notify("retrieve", f"starting from the previous turn's {len(pages)} evidence page(s)")
    return len(chunks)
