"""A small stand-in for the engine's Library and answer(), used only when the real engine is not importable.

It keeps the same public surface the app uses (ingest/entries/get/parsed/pdf_bytes/delete, answer with
strategy/budget/progress), so the UI tests exercise the app's own behaviour either way.
"""

from __future__ import annotations

import hashlib
import re
from datetime import UTC, datetime

import pymupdf

from engine import (
    PATTERN_NAMES,
    Activations,
    AnswerWithEvidence,
    Budget,
    BudgetOverride,
    Chunk,
    Citation,
    DocumentNotFoundError,
    DocumentProfile,
    EncryptedPdfError,
    EngineConfig,
    IterationRecord,
    LibraryEntry,
    LoupeError,
    NotAPdfError,
    NoTextLayerError,
    PageRef,
    PageScore,
    ParsedDocument,
    ParsedQuestion,
    PatternDecision,
    ProgressEvent,
    RunResult,
    TocEntry,
    Usage,
)
from engine.contracts import PageText, RetrievalSpec


class FakeLibrary:
    def __init__(self, config: EngineConfig | None = None) -> None:
        self.root = (config or EngineConfig()).library.resolved_path()
        self._docs: dict[str, tuple[LibraryEntry, bytes]] = {}

    def ingest(self, data: bytes, file_name: str, progress=None) -> LibraryEntry:
        try:
            doc = pymupdf.open(stream=data, filetype="pdf")
        except Exception as error:
            raise NotAPdfError(f"{file_name} is not a readable PDF ({error})") from error
        if doc.needs_pass:
            raise EncryptedPdfError(f"{file_name} is encrypted; remove the password first")
        if not any(page.get_text().strip() for page in doc):
            raise NoTextLayerError(f"{file_name} has no text layer; OCR it first")
        doc_id = hashlib.sha256(data).hexdigest()
        toc = doc.get_toc()
        profile = DocumentProfile(
            doc_id=doc_id,
            file_name=file_name,
            total_pages=doc.page_count,
            has_usable_toc=bool(toc),
            toc_entries=len(toc),
            is_likely_scanned=False,
            has_tables=False,
            text_pages=doc.page_count,
            suggested_strategy="dispatched",
        )
        entry = LibraryEntry(
            doc_id=doc_id,
            file_name=file_name,
            size_bytes=len(data),
            total_pages=doc.page_count,
            added_at=datetime.now(UTC).isoformat(),
            profile=profile,
        )
        self._docs.setdefault(doc_id, (entry, data))
        return self._docs[doc_id][0]

    def entries(self) -> list[LibraryEntry]:
        return [e for e, _ in reversed(self._docs.values())]

    def get(self, doc_id: str) -> LibraryEntry:
        for key, (entry, _) in self._docs.items():
            if key.startswith(doc_id):
                return entry
        raise DocumentNotFoundError(f"no document {doc_id!r} in the library")

    def pdf_bytes(self, doc_id: str) -> bytes:
        return self._docs[self.get(doc_id).doc_id][1]

    def parsed(self, doc_id: str) -> ParsedDocument:
        entry = self.get(doc_id)
        doc = pymupdf.open(stream=self.pdf_bytes(doc_id), filetype="pdf")
        toc = tuple(TocEntry(level=lv, title=t, start_page=p, end_page=p) for lv, t, p in doc.get_toc())
        pages = tuple(
            PageText(page=n + 1, text=pg.get_text(), width=pg.rect.width, height=pg.rect.height)
            for n, pg in enumerate(doc)
        )
        return ParsedDocument(
            doc_id=entry.doc_id,
            file_name=entry.file_name,
            total_pages=doc.page_count,
            pages=pages,
            chunks=(),
            toc=toc,
            toc_source="outline" if toc else "none",
        )

    def delete(self, doc_id: str) -> None:
        self._docs.pop(self.get(doc_id).doc_id)


def fake_ensure_sample(library: FakeLibrary) -> LibraryEntry:
    from engine.samples import SAMPLE_FILE_NAME, build_sample_pdf

    return library.ingest(build_sample_pdf(), SAMPLE_FILE_NAME)


def _best_chunk(doc_id: str, data: bytes, question: str) -> Chunk:
    words = set(re.findall(r"\w+", question.lower()))
    doc = pymupdf.open(stream=data, filetype="pdf")
    best = None
    for page in doc:
        for index, block in enumerate(page.get_text("blocks")):
            score = len(words & set(re.findall(r"\w+", block[4].lower())))
            if best is None or score > best[0]:
                best = (score, page.number + 1, index, block)
    _, page_no, index, block = best
    return Chunk(
        chunk_id=f"{doc_id[:16]}:p{page_no}:b{index}",
        doc_id=doc_id,
        page=page_no,
        index=index,
        text=block[4].strip(),
        bboxes=(tuple(block[:4]),),
    )


def fake_answer(question, doc_ids, *, config=None, strategy=None, budget=None, library=None, progress=None, **_):
    config = config or EngineConfig()
    if not question.strip():
        raise LoupeError("the question is empty; type a question first")
    if not doc_ids:
        raise LoupeError("no document selected; upload a PDF or pick one from the library")
    limits = (
        budget.apply(config.budgets.moderate)
        if isinstance(budget, BudgetOverride)
        else (budget if isinstance(budget, Budget) else config.budgets.moderate)
    )
    requested = strategy or config.strategy
    effective = "dispatched" if requested == "auto" else requested
    for stage in ("parse", "understand", "dispatch", "answer", "done"):
        if progress:
            progress(ProgressEvent(stage=stage, message=f"fake {stage}"))
    entries = [library.get(d) for d in doc_ids]
    chunk = _best_chunk(entries[0].doc_id, library.pdf_bytes(entries[0].doc_id), question)
    passes = 1 + min(limits.max_iterations, 1) if effective != "single_pass" else 1
    history = tuple(
        IterationRecord(iteration=n, trigger="initial" if n == 0 else "incomplete_answer",
                        action_taken="retrieve" if n == 0 else "widen_scope", queries=(question,),
                        confidence_after=0.5 + 0.1 * n, narration=f"fake pass {n}")
        for n in range(passes))  # fmt: skip
    on = PatternDecision(on=True, reason="fake: always")
    off = PatternDecision(on=False, reason="fake: never")
    acts = Activations(**{name: on if name == "keyword_retrieval" else off for name in PATTERN_NAMES})
    ref = PageRef(doc_id=chunk.doc_id, file_name=entries[0].file_name, page=chunk.page)
    return RunResult(
        question=question, docs=tuple(PageRef(doc_id=e.doc_id, file_name=e.file_name, page=1) for e in entries),
        strategy_requested=requested, strategy_effective=effective, strategy_reason="fake", backend="offline",
        parsed_question=ParsedQuestion(original_question=question, intent="single_fact", complexity="moderate",
                                       keywords=tuple(question.split()[:3]), retrieval=RetrievalSpec(main_query=question)),
        profiles=tuple(e.profile for e in entries), activations=acts,
        answer=AnswerWithEvidence(text=chunk.text, citations=(Citation(chunk_id=chunk.chunk_id, doc_id=chunk.doc_id,
                                                                       page=chunk.page, quote=chunk.text[:80]),),
                                  confidence=0.6),
        history=history, stop_reason="single_pass" if effective == "single_pass" else "iteration_cap",
        exhausted=False, evidence_pages=(ref,), evidence_chunks=(chunk,), page_added_in=(0,),
        page_scores=(PageScore(doc_id=chunk.doc_id, page=chunk.page, retriever="keyword", score=1.0),),
        budget=limits, usage=Usage(iterations=passes - 1, llm_calls=passes, retrieval_calls=passes, latency_ms=5.0),
        config_fingerprint=config.fingerprint(),
    )  # fmt: skip
