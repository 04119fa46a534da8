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
