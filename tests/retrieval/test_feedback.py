"""Words one compared document lends the search of the other (``engine.retrieval.feedback``)."""

from __future__ import annotations

from engine.documents.text import stems
from engine.retrieval.feedback import borrowed_words

ANSWERING = [
    "To upload multiple files, a multipart media type must be used. The multipart parts carry the binary file.",
]
OTHER = [
    "The specification file is named swagger.json by convention.",
    "Form parameters are sent as multipart/form-data; this is the only way to send files.",
    *[f"Paths and operations are described in section {n}. Each operation lists its parameters." for n in range(8)],
]


def test_a_word_the_other_document_uses_on_few_pages_is_lent() -> None:
    words = borrowed_words(ANSWERING, OTHER, known=stems("file upload"))
    assert words[0] == "multipart"


def test_the_questions_own_words_and_words_the_other_document_lacks_are_not_lent() -> None:
    words = borrowed_words(ANSWERING, OTHER, known=stems("file upload"))
    assert "upload" not in words and "files" not in words  # the question's own terms
    assert "binary" not in words and "media" not in words  # never used by the other document


def test_the_other_documents_common_words_are_not_lent() -> None:
    answering = ["Each operation lists its parameters and the multipart body."]
    words = borrowed_words(answering, OTHER, known=set())
    assert "operation" not in words and "parameters" not in words  # on most of its pages
    assert "multipart" in words


def test_nothing_to_lend_without_pages() -> None:
    assert borrowed_words(ANSWERING, [], known=set()) == []
