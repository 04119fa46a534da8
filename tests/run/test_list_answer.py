"""A list answer is its lead sentence and the items under it, read on across a page break; a sentence that
only announces or counts the items is never the answer to "which ...?" (made-up PDF, offline run)."""

from __future__ import annotations

import pymupdf
import pytest

from engine.api import answer
from engine.config import EngineConfig
from engine.contracts import RunResult
from engine.library.local import Library

CSS = "* {font-family: sans-serif; font-size: 11px;}"
FILLER = "The district office keeps the maintenance records of every station for seven years. "

PAGES = [
    "<h1>Pump Station Manual</h1><h2>1 Stations</h2><p>" + FILLER * 8 + "</p>"
    "<h2>2 Weekly routine</h2><p>" + FILLER * 10 + "</p>"
    "<p>The station crew carries out the following inspections every week:</p>",
    "<p><b>Seal inspection</b> The shaft seals are checked for leaks and worn seals are logged.</p>"
    "<p><b>Bearing temperature</b> The temperature of each motor bearing is read with a probe.</p>"
    "<p><b>Float switch test</b> The float switches are lifted by hand to test the high-level alarm.</p>"
    "<p>Monthly work is planned by the district office and is not part of this routine.</p>"
    "<h2>3 Staffing</h2><p>" + FILLER * 6 + "</p>",
    "<h2>4 Records</h2><p>The crew runs five inspections each week and files one report per station.</p>"
    "<p>" + FILLER * 6 + "</p>",
]


def _manual() -> bytes:
    doc = pymupdf.open()
    for html in PAGES:
        doc.new_page().insert_htmlbox(pymupdf.Rect(72, 72, 540, 720), html, css=CSS)
    doc.set_toc([[1, "1 Stations", 1], [1, "2 Weekly routine", 1], [1, "3 Staffing", 2], [1, "4 Records", 3]])
    return doc.tobytes()


@pytest.fixture
def run(config: EngineConfig) -> RunResult:
    library = Library(config)
    entry = library.ingest(_manual(), "manual.pdf")
    library.wait_for_background()
    return answer("Which inspections does the station crew carry out every week?", [entry.doc_id],
                  strategy="dispatched", library=library)  # fmt: skip


def test_the_items_on_the_next_page_are_listed_under_their_lead(run: RunResult) -> None:
    lines = run.answer.text.splitlines()
    assert lines[0] == "The station crew carries out the following inspections every week:", run.answer.text
    assert [line.split(" ", 2)[1] for line in lines[1:4]] == ["Seal", "Bearing", "Float"]
    assert len(lines) == 4, "the plain paragraph after the items ends the list"
    assert {1, 2} <= {c.page for c in run.answer.citations if c.role == "answer"}
    assert "five" not in run.answer.text, "the count on page 3 is not the items asked"


GAUGE = [
    "<h1>Gauge Guide</h1><h2>1 Fitting</h2><p>" + FILLER * 6 + "</p>"
    "<h2>2 Readings</h2><p>" + FILLER * 4 + "</p>"
    "<p>The pressure gauge drifts in the following cases:</p>"
    "<p>• Within an hour after the tank is refilled</p><p>• After a night of frost</p>"
    "<p>• When the relief valve sticks open</p><p>• After the pipe is flushed with hot water</p>"
    "<p>Readings taken at the same hour each day compare best.</p>"
    "<h2>3 Storage</h2><p>" + FILLER * 6 + "</p>",
]


def test_a_list_its_lead_announces_is_read_whole_when_a_single_fact_is_asked(config: EngineConfig) -> None:
    library = Library(config)
    doc = pymupdf.open()
    doc.new_page().insert_htmlbox(pymupdf.Rect(72, 72, 540, 720), GAUGE[0], css=CSS)
    entry = library.ingest(doc.tobytes(), "gauge.pdf")
    library.wait_for_background()
    run = answer("In which cases does the pressure gauge drift?", [entry.doc_id], strategy="single_pass",
                 library=library)  # fmt: skip
    lines = run.answer.text.splitlines()
    assert lines[0] == "The pressure gauge drifts in the following cases:", run.answer.text
    assert len(lines) == 5 and "hot water" in lines[4], "all four items under the lead, not its first"


PUMP = (
    "<h1>Pump Guide</h1><h2>1 Fitting</h2><p>" + FILLER * 6 + "</p>"
    "<h2>2 Saving power</h2><p>You can help the pump use less power.</p>"
    "<ul><li>Flush the intake grille every month.</li><li>Run the pump at night when rates are low.</li></ul>"
    "<p>Plan the night runs a week ahead so the tank never runs dry.</p>"
    "<ul><li>Keep the pipes insulated in winter.</li></ul>"
    "<h2>3 Storage</h2><p>" + FILLER * 6 + "</p>"
)


def test_a_short_paragraph_over_list_items_leads_them_and_an_item_s_second_paragraph_does_not_end_them(
    config: EngineConfig,
) -> None:
    library = Library(config)
    doc = pymupdf.open()
    doc.new_page().insert_htmlbox(pymupdf.Rect(72, 72, 540, 720), PUMP, css=CSS)
    entry = library.ingest(doc.tobytes(), "pump.pdf")
    library.wait_for_background()
    run = answer("How can I help the pump use less power?", [entry.doc_id], strategy="single_pass", library=library)
    lines = run.answer.text.splitlines()
    assert lines[0] == "You can help the pump use less power.", run.answer.text
    assert any("insulated" in line for line in lines[1:]), "the item after the second paragraph is read too"
    assert sum(1 for line in lines[1:] if line[:1].isdigit()) == 3, run.answer.text
