"""A year no selected document names is declined, not answered with another year's figure (a made-up filing)."""

from __future__ import annotations

import pytest

from engine.contracts import CaveatKind
from engine.run.coverage import years_named
from tests.run.conftest import html_pdf

PAGES = [
    "<h1>Blue Ferry Annual Report</h1><p>Fare revenue was $410 million in 2041 and $380 million in 2040.</p>"
    "<p>Fare revenue rose as the harbour reopened after the works of FY39.</p>",
]


@pytest.fixture
def ask(ask_about):
    return ask_about(html_pdf(PAGES), "blue_ferry_2041.pdf")


def test_a_year_the_documents_never_name_is_declined_with_its_caveat(ask) -> None:
    answer = ask("What was Blue Ferry's fare revenue in 2052?").answer
    assert answer.text.startswith("The evidence does not establish an answer."), answer.text
    assert any(c.kind == CaveatKind.PERIOD_NOT_COVERED and c.subject == "2052" for c in answer.caveats)
    assert not answer.complete_answer_found


def test_a_year_the_documents_name_is_answered(ask) -> None:
    answer = ask("What was Blue Ferry's fare revenue in 2041?").answer
    assert "$410 million" in answer.text, answer.text
    assert not any(c.kind == CaveatKind.PERIOD_NOT_COVERED for c in answer.caveats)


def test_years_are_read_in_four_digits_or_two_after_fy() -> None:
    assert years_named(["notes due 2047", "as in FY39 and Q2 '40"]) == {2047, 2039, 2040}
