"""A question naming a filled-in form's field is answered by the value printed against its label.

The PDF is made up: a works request whose first page is a numbered form, the second a narrative that names
the agency's partners in passing."""

from __future__ import annotations

import pytest

from tests.run.conftest import html_pdf

PAGES = [
    "<h2>Harbour Works Request</h2><p>1. Date of Request:<br>4/11/2031</p><p>2. Agency:<br>Department of Harbours</p>"
    "<p>3. Division:<br>Dredging and Moorings</p><p>4. Name of this Works Item:<br>East Basin Deepening</p>",
    "<h2>Justification</h2><p>The agency works with the Port Pilots Association and the Coast Survey Office on every "
    "deepening. The deepening lets larger vessels call at any tide and shortens waiting times at anchor.</p>",
]


@pytest.fixture
def ask(ask_about):
    return ask_about(html_pdf(PAGES), "works_request.pdf")


def test_the_value_of_the_field_named_is_stated_with_its_label(ask) -> None:
    result = ask("Which agency filed the works request?")
    assert result.answer.text.startswith("Department of Harbours (Agency, p. 1)"), result.answer.text
    assert result.answer.citations[0].page == 1


def test_a_question_no_field_answers_is_left_to_the_passages(ask) -> None:
    text = ask("What does the deepening let larger vessels do?").answer.text
    assert "(Agency" not in text and "(Division" not in text, text
