"""Places of a document: a table or figure is found by its caption line, its rows and the passages naming it."""

from __future__ import annotations

from engine.documents.text import stems
from engine.retrieval.places import caption_reference, caption_title, find_places, group_places

from .factories import chunk

CHUNKS = [
    chunk(2, 0, "Table 1: Accuracy of the baseline models on the test set.", kind="caption"),
    chunk(2, 1, "Baseline A | 71.2 | 12\nBaseline B | 73.0 | 14"),
    chunk(2, 2, "Table 1 compares the baselines; every one is trained without augmentation."),
    chunk(3, 0, "The ablations are listed in Table 4, which also gives the training cost."),
    chunk(4, 0, "Table 4: Ablations of the proposed model. All figures are on the validation split.", kind="caption"),
    chunk(4, 1, "variant rate accuracy steps\nbase 0.1 78.9 100\nno-mixing 0.0 76.5 100"),
    chunk(4, 2, "In Table 4 rows (B), removing token mixing lowers the score by two points."),
    chunk(4, 3, "4 Discussion", kind="heading"),
    chunk(4, 4, "3.1 2.0 7.7 8.8 9.1 4.4"),
]


def test_a_caption_line_labels_a_place_and_a_mention_does_not() -> None:
    assert caption_reference(CHUNKS[0]) == "Table 1"
    assert caption_reference(chunk(1, 0, "Figure 2. The pipeline, end to end.")) == "Figure 2"
    assert caption_reference(CHUNKS[2]) is None, "a sentence opening with the label mentions the table"
    assert caption_reference(CHUNKS[3]) is None
    assert caption_title("Table 4: Ablations of the proposed model.") == "Ablations of the proposed model."


def test_a_place_holds_its_caption_the_rows_under_it_and_the_passages_naming_it() -> None:
    places = group_places(CHUNKS)
    table4 = places[(CHUNKS[0].doc_id, "Table 4")]
    assert table4.page == 4, "the caption's page, not the page that first mentions it (3)"
    assert [c.index for c in table4.body] == [1], "rows after the next heading are not the table's"
    assert [(c.page, c.index) for c in table4.mentions] == [(3, 0), (4, 2)]
    assert places[(CHUNKS[0].doc_id, "Table 1")].body == [CHUNKS[1]]


def test_the_place_shown_is_the_one_holding_the_asked_term_and_a_listed_item() -> None:
    accuracy, mixing = stems("accuracy"), stems("token mixing")
    found = find_places(CHUNKS, accuracy, [mixing])
    assert [p.reference for p in found] == ["Table 4"], "Table 1 shows accuracy but names no listed item"
    assert {p.reference for p in find_places(CHUNKS, accuracy)} == {"Table 1", "Table 4"}
    assert find_places(CHUNKS, stems("latency")) == [], "no place shows a term no caption, row or mention holds"
