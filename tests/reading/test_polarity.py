"""Yes or no from the one passage that states what a yes/no question asks (made-up passages)."""

from __future__ import annotations

import pytest

from engine.reading.polarity import stated_polarity


@pytest.mark.parametrize(
    ("question", "passage", "verdict"),
    [
        ("Are the canvas covers water resistant?", "Canvas covers are not water resistant.", "No"),
        ("Can the gauge be mounted on either side?", "You can mount the gauge on either side of the tank.", "Yes"),
        ("Is the pump waterproof?", "The pump is waterproof to 50 m, but not in salt water.", "Yes"),
        ("Can the filter be washed?", "The filter cannot be washed; replace it every month.", "No"),
    ],
)
def test_the_passage_s_sign_answers(question: str, passage: str, verdict: str) -> None:
    assert stated_polarity(question, passage) == verdict


@pytest.mark.parametrize(
    ("question", "passage"),
    [
        ("Is the pump waterproof?", "The pump ships with a spare filter and a hose."),  # speaks of something else
        ("Isn't the pump waterproof?", "The pump is waterproof."),  # a negated question: yes and no are ambiguous
        ("Did the ferry line's fares exceed its costs?", "The ferry line's fares and costs are shown in Table 3."),
        ("Did the harbour's traffic increase in 2031?", "Harbour traffic in 2031 is reported in the annex."),
    ],
)
def test_no_verdict_where_the_passage_does_not_settle_it(question: str, passage: str) -> None:
    assert stated_polarity(question, passage) is None


def test_the_answer_to_a_yes_no_question_leads_with_the_verdict() -> None:
    from engine.contracts import AnswerWithEvidence, EvidenceItem, TaskRequest
    from engine.llm.offline import OfflineBackend
    from engine.reading.question import parse_question

    question = "Are the canvas covers water resistant?"
    said = EvidenceItem(chunk_id="d:p3:b2", doc_id="d", file_name="covers.pdf", page=3,
                        text="Canvas covers are not water resistant. Dry them in the shade.")  # fmt: skip
    request = TaskRequest(question=question, parsed=parse_question(question), evidence=(said,))
    answer = OfflineBackend().run("answer", request, AnswerWithEvidence).value
    assert answer.text.startswith("No.\n") and "not water resistant" in answer.text, answer.text
