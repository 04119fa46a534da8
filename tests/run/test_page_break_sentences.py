"""A quoted sentence a page break cut in two is quoted whole: its beginning, on the page before, names the subject.

The PDF is made up: page 1 ends mid-sentence ("... Of the new models, the Heron 3"), page 2 opens with the rest
("carries twice the payload of its predecessor ...")."""

from __future__ import annotations

import pytest

from tests.run.conftest import html_pdf

FILLER = "The survey drones were flown over the estuary in spring and autumn under the same wind limits. "
PAGES = [
    "<h2>Fleet renewal</h2><p>" + FILLER * 6 + "Of the new models, the Heron 3</p>",
    "<p>carries twice the payload of its predecessor on the long estuary routes.</p><p>" + FILLER * 6 + "</p>",
]


@pytest.fixture
def ask(ask_about):
    return ask_about(html_pdf(PAGES), "fleet.pdf")


def test_the_sentence_cut_by_the_page_break_is_quoted_with_its_subject(ask) -> None:
    result = ask("Which drone carries twice the payload of its predecessor?")
    assert "the Heron 3 carries twice the payload" in result.answer.text, result.answer.text
    assert {1, 2} <= {c.page for c in result.answer.citations}, result.answer.citations


def test_a_sentence_that_opens_its_page_whole_is_left_alone(ask) -> None:
    result = ask("When were the survey drones flown over the estuary?")
    assert "Heron 3 The survey" not in result.answer.text and "Heron 3 the survey" not in result.answer.text
