"""A survey's breakdown rows labelled by brackets ("65-69", "$50,000-$74,999", "80+") are read, under their heading."""

from __future__ import annotations

from engine.contracts import EvidenceItem
from engine.reading.brackets import brackets_in, in_group, is_bracket, names_bracket
from engine.reading.question import extract_keywords
from engine.reading.table_values import Cell, table_cells
from engine.reading.value_asks import topic_prefix
from engine.reading.value_match import rank_cells
from engine.reading.value_spec import value_spec

TABLE = "\n".join([
    "Ride daily | Own a bike",
    "All riders | 41% | 63%",
    "Age",
    "18-29 | 52 | 70",
    "65+ | 22 | 48",
    "Household Income",
    "<$25,000 | 30 | 44",
    "$40,000-$59,999 | 44 | 66",
    "$60,000+ | 47 | 75",
    "1,204 | 5 | 6",
])  # fmt: skip


def _cells() -> list[Cell]:
    item = EvidenceItem(chunk_id="c", doc_id="d", file_name="riders.pdf", page=4, text=TABLE, kind="text",
                        section_path=("Who rides",), score=1.0)  # fmt: skip
    return table_cells([item])


def test_brackets_are_ranges_and_open_ends_not_figures_or_year_spans():
    assert is_bracket("65-69") and is_bracket("$75,000+") and is_bracket("<$30,000") and not is_bracket("1,204")
    assert brackets_in("riders earning $40,000 - $59,999 in 2030-31 or aged 65+?") == {"$40,000-$59,999", "65+"}
    assert brackets_in("riders aged 30-49, or 1-4 times a week") == {"30-49", "1-4"}  # a comma after is no part of it


def test_bracket_rows_are_read_with_the_heading_of_their_breakdown():
    labels = {c.label for c in _cells()}
    assert {"Age 18-29", "Age 65+", "Household Income <$25,000", "Household Income $40,000-$59,999"} <= labels
    assert "1,204" not in labels  # a figure alone labels no row
    assert in_group("All riders", "Age") == "All riders" and names_bracket("Age 65+", "riders aged 65+")


def test_the_row_of_the_bracket_asked_is_read():
    question = "In the city's 2031 survey report on cycling, what share of riders with household income of $40,000-$59,999 own a bike?"
    assert topic_prefix(question).startswith("In the city's 2031 survey report")
    best = rank_cells(value_spec(question, extract_keywords(question), ()), _cells())[0].cell
    assert (best.label, best.column, best.raw) == ("Household Income $40,000-$59,999", "Own a bike", "66")


def test_a_survey_table_s_title_line_names_what_its_rows_share():
    item = EvidenceItem(chunk_id="c", doc_id="d", file_name="riders.pdf", page=4, score=1.0, kind="text",
                        section_path=("Who rides",), text="% of adult riders who …\n" + TABLE)  # fmt: skip
    cell = next(c for c in table_cells([item]) if c.label == "Age 65+" and c.column == "Own a bike")
    assert "adult riders" in cell.caption and cell.raw == "48"
    assert cell.unit == "%"  # the title says its figures are shares, though they print no % sign


def test_the_year_of_a_report_named_before_the_question_is_no_period_asked():
    question = "In the city's 2031 survey report, what share of riders aged 65+ own a bike?"
    spec = value_spec(question, extract_keywords(question), ())
    assert spec.periods == ()
    assert value_spec("What share of riders aged 65+ owned a bike in 2031?", ["riders", "bike"], ()).periods != ()
