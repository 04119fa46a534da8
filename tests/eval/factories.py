"""Builders of RunResults for the eval tests (no engine run needed)."""

from __future__ import annotations

from engine.contracts import (
    PATTERN_NAMES,
    Activations,
    AnswerWithEvidence,
    Budget,
    Citation,
    PageRef,
    PageScore,
    PatternDecision,
    RunResult,
    Usage,
)
from tests.run.factories import profile, question

DOC = "d" * 64


def run_result(
    pages: tuple[int, ...] = (),
    text: str = "an answer",
    answer_found: bool = True,
    doc_id: str = DOC,
    llm_calls: int = 2,
    retrieval_calls: int = 3,
    tokens: tuple[int, int] = (900, 100),
    latency_ms: float = 100.0,
    exhausted: bool = False,
    strategy: str = "single_pass",
    retrieved: tuple[int, ...] = (),
    citations: tuple[Citation, ...] = (),
) -> RunResult:
    off = PatternDecision(on=False, reason="test")
    return RunResult(
        question="q?",
        docs=(PageRef(doc_id=doc_id, file_name="doc.pdf", page=1),),
        strategy_requested=strategy,
        strategy_effective="dispatched" if strategy == "auto" else strategy,
        strategy_reason="test",
        backend="offline",
        parsed_question=question(),
        profiles=(profile(),),
        activations=Activations(**{name: off for name in PATTERN_NAMES}),
        answer=AnswerWithEvidence(text=text, answer_found=answer_found, citations=citations),
        history=(),
        stop_reason="single_pass",
        exhausted=exhausted,
        evidence_pages=tuple(PageRef(doc_id=doc_id, file_name="doc.pdf", page=p) for p in pages),
        page_scores=tuple(PageScore(doc_id=doc_id, page=p, retriever="keyword", score=1.0) for p in retrieved),
        budget=Budget(),
        usage=Usage(
            llm_calls=llm_calls,
            retrieval_calls=retrieval_calls,
            unique_queries=1,
            context_tokens=500,
            prompt_tokens=tokens[0],
            completion_tokens=tokens[1],
            latency_ms=latency_ms,
        ),
        config_fingerprint="f" * 16,
    )
