"""A quoted sentence a page break cut in two is quoted whole: its beginning, on the page before, names the subject.

The PDF is made up: page 1 ends mid-sentence ("... Of the new models, the Heron 3"), page 2 opens with the rest
("carries twice the payload of its predecessor ...")."""

from __future__ import annotations

import pymupdf
import pytest

from engine.api import answer
from engine.config import EngineConfig
from engine.library.local import Library

CSS = "* {font-family: sans-serif; font-size: 11px;}"
FILLER = "The survey drones were flown over the estuary in spring and autumn under the same wind limits. "
PAGES = [
    "<h2>Fleet renewal</h2><p>" + FILLER * 6 + "Of the new models, the Heron 3</p>",
    "<p>carries twice the payload of its predecessor on the long estuary routes.</p><p>" + FILLER * 6 + "</p>",
]


@pytest.fixture
def library(config: EngineConfig) -> tuple[Library, str]:
    library = Library(config)
    doc = pymupdf.open()
    for html in PAGES:
        doc.new_page().insert_htmlbox(pymupdf.Rect(72, 72, 540, 720), html, css=CSS)
    entry = library.ingest(doc.tobytes(), "fleet.pdf")
    library.wait_for_background()
    return library, entry.doc_id


def test_the_sentence_cut_by_the_page_break_is_quoted_with_its_subject(library: tuple[Library, str]) -> None:
    lib, doc_id = library
    result = answer("Which drone carries twice the payload of its predecessor?", [doc_id], library=lib)
    assert "the Heron 3 carries twice the payload" in result.answer.text, result.answer.text
    assert {1, 2} <= {c.page for c in result.answer.citations}, result.answer.citations


def test_a_sentence_that_opens_its_page_whole_is_left_alone(library: tuple[Library, str]) -> None:
    lib, doc_id = library
    result = answer("When were the survey drones flown over the estuary?", [doc_id], library=lib)
    assert "Heron 3 The survey" not in result.answer.text and "Heron 3 the survey" not in result.answer.text
