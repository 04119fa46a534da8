"""A passage that speaks only of other years than the one asked answers nothing of it: the answer is declined with
its passages offered as the closest found (a made-up filing whose next year is named only in its outlook)."""

from __future__ import annotations

import pytest

from engine.contracts import CaveatKind
from tests.run.conftest import html_pdf

PAGES = [
    "<h1>Gull Line Annual Report</h1><p>We ended fiscal 2041 with 6.2 million ferry pass members, up 40% from 4.4"
    " million at the end of fiscal 2040.</p><h2>Outlook</h2><p>In fiscal 2042 we plan to open two new routes.</p>",
]


@pytest.fixture
def ask(ask_about):
    return ask_about(html_pdf(PAGES), "gull_line_2041.pdf")


def test_a_passage_naming_only_other_years_than_the_one_asked_is_declined(ask) -> None:
    answer = ask("How many ferry pass members did Gull Line report when fiscal 2042 ended?").answer
    assert answer.text.startswith("The evidence does not establish an answer."), answer.text
    assert any(c.kind == CaveatKind.ANSWER_OTHER_PERIOD and c.subject == "2040, 2041" for c in answer.caveats)


def test_the_year_the_passage_names_is_answered(ask) -> None:
    answer = ask("How many ferry pass members did Gull Line report when fiscal 2041 ended?").answer
    assert "6.2 million" in answer.text.split("\n")[0], answer.text
    assert not any(c.kind == CaveatKind.ANSWER_OTHER_PERIOD for c in answer.caveats)


def test_a_closing_date_may_close_the_fiscal_year_before_it() -> None:
    from engine.run.coverage import _years_meant

    assert _years_meant("Net sales for the year ended January 30, 2042 were $1.2 billion") == {2041, 2042}
    assert _years_meant("We ended fiscal 2041 with 6.2 million members") == {2041}


def test_a_question_asking_no_year_is_answered_from_a_dated_passage(ask) -> None:
    answer = ask("How many ferry pass members did Gull Line have?").answer
    assert not any(c.kind == CaveatKind.ANSWER_OTHER_PERIOD for c in answer.caveats), answer.caveats
