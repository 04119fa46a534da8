"""A run whose passages match too few of the question's terms states its best-supported reading, labelled as
not verified, instead of declining. The manual and its questions are made up: the guarantee is written with
other words than the question's ("covered against defects" for "warranty")."""

from __future__ import annotations

import pytest

from engine.contracts import CaveatKind as K
from engine.contracts import EvidenceItem
from engine.reading.answer_text import render
from engine.reading.extractive import extract_answer
from engine.reading.passages import score_units, split_units
from engine.reading.question import parse_question
from tests.run.conftest import html_pdf

PAGES = [
    "<h2>1 The Kestrel pump</h2><p>The Kestrel is a centrifugal pump for clean water. It is mounted on a steel skid "
    "and driven by an electric motor.</p>",
    "<h2>2 Installation</h2><p>The skid is bolted to a level concrete floor. The inlet pipe is flushed before the "
    "pump is connected.</p>",
    "<h2>3 Guarantee</h2><p>Kestrel units are covered against defects in material and workmanship for five years "
    "from delivery. Seals and impellers are wear parts.</p>",
    "<h2>4 Maintenance</h2><p>The bearings are greased every 500 running hours. The motor is inspected yearly.</p>",
]
WARRANTY = "How long is the warranty period on a Kestrel pump?"


def _item(page: int, text: str) -> EvidenceItem:
    return EvidenceItem(chunk_id=f"m:p{page}:b1", doc_id="m", file_name="kestrel.pdf", page=page, text=text,
                        section_path=(f"{page} Section",), score=0.5)  # fmt: skip


EVIDENCE = (_item(3, "Kestrel units are covered against defects for five years from delivery."),
            _item(4, "The bearings are greased every 500 running hours."))  # fmt: skip


def test_the_reader_chooses_passages_only_when_asked_for_its_best_effort() -> None:
    parsed = parse_question(WARRANTY)
    strict = extract_answer(WARRANTY, parsed, EVIDENCE)
    assert not strict.answer_found and any(c.kind == K.UNMATCHED for c in strict.caveats)
    assert all(c.role == "support" for c in strict.citations), "the closest passages, not an answer"
    best = extract_answer(WARRANTY, parsed, EVIDENCE, best_effort=True)
    assert best.answer_found and best.text.startswith("Kestrel units are covered against defects for five years")
    assert any(c.kind == K.UNMATCHED for c in best.caveats), "the reading says its passages match too few terms"
    assert not best.complete_answer_found and best.confidence <= strict.confidence
    assert best.citations[0].role == "answer" and best.citations[0].page == 3


def test_a_pronoun_sentence_after_the_sentence_it_refers_to_does_not_repeat_it() -> None:
    item = _item(1, "The Kestrel is a centrifugal pump for clean water. It is mounted on a steel skid.")
    question = "What is the Kestrel pump mounted on?"
    units = split_units([item])
    score_units(units, parse_question(question))
    assert units[1].lead_in, "the pronoun's sentence is read with the sentence naming the pump"
    text = render(parse_question(question), [("", units[0]), ("", units[1])], units)
    assert text == "The Kestrel is a centrifugal pump for clean water. It is mounted on a steel skid."
    assert render(parse_question(question), [("", units[1])], units).startswith("The Kestrel is a centrifugal")


@pytest.fixture
def ask(ask_about):
    return ask_about(html_pdf(PAGES), "kestrel_manual.pdf")


def test_a_run_states_its_best_reading_not_verified_with_the_closest_passages(ask) -> None:
    answer = ask(WARRANTY).answer
    assert answer.text.startswith("Kestrel units are covered against defects in material and workmanship for five")
    kinds = {c.kind for c in answer.caveats}
    assert {K.UNMATCHED, K.UNCLAIMED} <= kinds, "labelled: too few terms matched, not verified"
    assert not answer.complete_answer_found and answer.confidence < 0.5
    assert [c.page for c in answer.citations if c.role == "answer"] == [3]


def test_a_run_that_retrieves_nothing_has_no_reading_to_state(ask) -> None:
    answer = ask("Which refrigerant gas fills the chiller circuit?").answer
    assert not answer.answer_found and not answer.citations
    assert {c.kind for c in answer.caveats} == {K.NO_EVIDENCE}


VALVE = [
    "<h2>1 The Heron valve</h2><p>The Heron valve controls the flow of cooling water. It is cast in bronze.</p>",
    "<h2>2 Care</h2><p>Clean the seat of the valve with a soft brush. Replace the seals when they are worn.</p>",
]


def test_a_reading_that_states_no_number_where_a_number_is_asked_is_declined(ask_about) -> None:
    answer = ask_about(html_pdf(VALVE), "heron_valve.pdf")("How many turns open the Heron valve's handle fully?").answer
    assert answer.text.startswith("The evidence does not establish an answer."), answer.text
    assert not answer.complete_answer_found
