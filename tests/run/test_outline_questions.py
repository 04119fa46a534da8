"""A question about a section's parts is answered from the PDF's own outline, each part cited at its heading."""

from __future__ import annotations

import pytest

from engine.api import answer
from engine.config import EngineConfig
from engine.library.local import Library
from tests.pdfs import pdf_with_outline


@pytest.fixture
def ask(config: EngineConfig):
    library = Library(config)
    entry = library.ingest(pdf_with_outline(), "study.pdf")
    library.wait_for_background()
    return lambda question: answer(question, [entry.doc_id], library=library)


@pytest.mark.parametrize(
    "question", ["Which subsections does the Methods section include?", "List the subsections of section 2."]
)
def test_the_subsections_of_a_named_section_are_listed_with_their_pages(ask, question: str) -> None:
    result = ask(question)
    text = result.answer.text
    assert "2.1 Data (p. 2)" in text and "2.2 Training (p. 3)" in text, text
    assert "Results" not in text and "Introduction" not in text, text
    assert {c.page for c in result.answer.citations if c.role == "answer"} >= {2, 3}
    assert result.answer.answer_found


def test_a_section_the_outline_lacks_leaves_the_question_to_the_passages(ask) -> None:
    result = ask("Which subsections does the Appendix section include?")
    assert "has 2 subsections" not in result.answer.text
