"""Rows of amounts per unit, and ratios, are not in their table's scale ("in thousands, except ...")."""

from __future__ import annotations

from engine.contracts import EvidenceItem
from engine.reading.document_units import with_document_scale
from engine.reading.table_values import table_cells

TABLE = (
    "(in thousands, except per member data) | 2041 | 2040\n"
    "Ferry revenues | $ 412,300 | $ 388,150\n"
    "Paying members at end of period | 1,204 | 1,150\n"
    "Average monthly revenue per paying member | $ 8.34 | $ 8.12\n"
    "Fare revenue per passenger mile | 0.41 | 0.39\n"
    "Current ratio | 1.6 | 1.4"
)


def _cells() -> dict[tuple[str, str], str]:
    item = EvidenceItem(chunk_id="d:p4:b0", doc_id="d", file_name="ferries.pdf", page=4, text=TABLE)
    cells = with_document_scale(table_cells([item]))
    return {(c.label, c.column): c.scale for c in cells}


def test_an_amount_per_member_or_per_mile_is_not_in_the_table_s_thousands() -> None:
    scales = _cells()
    assert scales[("Average monthly revenue per paying member", "2041")] == ""
    assert scales[("Fare revenue per passenger mile", "2040")] == ""


def test_a_ratio_is_not_in_the_table_s_thousands() -> None:
    assert _cells()[("Current ratio", "2041")] == ""


def test_a_total_stays_in_the_table_s_thousands() -> None:
    assert _cells()[("Ferry revenues", "2041")] == "thousand"


def test_a_scale_one_table_states_is_not_its_document_s() -> None:
    """A proxy statement with one table in millions: its compensation tables print whole dollars."""
    items = [
        EvidenceItem(chunk_id="d:p3:b0", doc_id="d", file_name="proxy.pdf", page=3,
                     text="(in millions) | 2041 | 2040\nFerry revenues | $ 412.3 | $ 388.1"),
        EvidenceItem(chunk_id="d:p9:b0", doc_id="d", file_name="proxy.pdf", page=9,
                     text="Officer | 2041 | 2040\nDana Okafor | $ 412,000 | $ 430,000"),
    ]  # fmt: skip
    cells = with_document_scale([c for item in items for c in table_cells([item])])
    scales = {(c.label, c.column): c.scale for c in cells}
    assert scales[("Ferry revenues", "2041")] == "million"
    assert scales[("Dana Okafor", "2041")] == ""


def test_a_scale_stated_on_several_pages_is_the_document_s() -> None:
    items = [
        EvidenceItem(chunk_id=f"d:p{page}:b0", doc_id="d", file_name="ferries.pdf", page=page, text=text)
        for page, text in (
            (3, "(in millions) | 2041 | 2040\nFerry revenues | $ 412.3 | $ 388.1"),
            (4, "(in millions) | 2041 | 2040\nDock fees | $ 12.3 | $ 11.1"),
            (9, "Segment | 2041 | 2040\nHarbour routes | $ 212.0 | $ 198.5"),
        )
    ]
    cells = with_document_scale([c for item in items for c in table_cells([item])])
    assert {(c.label, c.column): c.scale for c in cells}[("Harbour routes", "2041")] == "million"
