"""Questions that ask for a measure ("how long", "how far", "how heavy"): a number of that kind answers."""

from __future__ import annotations

from engine.contracts import EvidenceItem
from engine.documents.text import stems
from engine.reading.line_items import line_item_names
from engine.reading.measures import dimension_of, dimensions_asked, measure_fit, measure_words
from engine.reading.table_values import measure_of
from engine.reading.value_answer import answer_value


def item(text: str, page: int = 1) -> EvidenceItem:
    return EvidenceItem(chunk_id=f"d:p{page}:b0", doc_id="d", file_name="rover_notes.pdf", page=page, text=text)


def test_units_belong_to_one_dimension_and_counts_to_none():
    assert dimension_of("days") == "time" and dimension_of("km") == "length" and dimension_of("kg") == "mass"
    assert dimension_of("people") is None and dimension_of("") is None


def test_the_adjective_of_a_how_question_names_the_dimensions_asked():
    assert dimensions_asked("How long did the survey take?") == ("time", "length")
    assert dimensions_asked("How far can the rover drive on one charge?") == ("length",)
    assert dimensions_asked("How big is the crater?") == ()  # size may be any measure
    assert dimensions_asked("What is the rover's mass?") == ()
    assert measure_words("How long does the battery last?") == stems("long take last")


def test_a_question_headed_by_a_quantity_asks_its_dimension():
    assert dimensions_asked("What clearance is needed behind the kettle?") == ("length",)
    assert dimensions_asked("What is the minimum storage temperature of the pump?") == ("temperature",)
    assert dimensions_asked("What weight can the rack hold?") == ("mass",)
    assert dimensions_asked("What does the temperature setting control?") == ()  # a control, not a quantity
    assert dimensions_asked("Which speed sensor does the rover use?") == ()
    assert dimensions_asked("Why is a clearance needed?") == ()  # asks a reason


def test_a_number_of_the_dimension_asked_is_preferred_and_a_bare_count_is_not():
    asked = dimensions_asked("How long did the calibration run take?")
    assert measure_fit(asked, "hours", is_row=False) > 0 > measure_fit(asked, "", is_row=False)
    assert measure_fit(asked, "", is_row=True, header="Calibration run | Duration (hours)") > 0  # the header's unit
    assert measure_fit(asked, "", is_row=True, header="Calibration run | Memory (GB)") == 0.0  # another unit, unasked
    assert measure_fit(asked, "", is_row=True, header="Calibration run | Score") < 0  # no unit printed at all
    assert measure_fit((), "", is_row=False) == 0.0


def test_the_time_of_a_sentence_that_also_counts_answers_how_long():
    pages = [[item("The calibration run covered 12,000 samples (about 6 hours) on the rover's main board.")]]
    value = answer_value("How long did the calibration run take?", ["calibration run"], line_item_names, pages)
    assert value is not None and value.statement.startswith("6 hours"), value


def test_a_specification_sheet_s_units_are_read_after_their_figures() -> None:
    assert [dimension_of(measure_of(t)) for t in ("310 g", "150W", "24 V", "300 lm", "350 cd/m²")] == [
        "mass", "power", "voltage", "light", "light"
    ]  # fmt: skip
    assert measure_of("5G network") == "" and measure_of("3 G") == ""  # one-letter units only as SI prints them
    assert dimensions_asked("What is the brightness of the Lumen Pro?") == ("light",)


def test_a_quantity_asked_behind_a_preposition_asks_its_dimension_and_a_value():
    from engine.reading.value_asks import asks_for_value

    question = "If the cuff keeps filling, above what pressure should the rider loosen it?"
    assert dimensions_asked(question) == ("pressure",) and asks_for_value(question)
    assert dimensions_asked("At what temperature does the pump stop?") == ("temperature",)
    assert dimensions_asked("At what temperature setting is the pump quiet?") == ()  # a control, not a quantity
    assert [dimension_of(measure_of(t)) for t in ("0.6 MPa", "6 bar", "300 mmHg", "40 kPa")] == ["pressure"] * 4


def test_the_sentence_with_a_figure_of_the_pressure_asked_answers_it():
    pages = [
        [
            item(
                "If the cuff feels tight, stop the reading and loosen the cuff and the strap. "
                "Loosen the strap if the cuff pressure rises to more than 280 mmHg and does not fall by itself."
            )
        ]
    ]
    question = (
        "If the cuff keeps filling and does not empty by itself, above what pressure should the strap be loosened?"
    )
    value = answer_value(question, ["cuff", "strap", "pressure"], line_item_names, pages)
    assert value is not None and "280 mmHg" in value.statement, value


def test_a_name_in_the_opening_that_says_where_to_read_is_no_name_asked():
    from engine.reading.value_spec import value_spec

    spec = value_spec("In the Kestrel paper, how long did one step take for the large models?", [], [])
    assert spec.named == ()
    assert value_spec("How long did one Kestrel step take?", [], []).named == ("kestrel",)


def test_a_sentence_stating_the_time_asked_beats_a_table_score_of_the_paper_s_model():
    pages = [
        [item("For our large models, each single training step took 1.2 seconds.")],
        [item("Model | EN-DE | EN-FR\nKestrel (large) | 27.1 | 40.2\nKestrel (base) | 25.3 | 38.0")],
    ]
    question = "In the Kestrel paper, how long did a single training step take for the large models?"
    from engine.reading.question import extract_keywords

    value = answer_value(question, extract_keywords(question), line_item_names, pages)
    assert value is not None and value.statement.startswith("1.2 seconds"), value
