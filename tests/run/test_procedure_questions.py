"""A how-to question is answered by the numbered steps of the section that gives them, in order.

The PDF is made up: a kettle manual whose "Rinsing the kettle" section prints three numbered steps, the last
of which repeats most of the question's words, and another section that mentions rinsing in passing."""

from __future__ import annotations

import pytest

from tests.run.conftest import html_pdf

PAGES = [
    "<h2>1 Safety</h2><p>Never immerse the kettle in water. Rinse the kettle only as described in this manual.</p>"
    "<h2>2 Rinsing the kettle</h2>"
    "<p>1 Fill the tank with fresh water up to the MAX mark.</p>"
    "<p>2 Place a cup under the spout and press the Rinse button.</p>"
    "<p>3 Wait until the light stops blinking, then empty the cup to finish rinsing the kettle.</p>"
    "<p>• Use filtered water where the water is hard.</p>"
    "<h2>3 Cleaning</h2><p>Wipe the outside of the kettle with a damp cloth. Do not use scouring agents.</p>",
]


@pytest.fixture
def ask(ask_about):
    return ask_about(
        html_pdf(PAGES, toc=[[1, "1 Safety", 1], [1, "2 Rinsing the kettle", 1], [1, "3 Cleaning", 1]]), "kettle.pdf"
    )


def test_the_steps_of_the_task_are_stated_in_order(ask) -> None:
    text = ask("How do I rinse the kettle?").answer.text
    lines = text.splitlines()
    assert [line[:3] for line in lines] == ["1. ", "2. ", "3. "], text
    assert lines[0] == "1. Fill the tank with fresh water up to the MAX mark.", text
    assert "filtered water" not in text, "a note after the steps is not a step"


def test_a_question_that_asks_no_procedure_is_left_to_the_passages(ask) -> None:
    assert not ask("What should the kettle never be immersed in?").answer.text.startswith("1. ")


LIST_PAGES = [
    "<h2>1 Building the catalogue</h2><p>We build the catalogue with an automatic pipeline consisting of three "
    "steps: Shelf Scanning, Title Matching, and Record Merging. Each step runs nightly.</p>"
    "<h2>2 Checking the catalogue</h2><p>The records are checked on the following criteria:</p>"
    "<p>1 Accuracy: the record names the right book.</p><p>2 Freshness: the record was scanned this week.</p>",
]


def test_a_list_of_steps_stated_whole_is_not_replaced_by_another_sections_numbered_lines(ask_about) -> None:
    toc = [[1, "1 Building the catalogue", 1], [1, "2 Checking the catalogue", 1]]
    text = ask_about(html_pdf(LIST_PAGES, toc=toc), "catalogue.pdf")(
        "What are the steps of the automatic pipeline used to build the catalogue?"
    ).answer.text
    assert "Shelf Scanning" in text and "Record Merging" in text and "Accuracy" not in text, text
