"""A metric textbooks compute two ways is answered by its first definition and doubted, never declined.

The PDF is made up: a ferry company's balance sheet that prints cash, receivables and current liabilities but no
total current assets, so the quick ratio's other measure (current assets less inventories) cannot be read."""

from __future__ import annotations

import pymupdf
import pytest

from tests.run.conftest import html_pdf


def _balance_sheet() -> bytes:
    """A one-page made-up balance sheet laid out in columns, then pages of other text."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), "Ferrylink Holdings Annual Report 2031", fontsize=16)
    page.insert_text((72, 110), "Consolidated Balance Sheet", fontsize=12)
    rows = [
        ("(Millions)", "2031", "2030"), ("Cash and cash equivalents", "300", "200"),
        ("Accounts receivable, net", "500", "400"), ("Total current liabilities", "1,000", "1,000"),
    ]  # fmt: skip
    for n, (label, current, prior) in enumerate(rows):
        for x, text in ((72, label), (360, current), (440, prior)):
            page.insert_text((x, 140 + 16 * n), text, fontsize=10)
    filler = html_pdf([f"<h2>Risk factor {n}</h2><p>{'Fog and swell delay crossings. ' * 12}</p>" for n in range(3)])
    doc.insert_pdf(pymupdf.open("pdf", filler))
    return doc.tobytes()


@pytest.fixture
def ask(ask_about):
    return ask_about(_balance_sheet(), "ferrylink_2031_annual_report.pdf")


def test_the_first_definition_is_stated_not_claimed_and_its_doubt_shown(ask) -> None:
    result = ask("Did the quick ratio of Ferrylink rise or fall from 2030 to 2031?")
    text = result.answer.text
    assert text.startswith("Increased: 0.20 (+33.3%), from 0.60 in 2030 to 0.80 in 2031"), text
    assert not result.answer.complete_answer_found
    assert any("textbooks also compute it as" in (c.detail or "") for c in result.answer.caveats)


def test_a_judgement_asked_of_a_metric_states_the_metric_and_leaves_the_judgement_unclaimed(ask) -> None:
    result = ask("Is Ferrylink's liquidity sound, judging by its quick ratio in 2031?")
    text = result.answer.text
    assert text.startswith("0.80 (computed from"), text
    assert not result.answer.complete_answer_found
