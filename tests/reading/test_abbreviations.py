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
