"""A specification sheet's value asked as a user writes it: a model with a placeholder for its variants, a topic before
the question, a verb saying where the value is printed and the kind of thing the model is."""

from __future__ import annotations

from engine.contracts import EvidenceItem
from engine.documents.text import stems
from engine.reading.entities import names_all
from engine.reading.question import extract_keywords
from engine.reading.table_values import Cell, table_cells
from engine.reading.value_match import rank_cells
from engine.reading.value_spec import value_spec


def _cells() -> list[Cell]:
    lines = ["K70-XX | K90-XX", "Dot Spacing | 0.21 mm | 0.25 mm", "Unit Weight | 8.5 kg | 10 kg"]
    items = [EvidenceItem(chunk_id=f"c{n}", doc_id="d", file_name="panels.pdf", page=30, text=t, kind="text",
                          section_path=("Specifications",), score=1.0) for n, t in enumerate(lines)]  # fmt: skip
    return table_cells(items)


def _best(question: str) -> tuple[str, str, str]:
    cell = rank_cells(value_spec(question, extract_keywords(question), ()), _cells())[0].cell
    return cell.label, cell.column, cell.raw


def test_a_model_printed_with_a_placeholder_for_its_variants_names_the_model():
    assert names_all("Dot Spacing K90-XX", ["K90"]) and not names_all("Dot Spacing K90-XX", ["K70"])
    assert _best("What is the dot spacing of the K90?") == ("Dot Spacing", "K90-XX", "0.25 mm")


def test_where_the_value_is_printed_and_the_kind_of_thing_named_are_no_words_of_the_metric():
    terms = value_spec(
        "What unit weight is listed for the K90 model?", ["unit weight", "listed", "K90", "model"], ()
    ).terms
    assert stems("listed") not in terms and stems("model") not in terms
    assert _best("What unit weight is listed for the K90 model?") == ("Unit Weight", "K90-XX", "10 kg")


def test_the_words_of_a_topic_before_the_question_are_no_words_of_the_metric():
    question = "Harbour panel spec sheet: what dot spacing is listed for the K70?"
    assert all(
        not (t & stems("harbour panel spec sheet")) for t in value_spec(question, extract_keywords(question), ()).terms
    )
    assert _best(question) == ("Dot Spacing", "K70-XX", "0.21 mm")


def test_a_kind_of_thing_asked_by_a_question_word_is_still_a_word_of_what_is_asked():
    from engine.reading.metric_words import frame_words

    assert frame_words("What model does the rover use?") == set()  # no name is written before "model"
    assert stems("model") <= frame_words("What range does the K90 model reach?")
