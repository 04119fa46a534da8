"""A comparison table: tiers as columns, a row of descriptions, then rows of figures."""

from __future__ import annotations

from engine.contracts import EvidenceItem
from engine.reading.line_items import line_item_names
from engine.reading.table_values import table_cells
from engine.reading.value_answer import answer_value

TABLE = (
    "Compared item | Basic | Harbour Plus (pilot only) | Harbour\n"
    "Purpose | Short trips, low cost, fixed schedule | Reliable, frequent crossings with reserved seats | "
    "Premium crossings for commuters who travel daily.\n"
    "Designed punctuality | 97% | 99.5% | 99%\n"
    "Minimum booking window | None | 7 days | 2 days"
)


def _page() -> list[list[EvidenceItem]]:
    return [[EvidenceItem(chunk_id="d:p3:b0", doc_id="d", file_name="ferry.pdf", page=3, text=TABLE)]]


def test_a_row_of_descriptions_is_data_not_the_column_headers() -> None:
    columns = {c.column for c in table_cells(_page()[0])}
    assert columns == {"Basic", "Harbour", "Harbour Plus (pilot only)"}, columns


def test_the_column_that_adds_no_unasked_word_leads_its_longer_namesake() -> None:
    asked = "What is the minimum booking window of the Harbour tier?"
    answer = answer_value(asked, ["minimum booking window", "Harbour tier"], line_item_names, _page())
    assert answer is not None and answer.cells[0].column == "Harbour", answer
    plus = answer_value("What is the minimum booking window of Harbour Plus?", ["minimum booking window",
                        "Harbour Plus"], line_item_names, _page())  # fmt: skip
    assert plus is not None and plus.cells[0].column == "Harbour Plus (pilot only)", plus


def test_a_measure_that_is_a_share_by_definition_is_read_as_its_percentage() -> None:
    asked = "What is the designed availability of the Harbour tier?"
    page = [[EvidenceItem(chunk_id="d:p3:b0", doc_id="d", file_name="ferry.pdf", page=3,
                          text="Compared item | Basic | Harbour\nDesigned availability | 97% | 99%\n"
                               "Availability of berths | 40 berths | 65 berths")]]  # fmt: skip
    answer = answer_value(asked, ["designed availability", "Harbour tier"], line_item_names, page)
    assert answer is not None and answer.statement.endswith("99%"), answer


RESULTS = (
    "Model | Recall Precision F1\n"
    "Lynx with tides 71.20% 64.50% 67.70%\n"
    "Lynx without tides 69.80% 61.10% | 65.20%\n"
    "Osprey with tides | 58.40% 55.00% 56.60%"
)


def test_figures_run_into_a_row_label_are_the_row_s_values_under_one_word_column_names() -> None:
    item = EvidenceItem(chunk_id="d:p4:b0", doc_id="d", file_name="sonar.pdf", page=4, text=RESULTS)
    read = {(c.label, c.column): c.raw for c in table_cells([item])}
    assert read[("Lynx with tides", "Recall")] == "71.20%" and read[("Lynx with tides", "F1")] == "67.70%", read
    assert read[("Lynx without tides", "Precision")] == "61.10%", read
    assert read[("Lynx without tides", "F1")] == "65.20%", read


def test_a_row_without_something_answers_only_a_question_without_it() -> None:
    page = [[EvidenceItem(chunk_id="d:p4:b0", doc_id="d", file_name="sonar.pdf", page=4, text=RESULTS)]]
    kept = answer_value("What recall score does Lynx without tides reach?", ["recall score", "Lynx without tides"],
                        line_item_names, page)  # fmt: skip
    assert kept is not None and kept.statement.endswith("69.80%"), kept
    plain = answer_value("What recall score does Lynx with tides reach?", ["recall score", "Lynx with tides"],
                         line_item_names, page)  # fmt: skip
    assert plain is not None and plain.statement.endswith("71.20%"), plain
    assert not any("percentage" in d for d in plain.doubts), "a score is read as its percentage"


def test_column_headers_abbreviated_with_a_full_stop_name_the_columns() -> None:
    table = "Scores | Pooled\nPlanner | Acc. | Prec. | Rec.\nGreedy | 61.5 | 70.2 | 55.0\nBeam | 64.0 | 68.9 | 59.1"
    item = EvidenceItem(chunk_id="d:p2:b0", doc_id="d", file_name="planners.pdf", page=2, text=table)
    cells = table_cells([item])
    assert {(c.label, c.column) for c in cells if c.value == 68.9} == {("Beam", "Prec.")}


def test_a_row_of_words_repeating_a_neighbour_is_data_under_the_header_not_a_new_header() -> None:
    table = (
        "Crew | Pilot Boats Pilot Boats Tugs\nSkipper | Harbour | Harbour | Coastal\n"
        "Route | Coast | Hills | Marsh\nStops | 7 | 2 | 11\nDelays | 4% | 5% | 29%"
    )
    item = EvidenceItem(chunk_id="d:p2:b0", doc_id="d", file_name="routes.pdf", page=2, text=table)
    assert {(c.label, c.column) for c in table_cells([item]) if c.value == 29} == {("Delays", "Marsh")}


def test_a_comparison_table_named_as_where_to_read_asks_no_comparison() -> None:
    from engine.reading.question_sides import is_comparison

    assert not is_comparison("In the fleet comparison table, what share of crossings were late at Marsh?", [])
    assert not is_comparison("Which route does the comparison chart list first, Coast or Hills?", ["Coast"])
    assert is_comparison("Compare the delays at Coast and Marsh.", [])
    assert is_comparison("In the comparison of the two fleets, which carried more passengers?", [])
