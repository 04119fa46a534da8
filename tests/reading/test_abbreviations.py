"""Short forms a document defines are read back into the table rows labelled with them."""

from __future__ import annotations

from engine.contracts import EvidenceItem
from engine.reading.abbreviations import defined_abbreviations, with_long_names
from engine.reading.entities import named_words
from engine.reading.line_items import line_item_names
from engine.reading.question import extract_keywords
from engine.reading.table_values import table_cells
from engine.reading.value_match import rank_cells
from engine.reading.value_spec import value_spec

PROSE = [
    "We operate two divisions: (1) Quahog Ferries North (QFN), our passenger routes; and (2) Southern Cargo (SoC).",
    "Both report to the Harbour Board (Board) and file with the Maritime Safety Office (MSO).",
]


def test_a_short_form_that_spells_its_name_is_defined():
    found = defined_abbreviations(PROSE)
    assert found["QFN"] == "Quahog Ferries North"
    assert found["SoC"] == "Southern Cargo"
    assert found["MSO"] == "Maritime Safety Office"
    assert defined_abbreviations(["Quay Works and Aft & Wharf Moorings (AWM)"])["AWM"] == "Aft & Wharf Moorings"
    assert "Board" not in found  # one capital: a nickname, not a short form


def test_a_short_form_that_does_not_spell_the_name_defines_nothing():
    assert defined_abbreviations(["See the Fleet Register (Annex) and the Tide Tables (TT2)."]) == {}


def test_a_row_labelled_with_a_short_form_answers_for_the_full_name():
    table = EvidenceItem(
        chunk_id="d:p2:b0", doc_id="d", file_name="ferries.pdf", page=2,
        text="(in millions) | Revenue 2041 | Revenue 2040\nQFN | 416 | 388\nSoC | 102 | 98\nTotal division | 518 | 486",
    )  # fmt: skip
    cells = with_long_names(table_cells([table]), defined_abbreviations(PROSE))
    assert {c.label for c in cells} == {"QFN (Quahog Ferries North)", "SoC (Southern Cargo)", "Total division"}
    question = "What was the revenue of the Quahog Ferries North division in 2041?"
    spec = value_spec(question, extract_keywords(question), line_item_names(question))
    best = rank_cells(spec, cells)[0].cell
    assert (best.label, best.raw) == ("QFN (Quahog Ferries North)", "416")  # not the division total


def test_an_acronym_before_a_part_noun_is_a_name_a_metric_acronym_is_not():
    assert named_words("What were the net sales of the QFN segment in 2041?", ["Oarsmen"]) == ("qfn",)
    assert named_words("What was the EBITDA margin in 2041?", ["Oarsmen"]) == ()


def test_a_lower_case_name_is_defined_by_its_initials_plural_or_not() -> None:
    found = defined_abbreviations(["We track weekly paying riders (“WPRs”) and the mean trip length (MTL) closely."])
    assert found == {"WPRs": "weekly paying riders", "MTL": "mean trip length"}
    assert defined_abbreviations(["the harbour fee schedule (HFX)"]) == {}  # its initials are not the short form


def test_a_caption_printing_a_defined_short_form_names_the_long_name_and_the_dated_column_is_read() -> None:
    text = (
        "The following table details our average WPRs by route (in thousands):\n"
        "December 31, 2041 | September 30, 2041 | June 30, 2041 | March 31, 2041\n"
        "Harbour | 128 | 136 | 137 | 141\nIsland | 32 | 33 | 34 | 35"
    )
    page = [EvidenceItem(chunk_id="d:p9:b0", doc_id="d", file_name="GULL_2041_10K.pdf", page=9, text=text)]
    cells = with_long_names(table_cells(page), {"WPRs": "weekly paying riders"})
    assert all("weekly paying riders" in c.caption for c in cells)
    question = "What were Island's average weekly paying riders in the quarter ended June 30, 2041?"
    spec = value_spec(question, extract_keywords(question), [], ["GULL"])
    best = rank_cells(spec, cells)[0]
    assert (best.cell.label, best.cell.raw) == ("Island", "34") and best.period_match is True, best
