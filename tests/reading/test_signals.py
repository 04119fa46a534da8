"""Feedback signals checked in code after any backend's answer (``engine.reading.signals.check_answer``)."""

from __future__ import annotations

import pytest

from engine.contracts import AnswerWithEvidence, Citation, ComparisonSide, EvidenceItem, caveat
from engine.contracts import CaveatKind as K
from engine.documents.text import stems
from engine.llm.offline import OfflineBackend
from engine.present.caveat_text import caveat_texts
from engine.reading.generation import ContextBundle, answer_request
from engine.reading.passages import split_units
from engine.reading.question import parse_question
from engine.reading.signals import check_answer, looks_garbled, side_covered


def ev(page: int, text: str, index: int = 0, section: tuple[str, ...] = ()) -> EvidenceItem:
    return EvidenceItem(chunk_id=f"d:p{page}:b{index}", doc_id="d", file_name="r.pdf", page=page, text=text,
                        section_path=section)  # fmt: skip


def model_answer(*cited: EvidenceItem, quote: str | None = None, text: str = "An answer.") -> AnswerWithEvidence:
    """What a model might return: a confident, 'complete' answer citing ``cited``."""
    citations = tuple(Citation(chunk_id=e.chunk_id, doc_id="d", page=e.page, quote=quote or e.text) for e in cited)
    return AnswerWithEvidence(text=text, citations=citations, complete_answer_found=True, confidence=0.9)


FILTERS = [
    ev(1, "We apply three kinds of filtering to the turbidity readings before analysis.", section=("2 Filtering",)),
    ev(2, "Median smoothing replaces each reading by the median of its neighbours.", section=("2 Filtering",)),
    ev(2, "Drift correction subtracts a linear drift from every series.", 1, section=("2 Filtering",)),
]
STATIONS = [
    ev(3, "Station values are listed in Table 3. Turbidity fell at Station A."),
    ev(4, "Heron 2 flies for 40 minutes on one battery."),
]


def test_a_complete_claim_is_kept_when_code_finds_no_problem():
    evidence = [ev(4, "Heron 2 flies for 40 minutes on one battery.")]
    parsed = parse_question("How long does the Heron 2 fly on one battery?")
    answer = model_answer(evidence[0], text="It flies for 40 minutes.")
    assert check_answer(answer, parsed, evidence) == answer


def test_an_answer_that_states_no_number_for_a_how_long_question_is_not_complete():
    evidence = [ev(4, "Heron 2 flies for 40 minutes on one battery.")]
    parsed = parse_question("How long does the Heron 2 fly on one battery?")
    checked = check_answer(model_answer(evidence[0], text="It flies on one battery."), parsed, evidence)
    assert not checked.complete_answer_found and checked.confidence < 0.9
    assert caveat(K.TYPE_NOT_STATED, "number") in checked.caveats


def test_a_yes_no_question_needs_a_yes_or_a_no():
    evidence = [ev(4, "The Heron 3 replaced the Heron 2 in 2024.")]
    parsed = parse_question("Did the Heron 3 replace the Heron 2?")
    assert not check_answer(
        model_answer(evidence[0], text="The Heron 3 replaced it."), parsed, evidence
    ).complete_answer_found
    yes = model_answer(evidence[0], text="Yes, in 2024.")
    assert check_answer(yes, parsed, evidence).complete_answer_found


def test_a_comparison_side_no_citation_covers_makes_the_answer_incomplete():
    evidence = [ev(4, "The Osprey flies for 40 minutes on one battery."), ev(5, "The Kestrel flies for 55 minutes.")]
    parsed = parse_question("Which flies longer, the Osprey or the Kestrel?")
    assert [s.label for s in parsed.sides] == ["Osprey", "Kestrel"]
    checked = check_answer(model_answer(evidence[0]), parsed, evidence)
    assert checked.uncovered_sides == ("Kestrel",) and not checked.complete_answer_found
    assert caveat(K.SIDE_UNCITED, "Kestrel") in checked.caveats
    assert check_answer(model_answer(*evidence), parsed, evidence).complete_answer_found


def test_a_part_of_the_question_no_citation_covers_is_named():
    evidence = [ev(1, "The Heron survey measured river turbidity at twelve stations."),
                ev(3, "Table 3: Mean turbidity per station (NTU)")]  # fmt: skip
    parsed = parse_question("What did the Heron survey measure, and where is the calibration shown?")
    assert len(parsed.parts) == 2
    checked = check_answer(model_answer(evidence[0]), parsed, evidence)
    assert not checked.complete_answer_found
    assert caveat(K.PARTS_UNCOVERED, "where is the calibration shown") in checked.caveats


def test_an_announced_count_above_the_items_found_makes_the_answer_incomplete():
    parsed = parse_question("What kinds of filtering are applied to the turbidity readings?")
    answer = model_answer(*FILTERS[1:]).model_copy(update={"found_count": 2})
    checked = check_answer(answer, parsed, FILTERS)
    assert (checked.expected_count, checked.found_count) == (3, 2), "the document announces 3; the model found 2"
    assert not checked.complete_answer_found
    assert caveat(K.COUNT_SHORT, figures=(3, 2)) in checked.caveats
    assert "the evidence announces 3 items but only 2 were found" in caveat_texts(checked.caveats)


def test_a_reference_whose_target_is_not_in_the_evidence_stays_pending():
    parsed = parse_question("Which station's turbidity fell?")
    checked = check_answer(model_answer(STATIONS[0]), parsed, STATIONS)
    assert checked.pending_references == ("Table 3",) and not checked.complete_answer_found
    assert caveat(K.PENDING_REFERENCE, "Table 3") in checked.caveats
    present = [*STATIONS, ev(6, "Table 3: Mean turbidity per station (NTU)\nStation A 4.2")]
    assert check_answer(model_answer(STATIONS[0]), parsed, present).pending_references == ()


def test_a_reference_only_another_passage_makes_is_followed_but_does_not_hold_the_answer_back():
    parsed = parse_question("What is the cruise speed of the Heron 3?")
    evidence = [ev(4, "The Heron 3 cruises at 58 kilometres per hour. Table 2 lists the specification.")]
    speed = "The Heron 3 cruises at 58 kilometres per hour."
    checked = check_answer(model_answer(evidence[0], quote=speed), parsed, evidence)
    assert checked.pending_references == ("Table 2",), "the loop may still follow it"
    assert checked.complete_answer_found and checked.caveats == ()
    whole = check_answer(model_answer(evidence[0]), parsed, evidence)  # the cited lines point to Table 2
    assert not whole.complete_answer_found and caveat(K.PENDING_REFERENCE, "Table 2") in whole.caveats


def test_garbled_context_is_flagged_for_any_backend():
    garbled = ev(7, "(cid:12)(cid:7) t u r b i d i t y (cid:3) values")
    parsed = parse_question("Which station's turbidity fell?")
    checked = check_answer(model_answer(STATIONS[0]), parsed, [*STATIONS, garbled])
    assert checked.garbled_pages == (7,) and not checked.context_structured and not checked.complete_answer_found


def test_signals_the_backend_reported_are_kept_and_not_repeated():
    parsed = parse_question("Which station's turbidity fell?")
    answer = model_answer(STATIONS[0]).model_copy(
        update={"pending_references": ("Table 3",), "caveats": (caveat(K.NOTE, detail="the model's own caveat"),)}
    )
    checked = check_answer(answer, parsed, STATIONS)
    assert checked.pending_references == ("Table 3",)
    assert checked.caveats == (caveat(K.NOTE, detail="the model's own caveat"),), (
        "no second caveat for a signal already reported"
    )


@pytest.mark.parametrize(
    ("question", "evidence"),
    [
        ("What kinds of filtering are applied to the turbidity readings?", FILTERS),
        ("Which station's turbidity fell?", STATIONS),
        ("Which flies longer, the Heron 2 or the Heron 3?", STATIONS),
        ("What did the Heron survey measure, and where are the station values shown?", [*FILTERS, *STATIONS]),
    ],
)
def test_the_check_never_contradicts_the_offline_answer(question, evidence):
    parsed = parse_question(question)
    request = answer_request(question, parsed, ContextBundle(evidence=tuple(evidence), tokens=100))
    offline = OfflineBackend().run("answer", request, AnswerWithEvidence).value
    assert check_answer(offline, parsed, evidence) == offline


def test_a_document_side_is_covered_only_by_a_passage_holding_a_whole_aspect_term():
    side = ComparisonSide(label="Acme API 1.0", query="file upload", keywords=("file upload",), doc_id="d")
    aspect = [stems("file upload")]
    only_file = split_units([ev(2, "By convention, the specification file is named api.json.")])
    assert not side_covered(side, only_file, aspect)  # "file" alone is not "file upload"
    both = split_units([ev(9, "A file upload is sent as a multipart form parameter.")])
    assert side_covered(side, both, aspect)
    titled = split_units([ev(9, "Parameters of type file are sent as multipart/form-data.", section=("File uploads",))])
    assert side_covered(side, titled, aspect)  # the section title says what the passage is about


def test_a_text_read_again_is_judged_as_the_first_time() -> None:
    clean = "Revenue grew to 12 million in 2023, driven by new customers in the northern region and abroad."
    garbled = "(cid:12)(cid:13) revenue"
    assert [looks_garbled(t) for t in (clean, garbled, clean, garbled)] == [False, True, False, True]
    assert [looks_garbled.__wrapped__(t) for t in (clean, garbled)] == [False, True]
