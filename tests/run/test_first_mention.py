"""A definition question reads the passage where the document introduces its term, which the keyword search ranks
under the many pages that use it (a made-up methods paper about tide blending)."""

from __future__ import annotations

import pytest

from engine.run.first_mention import term_pattern
from tests.run.conftest import html_pdf

USES = (
    "Tide blending with a two-hour window improved the harbour forecast at every gauge, and tide blending "
    "with a one-hour window did so at most gauges; tide blending also shortened the runs. "
)
PAGES = [
    "<h1>Abstract</h1><p>Harbour pilots plan their arrivals on forecasts that often miss the surge. We present "
    "Tide Blending, a forecasting method that averages the predictions of neighbouring gauges weighted by their "
    "distance. Pilots at four ports used it through a winter of storms.</p>",
    *[f"<h1>Results {n}</h1><p>{USES * 4}</p>" for n in range(1, 21)],
]


@pytest.fixture
def ask(ask_about):
    return ask_about(html_pdf(PAGES), "tides.pdf")


def test_the_introducing_passage_answers_what_the_term_is(ask) -> None:
    result = ask("What is tide blending?")
    assert "averages the predictions of neighbouring gauges" in result.answer.text, result.answer.text
    assert result.answer.citations[0].page == 1


@pytest.mark.parametrize(
    ("printed", "found"),
    [("Step-Back Prompting", True), ("STEP BACK PROMPTING", True), ("stepback prompting", False)],
)
def test_the_term_is_found_whatever_its_case_and_hyphens(printed: str, found: bool) -> None:
    assert bool(term_pattern("step-back prompting").search(f"We present {printed}, a method.")) is found


DEPOT_USES = (
    "Each of our regional depots reported higher volumes, and the regional depots in the north shared their "
    "trucks with the regional depots in the south; regional depots also cut their idle hours. "
)
DEPOT_PAGES = [
    *[f"<h1>Operations {n}</h1><p>{DEPOT_USES * 4}</p>" for n in range(1, 16)],
    "<h1>Our network</h1><p>We run four regional depots, as follows:</p>"
    "<ul><li>Harwick, serving the coast;</li><li>Bellmoor, serving the hills;</li>"
    "<li>Cranfield, serving the plains;</li><li>Ostby, serving the islands.</li></ul>",
    *[f"<h1>Results {n}</h1><p>{DEPOT_USES * 4}</p>" for n in range(1, 6)],
]


def test_a_listing_question_reads_the_passage_that_counts_its_subject(ask_about) -> None:
    result = ask_about(html_pdf(DEPOT_PAGES), "depots.pdf")("What are Acme's regional depots?")
    assert all(name in result.answer.text for name in ("Harwick", "Bellmoor", "Cranfield", "Ostby")), result.answer.text


def test_a_count_names_its_subject_within_two_words() -> None:
    from engine.run.first_mention import counted_pattern

    pattern = counted_pattern("regional depots")
    assert pattern.search("We run four regional depots.") and pattern.search("its 12 inland freight depots")
    assert not pattern.search("four of the many regional depots")


ROUTINE_PAGES = [
    "<h1>3 Care</h1><p>We run three care routines on every pump.</p>"
    "<ul><li>FLUSH: the pump is flushed with clean water.</li></ul><p>Example: flush for two minutes.</p>"
    "<p>Then drain the tank.</p>"
    "<ul><li>GREASE: the bearings are greased.</li></ul><p>Example: one shot per bearing.</p>"
    "<ul><li>INSPECT: the seals are inspected for leaks.</li></ul>"
    "<h1>4 Storage</h1><p>Store the pump in a dry room.</p>",
]


def test_a_counted_lead_is_read_with_all_its_items_past_their_own_paragraphs(ask_about) -> None:
    text = ask_about(html_pdf(ROUTINE_PAGES), "routines.pdf")("Which care routines can the crew run?").answer.text
    assert all(name in text for name in ("FLUSH", "GREASE", "INSPECT")), text
