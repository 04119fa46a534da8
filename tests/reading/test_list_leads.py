"""Items a counting lead names after its colon, each with a clause that describes it (made-up passages)."""

from __future__ import annotations

from engine.reading.lists import split_inline


def test_items_named_with_a_relative_clause_each_are_the_items_not_the_clauses() -> None:
    said = (
        "The harbour has two kinds of berths: deep berths, which take tankers, and shallow berths, which take ferries."
    )
    assert split_inline(said) == ("The harbour has two kinds of berths:", ["deep berths", "shallow berths"])
    counted_wrong = "The harbour has three kinds of berths: deep berths, which take tankers, and shallow berths."
    assert split_inline(counted_wrong) is None, "the count must match the items named"


def test_a_run_in_title_before_the_lead_does_not_hide_its_items() -> None:
    said = "3) Required Checks: each audit also covers three checks: cash counts, stock counts, and payroll."
    assert split_inline(said) == (
        "3) Required Checks: each audit also covers three checks:",
        ["cash counts", "stock counts", "payroll"],
    )


def _answered(question: str, *passages: str) -> str:
    """The offline reader's answer to ``question`` from made-up passages of one page, in order."""
    from engine.contracts import AnswerWithEvidence, EvidenceItem, TaskRequest
    from engine.llm.offline import OfflineBackend
    from engine.reading.question import parse_question

    evidence = tuple(
        EvidenceItem(chunk_id=f"d:p2:b{n}", doc_id="d", file_name="notes.pdf", page=2, text=text)
        for n, text in enumerate(passages)
    )
    request = TaskRequest(question=question, parsed=parse_question(question), evidence=evidence)
    return OfflineBackend().run("answer", request, AnswerWithEvidence).value.text


def test_a_listing_answer_prefers_the_sentence_naming_as_many_items_as_the_question_counts() -> None:
    text = _answered(
        "What three checks does every audit cover?",
        "Every audit weighs three checks and two goals of the board: accuracy and speed.",
        "Required Checks: every audit also covers three checks: cash counts, stock counts, and payroll.",
    )
    assert "cash counts" in text and "payroll" in text and "accuracy" not in text


def test_names_holding_an_and_are_split_at_the_commas_or_semicolons_that_give_the_count() -> None:
    said = "The port runs three terminals: Oil and Gas, Grain, and Ferries."
    assert split_inline(said) == ("The port runs three terminals:", ["Oil and Gas", "Grain", "Ferries"])
    semis = "The port runs three terminals: Oil and Gas; Grain; and Ferries."
    assert split_inline(semis) == ("The port runs three terminals:", ["Oil and Gas", "Grain", "Ferries"])
    assert split_inline("It has two parts: the pump, the valve and the float.") is None  # no comma before "and"


def test_a_verb_may_name_a_counted_subjects_items_when_they_are_names() -> None:
    said = "The port runs three terminals. The terminals are Oil and Gas, Grain, and Ferries."
    assert split_inline(said) == (
        "The port runs three terminals. The terminals are:",
        ["Oil and Gas", "Grain", "Ferries"],
    )
    assert split_inline("The two pumps are fast and quiet.") is None  # qualities, not names


def test_of_two_inline_lists_the_one_naming_the_listed_subject_leads() -> None:
    text = _answered(
        "Which pump models did the depot crews service in the coastal depots?",
        "To service the coastal depots, the crews visited pumps in two regions: North and South.",
        "The crews serviced three pump models: Kestrel, Osprey, and Heron.",
    )
    assert "Kestrel" in text and "Heron" in text and "North" not in text, text


def test_a_sentence_naming_the_following_things_inside_a_paragraph_leads_the_items_after_it() -> None:
    from engine.contracts import AnswerWithEvidence, EvidenceItem, TaskRequest
    from engine.llm.offline import OfflineBackend
    from engine.reading.question import parse_question

    passages = [
        ("Pumps wear out. We propose the following habits to keep pumps running. Some matter more.", "text", 2),
        ("• Flushing. Flush the pump monthly.", "list_item", 2),
        ("• Clearing. Keep the intake clear of weed.", "list_item", 2),
        ("• Resting. Let the pump rest for an hour a day.", "list_item", 2),
        ("• Open problems: the authors propose no habits that keep every pump running.", "list_item", 9),
    ]
    evidence = tuple(
        EvidenceItem(chunk_id=f"d:p{page}:b{n}", doc_id="d", file_name="notes.pdf", page=page, text=text, kind=kind)
        for n, (text, kind, page) in enumerate(passages)
    )
    question = "What habits do the authors propose to keep pumps running?"
    request = TaskRequest(question=question, parsed=parse_question(question), evidence=evidence)
    text = OfflineBackend().run("answer", request, AnswerWithEvidence).value.text
    assert "Flushing" in text and "Clearing" in text and "Resting" in text, text
    assert "We propose the following habits" in text and "Open problems" not in text, "the lead's own items"
