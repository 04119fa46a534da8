"""A yes/no question comparing a value with a stated number is answered Yes or No with the value read."""

from __future__ import annotations

import pymupdf
import pytest

from tests.run.conftest import html_pdf


def _statement() -> bytes:
    """A one-page made-up income statement laid out in columns, then pages of other text."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), "Harbour Holdings Annual Report 2031", fontsize=16)
    page.insert_text((72, 110), "Consolidated Statement of Income", fontsize=12)
    rows = [("(Millions)", "2031", "2030"), ("Port revenues", "5,120", "4,671"), ("Operating income", "812", "655")]
    for n, (label, current, prior) in enumerate(rows):
        for x, text in ((72, label), (360, current), (440, prior)):
            page.insert_text((x, 140 + 16 * n), text, fontsize=10)
    filler = html_pdf(
        [f"<h2>Risk factor {n}</h2><p>{'Tides and weather affect berth use. ' * 12}</p>" for n in range(3)]
    )
    doc.insert_pdf(pymupdf.open("pdf", filler))
    return doc.tobytes()


@pytest.fixture
def ask(ask_about):
    return ask_about(_statement(), "harbour_2031_annual_report.pdf")


@pytest.mark.parametrize(
    ("question", "lead"),
    [
        ("Did port revenues exceed $5 billion in 2031?", "Yes: "),
        ("Was operating income in 2030 above $700 million?", "No: "),
    ],
)
def test_the_value_read_is_compared_with_the_number_asked(ask, question: str, lead: str) -> None:
    text = ask(question).answer.text
    assert text.startswith(lead), text
    assert "5,120" in text or "655" in text, text


def test_a_value_of_another_kind_than_the_number_is_not_stated_as_the_answer(ask) -> None:
    text = ask("Did any berth earn more than 20% of port revenues in 2031?").answer.text
    assert not text.startswith(("Yes", "No", "Port revenues, 2031")), text  # no value stated as the answer
