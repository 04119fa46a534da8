"""A where-question naming a title ("On which page of the report is the Statement of Tolls?") is answered with the
page of the heading that prints that title, not with a sentence elsewhere that mentions it."""

from __future__ import annotations

import pymupdf

from engine.api import answer
from engine.config import EngineConfig
from engine.library.local import Library
from engine.reading.answer_shape import where_topic
from tests.pdfs import FILLER, _bytes, _Writer


def _report() -> bytes:
    doc = pymupdf.open()
    w = _Writer(doc)
    w.new_page().heading("Harbour Board Annual Report 2031").para(
        "We have audited the accompanying statement of tolls of the harbour board for the year 2031.", *FILLER
    )
    w.para("The statement of tolls presents fairly, in all material respects, the tolls collected.", *FILLER)
    w.new_page().heading("Review of the Year").para("Traffic grew in every quarter of the year.", *FILLER)
    w.new_page().heading("STATEMENT OF TOLLS").para("(in thousands)")
    w.para("Pilotage tolls | 4,210 | 3,980", "Berth tolls | 2,115 | 2,040", "Total tolls | 6,325 | 6,020")
    return _bytes(doc)


def test_the_topic_of_a_which_page_question_naming_its_document() -> None:
    asked = "On which page of the harbour board's 2031 report is the Statement of Tolls?"
    assert where_topic(asked) == "Statement of Tolls"


def test_the_page_of_the_heading_printing_the_title_answers(config: EngineConfig) -> None:
    library = Library(config)
    entry = library.ingest(_report(), "harbour_report.pdf")
    library.wait_for_background()
    asked = "On which page of the harbour board's 2031 report is the Statement of Tolls?"
    text = answer(asked, [entry.doc_id], library=library).answer.text
    assert text.startswith("STATEMENT OF TOLLS (page 3)"), text
