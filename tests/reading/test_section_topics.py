"""A measure a sentence gives under a section heading that names what is measured (made-up manual text)."""

from __future__ import annotations


def test_a_duration_under_a_heading_naming_what_is_measured_covers_the_question() -> None:
    from engine.contracts import EvidenceItem
    from engine.reading.question import extract_keywords
    from engine.reading.sentence_values import cells_in
    from engine.reading.value_match import rank_cells
    from engine.reading.value_spec import value_spec

    question = "After swimming, how long should I wait before measuring skin temperature?"
    spec = value_spec(question, extract_keywords(question), ())
    text = "After you swim, wait 30 minutes before you start a measurement."

    def cover(section: tuple[str, ...]) -> float:
        item = EvidenceItem(chunk_id="d:p21:b2", doc_id="d", file_name="band.pdf", page=21, text=text,
                            section_path=section)  # fmt: skip
        ranked = rank_cells(spec, cells_in([[item]]))
        return ranked[0].label_cover if ranked else 0.0

    assert cover(("Care for Health", "Measuring your skin temperature")) > cover(("Care for Health",)) + 0.2
