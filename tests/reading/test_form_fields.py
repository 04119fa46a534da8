"""A filled-in form's fields, and the field a question asks for."""

from __future__ import annotations

import pytest

from engine.reading.form_fields import asked_field, asked_target, fields_in

FORM = """Harbour Works Request (Revision 3)
1. Date of Request:
4/11/2031
2. Agency: Department of Harbours
3. Division: | Dredging and Moorings
4. Name of this Works Item:
East Basin Deepening
5. Describe the expected benefits of the works, including how they reduce the risk of groundings and delays for the vessels calling at the port:
The deepening lets larger vessels call at any tide."""


def test_labels_with_their_values_under_after_or_beside_them() -> None:
    found = {f.label: f.value for f in fields_in(FORM)}
    assert found["Date of Request"] == "4/11/2031"
    assert found["Agency"] == "Department of Harbours"
    assert found["Division"] == "Dredging and Moorings"
    assert found["Name of this Works Item"] == "East Basin Deepening"
    assert not any(label.startswith("Describe") for label in found), "a long prompt is not a field's name"


@pytest.mark.parametrize(
    ("question", "target"),
    [
        ("Which agency filed the request?", "agency"),
        ("What is the name of this works item?", "name"),
        ("When was the request filed?", "date"),
        ("Is the basin deep enough?", None),
    ],
)
def test_the_thing_asked(question: str, target: str | None) -> None:
    assert asked_target(question) == target


@pytest.mark.parametrize(
    ("question", "value"),
    [
        ("Which agency filed the request?", "Department of Harbours"),
        ("Which division carries out the works?", "Dredging and Moorings"),
        ("What is the date of request?", "4/11/2031"),
        ("What is the name of this works item?", "East Basin Deepening"),
    ],
)
def test_the_field_asked_is_the_one_whose_label_names_the_thing_asked(question: str, value: str) -> None:
    field = asked_field(question, fields_in(FORM))
    assert field is not None and field.value == value


@pytest.mark.parametrize(
    "question",
    ["What is the agency's budget for dredging?", "What benefits does the deepening bring?", "Which vessels call?"],
)
def test_a_question_about_something_the_label_does_not_name_gets_no_field(question: str) -> None:
    assert asked_field(question, fields_in(FORM)) is None


def test_a_prompt_example_or_a_lone_labelled_line_is_not_a_form() -> None:
    example = (
        "Question: Which port is deepest?\nAnswer: Port Anselm\nContext: a list of ports\nNote: depths at low tide"
    )
    assert asked_field("What is the answer of the model?", fields_in(example)) is None
    lone = "The dredging plan was approved.\nAgency: Department of Harbours\nIt starts in spring."
    assert asked_field("Which agency approved the plan?", fields_in(lone)) is None


def test_a_list_lead_and_a_table_heading_are_not_fields() -> None:
    text = (
        "Berth costs rose due to the following:\nCrane hire\n"
        "Current obligations:\nPilot fees | $ 410 | $ 380\n"
        "Agency: Department of Harbours\nDivision: Moorings\nOffice: East Quay"
    )
    labels = {f.label for f in fields_in(text)}
    assert labels == {"Agency", "Division", "Office"}
