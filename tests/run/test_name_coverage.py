"""A name no selected document prints is declined, not answered with another thing's figure (a made-up paper)."""

from __future__ import annotations

import pytest

from engine.contracts import CaveatKind
from engine.run.coverage import names_not_printed
from tests.run.conftest import html_pdf

PAGES = [
    "<h1>Results</h1><p>Our tagger Kite-3 reaches an accuracy of 91.2% on SetA-7 and 84.0% on SetC-2.</p>"
    "<p>The battery of the logging rig holds 4,000 mAh.</p>",
]


@pytest.fixture
def ask(ask_about):
    return ask_about(html_pdf(PAGES), "kite.pdf")


def test_a_name_the_documents_never_print_is_declined_with_its_caveat(ask) -> None:
    answer = ask("What accuracy does Kite-3 reach on SetB-9?").answer
    assert answer.text.startswith("The evidence does not establish an answer."), answer.text
    assert any(c.kind == CaveatKind.NAME_NOT_COVERED and c.subject == "SetB-9" for c in answer.caveats)
    assert not answer.complete_answer_found


def test_a_name_the_documents_print_is_answered(ask) -> None:
    answer = ask("What accuracy does Kite-3 reach on SetC-2?").answer
    assert "84.0%" in answer.text, answer.text
    assert not any(c.kind == CaveatKind.NAME_NOT_COVERED for c in answer.caveats)


def test_only_distinctive_names_count_and_their_parts_may_be_printed_apart() -> None:
    from engine.config import EngineConfig
    from engine.documents.parsing import parse_pdf

    doc = parse_pdf(html_pdf(PAGES), "kite.pdf", EngineConfig())
    asked = "What accuracy does Kite 3 reach on SetB-9 in FY2041 (see Table2-1)?"
    assert names_not_printed(asked, [doc]) == ["SetB-9"]  # a period and a reference are no names
    assert (
        names_not_printed("What is the ROA of the rig and its capacity in mAh?", [doc]) == []
    )  # "ROA": capitals alone
