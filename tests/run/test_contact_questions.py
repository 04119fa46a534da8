"""A contact detail asked for is read from the page that names its subject and cited at the line printing it.

The PDF is made up: two practices of one health trust, each page naming its practice and printing its own
telephone number in a contact line."""

from __future__ import annotations

import pytest

from tests.run.conftest import html_pdf

FILLER = "Patients praised the reception staff and the short waiting times reported in the annual survey. "
PAGES = [
    "<h1>Harbour Clinic</h1><p>The Harbour Clinic serves the old town and the marina.</p><p>" + FILLER * 5 + "</p>"
    "<p>Harbour Clinic, 12 Quay Road, Portsea</p><p>Tel: 01234 567890</p>",
    "<h1>Dockside Surgery</h1><p>The Dockside Surgery opened in the converted warehouse by the ferry port.</p><p>"
    + FILLER * 5
    + "</p><p>Dockside Surgery, 3 Ferry Lane, Portsea</p><p>Telephone: 01234 998877</p>",
]


@pytest.fixture
def ask(ask_about):
    return ask_about(html_pdf(PAGES), "trust.pdf")


def test_the_number_of_the_practice_named_is_stated_and_its_line_cited(ask) -> None:
    result = ask("What is the telephone number of the Dockside Surgery?")
    assert result.answer.text.startswith("Telephone: 01234 998877 (p. 2)"), result.answer.text
    first = result.answer.citations[0]
    assert first.page == 2 and "01234 998877" in first.quote


def test_a_question_about_something_else_is_left_to_the_passages(ask) -> None:
    result = ask("When did the Dockside Surgery open?")
    assert "01234" not in result.answer.text
