"""A value read from a passage that never prints the names the question qualifies its metric by is doubted
(made-up passages)."""

from __future__ import annotations

from engine.contracts import EvidenceItem
from engine.reading.line_items import line_item_names
from engine.reading.question import extract_keywords
from engine.reading.value_answer import answer_value
from engine.run.side_difference import exact


def read(question: str, text: str):
    page = [EvidenceItem(chunk_id="d:p4:b0", doc_id="d", file_name="f.pdf", page=4, text=text)]
    return answer_value(question, extract_keywords(question), line_item_names, [page])


def test_a_figure_whose_passage_does_not_name_the_thing_asked_is_doubted() -> None:
    question = "When Lakes vectors were scored with the Otter classifier, what f1-score was obtained?"
    other = read(question, "In that, team 4 obtained the highest f1-score of 82.9%.")
    assert other is not None and any("otter" in d for d in other.doubts), other
    assert not exact(other), "never claimed complete"
    own = read(question, "With Lakes vectors, the Otter classifier obtained an f1-score of 71.2%.")
    assert own is not None and not own.doubts and exact(own), own
