"""Builders for the contracts the composition tests need."""

from __future__ import annotations

from engine.contracts import DocumentProfile, ParsedQuestion, RetrievalSpec


def question(
    text: str = "What is the capital?",
    intent: str = "single_fact",
    keywords: tuple[str, ...] = ("capital",),
    complexity: str = "simple",
    section_hint: str | None = None,
    layout_hint: str | None = None,
    references: tuple[str, ...] = (),
    expected_count: int | None = None,
    asks_for_value: bool = False,
    sides: tuple = (),
) -> ParsedQuestion:
    return ParsedQuestion(
        original_question=text,
        intent=intent,
        complexity=complexity,
        keywords=keywords,
        retrieval=RetrievalSpec(
            main_query=text, anchor_keywords=keywords, section_hint=section_hint, layout_hint=layout_hint
        ),
        references=references,
        expected_count=expected_count,
        asks_for_value=asks_for_value,
        sides=sides,
    )


def profile(toc: int = 0, scanned: bool = False, tables: bool = False, pages: int = 10) -> DocumentProfile:
    return DocumentProfile(
        doc_id="d" * 64,
        file_name="doc.pdf",
        total_pages=pages,
        has_usable_toc=toc >= 3,
        toc_entries=toc,
        is_likely_scanned=scanned,
        has_tables=tables,
        text_pages=0 if scanned else pages,
        suggested_strategy="dispatched",
    )
