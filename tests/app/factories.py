"""A hand-built RunResult with history, evidence chunks and page scores (no engine run needed)."""

from __future__ import annotations

from engine import (
    PATTERN_NAMES,
    Activations,
    AnswerWithEvidence,
    Budget,
    Chunk,
    Citation,
    IterationRecord,
    PageRef,
    PageScore,
    ParsedQuestion,
    PatternDecision,
    RunResult,
    Usage,
)
from engine.contracts import DocumentProfile, RetrievalSpec

DOC = "a" * 64


def run_result(strategy: str = "dispatched", iterations: int = 3, exhausted: bool = False) -> RunResult:
    ref = lambda p: PageRef(doc_id=DOC, file_name="report.pdf", page=p)  # noqa: E731
    chunks = tuple(
        Chunk(chunk_id=f"{DOC[:16]}:p{p}:b0", doc_id=DOC, page=p, index=0, text=f"text on page {p}",
              bboxes=((72.0, 100.0, 300.0, 112.0), (72.0, 114.0, 280.0, 126.0)))
        for p in (2, 5)
    )  # fmt: skip
    history = (
        IterationRecord(iteration=0, trigger="initial", action_taken="retrieve", queries=("q",),
                        pages_added=(ref(2),), confidence_after=0.4, narration="first pass found page 2"),
        IterationRecord(iteration=1, trigger="pending_references", action_taken="two_hop", queries=("Table 3",),
                        pages_added=(ref(5),), candidates_added=("x",), confidence_before=0.4, confidence_after=0.8,
                        narration="followed Table 3 to page 5"),
    )  # fmt: skip
    decisions = {name: PatternDecision(on=name in ("keyword_retrieval", "two_hop_references"), reason=f"rule {name}")
                 for name in PATTERN_NAMES}  # fmt: skip
    return RunResult(
        question="What does Table 3 report?",
        docs=(PageRef(doc_id=DOC, file_name="report.pdf", page=1),),
        strategy_requested=strategy, strategy_effective="dispatched" if strategy == "auto" else strategy,
        strategy_reason="test", backend="offline",
        parsed_question=ParsedQuestion(original_question="What does Table 3 report?", intent="single_fact",
                                       complexity="moderate", keywords=("table",), retrieval=RetrievalSpec(main_query="q")),
        profiles=(DocumentProfile(doc_id=DOC, file_name="report.pdf", total_pages=6, has_usable_toc=True, toc_entries=4,
                                  is_likely_scanned=False, has_tables=True, text_pages=6, suggested_strategy="dispatched"),),
        activations=Activations(**decisions),
        answer=AnswerWithEvidence(text="It reports 4.6 NTU.", confidence=0.8, caveats=("may be incomplete: x",),
                                  citations=(Citation(chunk_id=chunks[1].chunk_id, doc_id=DOC, page=5, quote="4.6"),)),
        history=history, stop_reason="budget_llm_calls" if exhausted else "complete", exhausted=exhausted,
        evidence_pages=(ref(2), ref(5)), evidence_chunks=chunks, page_added_in=(0, 1),
        page_scores=(PageScore(doc_id=DOC, page=2, retriever="keyword", score=3.0),
                     PageScore(doc_id=DOC, page=5, retriever="two_hop", score=1.0),
                     PageScore(doc_id=DOC, page=2, retriever="toc", score=0.5)),
        budget=Budget(max_iterations=iterations, max_llm_calls=8),
        usage=Usage(iterations=1, llm_calls=8, retrieval_calls=4, unique_queries=2, context_tokens=900, latency_ms=1500),
        config_fingerprint="f" * 16,
    )  # fmt: skip
