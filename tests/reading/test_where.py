"""The "where" part of a question is answered by a place in the evidence: the table that shows the asked term
and names the items the answer listed, stated with its page (made-up passages)."""

from __future__ import annotations

from engine.contracts import EvidenceItem, QuestionPart
from engine.reading.passages import split_units
from engine.reading.signals import uncovered_parts
from engine.reading.where import listed_terms, place_shown, state_place, where_units


def item(page: int, index: int, text: str, kind: str = "text", bold: tuple[str, ...] = ()) -> EvidenceItem:
    return EvidenceItem(chunk_id=f"d:p{page}:b{index}", doc_id="d", file_name="d.pdf", page=page, text=text,
                        kind=kind, bold_terms=bold)  # type: ignore[arg-type]  # fmt: skip


LEAD = item(3, 4, "We use two kinds of augmentation while training:")
FLIP = item(3, 5, "Random Flips Every image is mirrored with a probability of one half.", bold=("Random Flips",))
CROP = item(3, 6, "Random Crops Each image is cropped to nine tenths of its side.", bold=("Random Crops",))
TABLE1 = [
    item(5, 0, "Table 1: Recall of the baseline detectors on the test split.", kind="caption"),
    item(5, 1, "detector | recall | speed\nsmall | 61.0 | 40\nlarge | 66.2 | 12"),
]
TABLE4 = [
    item(8, 2, "Table 4: Ablations of the base detector. Unlisted settings are those of the base detector.", "caption"),
    item(8, 3, "variant | flips | crops | recall\nbase | yes | yes | 70.1\n(A) | no | yes | 68.0"),
    item(8, 7, "In Table 4 rows (A) and (B), dropping the random flips costs two points. The crops matter less."),
]
WHERE = QuestionPart(text="where do they show the gain in recall", keywords=("gain", "recall"))
LISTED = listed_terms([(FLIP.text, FLIP.bold_terms), (CROP.text, CROP.bold_terms)])


def test_the_items_an_answer_lists_are_named_by_their_run_in_terms() -> None:
    listed = listed_terms([(FLIP.text, FLIP.bold_terms), (CROP.text, CROP.bold_terms)])
    assert listed == [{"random", "flip"}, {"random", "crop"}]
    assert listed_terms([(LEAD.text, ())]) == [], "a sentence opening with no run-in term lists nothing"


def test_the_place_that_names_the_listed_items_answers_and_is_stated_with_its_page() -> None:
    units = split_units([LEAD, FLIP, CROP, *TABLE1, *TABLE4])
    chosen = where_units(WHERE, units, LISTED)
    assert [u.item.chunk_id for u in chosen] == ["d:p8:b2", "d:p8:b7"], "Table 1 shows recall but no listed item"
    assert state_place(chosen) == (
        "Table 4 (page 8): Ablations of the base detector. "
        "In Table 4 rows (A) and (B), dropping the random flips costs two points."
    )


def test_a_part_naming_its_own_subject_takes_any_place_that_shows_the_term() -> None:
    units = split_units([LEAD, *TABLE1])
    own = QuestionPart(text="where is the recall of the detectors shown", keywords=("recall", "detectors"))
    assert [u.item.chunk_id for u in where_units(own, units, LISTED)] == ["d:p5:b0"]
    assert where_units(WHERE, units, LISTED) == [], "no place in the evidence names the flips or the crops"


def test_the_where_part_stays_uncovered_until_a_captioned_place_shows_it() -> None:
    first = QuestionPart(text="What augmentation does the detector use", keywords=("augmentation", "detector"))
    listed = split_units([LEAD, FLIP, CROP])
    mention_only = split_units([LEAD, FLIP, CROP, TABLE4[2]])
    assert WHERE.text in uncovered_parts([first, WHERE], listed, mention_only), "a mention is not the place"
    full = split_units([LEAD, FLIP, CROP, *TABLE4])
    cited = [*listed, next(u for u in full if u.item.chunk_id == "d:p8:b2")]
    assert not place_shown(WHERE, listed, full, LISTED)
    assert place_shown(WHERE, cited, full, LISTED)
    assert WHERE.text not in uncovered_parts([first, WHERE], cited, full)
