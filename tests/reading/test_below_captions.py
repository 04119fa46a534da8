"""A table's numbered caption printed under its rows names those rows, and is not carried on to the next table."""

from __future__ import annotations

from engine.contracts import EvidenceItem
from engine.reading.table_values import table_cells


def _item(text: str, n: int) -> EvidenceItem:
    return EvidenceItem(chunk_id=f"c{n}", doc_id="d", file_name="fleet.pdf", page=3, text=text, kind="text",
                        section_path=("Results",), score=1.0)  # fmt: skip


def _captions(lines: list[str]) -> dict[tuple[str, str, str], str]:
    cells = table_cells([_item(line, n) for n, line in enumerate(lines)])
    return {(c.label, c.column, c.raw): c.caption for c in cells}


HEADER = "Planner | Coast | Hills"


def test_a_caption_under_two_tables_of_one_shape_names_each_its_own_rows():
    captions = _captions([
        HEADER, "Greedy | 0.31 | 0.42", "Lookahead | 0.35 | 0.47", "Table 5: Results on the summer routes.",
        HEADER, "Greedy | 0.28 | 0.39", "Lookahead | 0.33 | 0.44", "Table 6: Results on the winter routes.",
    ])  # fmt: skip
    assert captions[("Greedy", "Coast", "0.31")] == "Results on the summer routes."
    assert captions[("Greedy", "Coast", "0.28")] == "Results on the winter routes."  # not the summer table's


def test_rows_with_a_caption_over_them_keep_it_and_the_next_caption_goes_to_the_next_table():
    captions = _captions([
        "Table 5: Results on the summer routes.", HEADER, "Greedy | 0.31 | 0.42", "Lookahead | 0.35 | 0.47",
        "Table 6: Results on the winter routes.", HEADER, "Greedy | 0.28 | 0.39", "Lookahead | 0.33 | 0.44",
    ])  # fmt: skip
    assert captions[("Greedy", "Coast", "0.31")] == "Results on the summer routes."
    assert captions[("Greedy", "Coast", "0.28")] == "Results on the winter routes."


def test_a_caption_after_prose_that_follows_the_rows_is_not_theirs():
    captions = _captions([
        HEADER, "Greedy | 0.31 | 0.42", "Lookahead | 0.35 | 0.47",
        "The planners were run on every route twice.", "Table 6: Results on the winter routes.",
    ])  # fmt: skip
    assert captions[("Greedy", "Coast", "0.31")] == ""
