"""A superlative over a kind of line item is picked among the rows the statement's total sums; a comparative
between two named sides is not (made-up filings of two ferry operators)."""

from __future__ import annotations

import pymupdf
import pytest


def filing(name: str, rows: list[tuple[str, str]]) -> bytes:
    """A two-page filing: prose, then a balance sheet whose rows print their label and amount apart."""
    doc = pymupdf.open()
    doc.new_page().insert_text(
        (72, 72), f"{name} Annual Report 2041. The ferries carried more passengers.", fontsize=11
    )
    page = doc.new_page()
    page.insert_text((72, 72), "Consolidated Balance Sheets", fontsize=16)
    page.insert_text((72, 100), "(Dollars in millions)", fontsize=10)
    page.insert_text((420, 100), "2041", fontsize=10)
    for n, (label, value) in enumerate(rows):
        page.insert_text((72, 124 + 16 * n), label, fontsize=10)
        page.insert_text((420, 124 + 16 * n), value, fontsize=10)
    return doc.tobytes()


BLUE = filing("Blue Ferry", [("Current liabilities:", ""), ("Dock fees payable", "$ 700"),
              ("Ticket deposits", "1,900"), ("Accrued wages", "300"), ("Total current liabilities", "$ 2,900")])  # fmt: skip


@pytest.fixture
def ask(ask_about):
    return ask_about(BLUE, "blue_ferry_2041.pdf")


def test_the_largest_current_liability_is_picked_among_the_rows_its_total_sums(ask) -> None:
    text = ask("Which current liability was the largest for Blue Ferry in 2041?").answer.text
    assert text.startswith("Ticket deposits, 2041: $1,900 million (the largest of 3 line items)"), text


def test_a_comparative_between_two_named_sides_is_no_pick_among_line_items(ask) -> None:
    text = ask("Which had more current liabilities in 2041, Blue Ferry or its harbour?").answer.text
    assert "line items" not in text, text
