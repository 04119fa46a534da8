"""What holds a value answer back from "complete" (``engine.run.value_checks``), one test per check."""

from __future__ import annotations

from engine.contracts import AnswerWithEvidence, Citation, EvidenceItem, caveat
from engine.contracts import CaveatKind as K
from engine.reading.question import parse_question
from engine.reading.sentence_values import cells_in
from engine.reading.signals import missing_durations
from engine.reading.value_answer import ValueAnswer
from engine.run.value_checks import holds

ROWS = EvidenceItem(chunk_id="d:p5:b0", doc_id="d", file_name="r.pdf", page=5,
                    text="(Millions) | 2039 | 2038\nProperty and equipment, net | 214 | 238")  # fmt: skip


def _value(*columns: str) -> ValueAnswer:
    cells = tuple(c for c in cells_in([[ROWS]]) if c.column in columns)
    return ValueAnswer(statement="x", cells=cells, label_cover=1.0, period_ok=True)


def _terms(*labels: str) -> ValueAnswer:
    """A value computed from the 2039 figures of two line items."""
    rows = EvidenceItem(chunk_id="d:p6:b0", doc_id="d", file_name="r.pdf", page=6,
                        text="(Millions) | 2039 | 2038\nLong-term debt | 500 | 480\nTotal assets | 2,000 | 1,900")  # fmt: skip
    cells = tuple(c for c in cells_in([[rows]]) if c.column == "2039" and c.label in labels)
    return ValueAnswer(statement="x", cells=cells, label_cover=1.0, period_ok=True)


def _cited(value: ValueAnswer) -> list[Citation]:
    return [Citation(chunk_id=c.chunk_id, doc_id=c.doc_id, page=c.page, quote=c.quote) for c in value.cells]


def test_period_sides_are_covered_by_the_inputs_read_for_them() -> None:
    parsed = parse_question("What is the average PP&E for FY2038 and FY2039?")
    answer = AnswerWithEvidence(text="", uncovered_sides=("FY2038", "FY2039"),
                                caveats=(caveat(K.SIDE_NOT_FOUND, "FY2038"),))  # fmt: skip
    both = _value("2039", "2038")
    verdict = holds(answer, parsed, [both], _cited(both), computed_lines=0)
    assert verdict.uncovered == () and not verdict.blocked and verdict.caveats == ()
    only_2039 = _value("2039")
    assert holds(answer, parsed, [only_2039], _cited(only_2039), computed_lines=0).uncovered == ("FY2038",)


def test_named_sides_are_covered_by_the_column_a_value_was_read_in() -> None:
    parsed = parse_question("How long does a battery swap take on the Heron 2 and on the Heron 3?")
    answer = AnswerWithEvidence(text="", uncovered_sides=("Heron 2", "Heron 3"),
                                caveats=(caveat(K.SIDE_NOT_FOUND, "Heron 2"),))  # fmt: skip
    table = EvidenceItem(chunk_id="d:p3:b0", doc_id="d", file_name="r.pdf", page=3,
                         text="Property | Heron 2\nBattery swap | about 25 min")  # fmt: skip
    heron_2 = ValueAnswer(statement="x", cells=tuple(cells_in([[table]])), label_cover=1.0, period_ok=True)
    verdict = holds(answer, parsed, [heron_2], _cited(heron_2), computed_lines=0)
    assert verdict.uncovered == ("Heron 3",) and verdict.caveats == ()


def test_a_note_another_passage_mentions_does_not_hold_back_a_value_read_from_its_row() -> None:
    parsed = parse_question("What is the FY2039 net PP&E?")
    value = _value("2039")
    noted = AnswerWithEvidence(text="", pending_references=("Note 9",))
    assert not holds(noted, parsed, [value], _cited(value), computed_lines=0).blocked
    named = parse_question("What is the FY2039 net PP&E in Note 9?")
    assert holds(noted, named, [value], _cited(value), computed_lines=0).blocked


def test_a_difference_asked_needs_more_than_one_value_read() -> None:
    parsed = parse_question("By how much did net PP&E fall from FY2038 to FY2039?")
    value = _value("2039")
    verdict = holds(AnswerWithEvidence(text=""), parsed, [value], _cited(value), computed_lines=0)
    assert verdict.blocked and caveat(K.ONE_OF_TWO_VALUES) in verdict.caveats
    assert not holds(AnswerWithEvidence(text=""), parsed, [value], _cited(value), computed_lines=1).blocked


def test_a_difference_its_sentence_states_answers_a_difference_asked() -> None:
    parsed = parse_question("By how much does the Kestrel outrun the Osprey on one charge?")
    said = EvidenceItem(chunk_id="d:p4:b0", doc_id="d", file_name="r.pdf", page=4,
                        text="On one charge the Kestrel outruns the Osprey by 14.5 km in calm water.")  # fmt: skip
    stated = ValueAnswer(statement="x", cells=tuple(cells_in([[said]])), label_cover=1.0, period_ok=True)
    assert not holds(AnswerWithEvidence(text=""), parsed, [stated], _cited(stated), computed_lines=0).blocked
    level = EvidenceItem(chunk_id="d:p4:b1", doc_id="d", file_name="r.pdf", page=4,
                         text="On one charge the Kestrel runs 62.5 km in calm water.")  # fmt: skip
    one = ValueAnswer(statement="x", cells=tuple(cells_in([[level]])), label_cover=1.0, period_ok=True)
    assert holds(AnswerWithEvidence(text=""), parsed, [one], _cited(one), computed_lines=0).blocked


def test_a_ratio_of_two_line_items_needs_more_than_one_value_read() -> None:
    parsed = parse_question("How much is total assets to long-term debt for Acme in FY2039?")
    value = _value("2039")
    verdict = holds(AnswerWithEvidence(text=""), parsed, [value], _cited(value), computed_lines=0)
    assert verdict.blocked and caveat(K.ONE_OF_TWO_TERMS) in verdict.caveats, (
        "one line item alone is not its ratio to long-term debt"
    )
    years = _value("2039", "2038")  # one line item in two years: an average of it is no ratio to another
    assert holds(AnswerWithEvidence(text=""), parsed, [years], _cited(years), computed_lines=0).blocked
    both = _terms("Long-term debt", "Total assets")  # a computation's two inputs
    assert not holds(AnswerWithEvidence(text=""), parsed, [both], _cited(both), computed_lines=0).blocked
    plain = parse_question("What is the maximum time to charge the Acme battery?")
    assert not holds(AnswerWithEvidence(text=""), plain, [value], _cited(value), computed_lines=0).blocked


def test_the_term_that_names_the_instrument_must_be_in_a_cited_line() -> None:
    question = "By how much did Acme enlarge its seven year term loan facility?"
    assert missing_durations(question, ["Acme entered into a new $2.6 billion 364 day term loan facility."]) == [
        "seven year"
    ]
    assert missing_durations(question, ["The 7-year term loan facility was raised to $5.1 billion."]) == []


def test_a_computations_span_is_not_an_instrument_name() -> None:
    parsed = parse_question("What is the 2 year average of net PP&E?")
    both = _value("2039", "2038")
    assert not holds(AnswerWithEvidence(text=""), parsed, [both], _cited(both), computed_lines=0).blocked


def test_a_ratio_the_row_prints_needs_no_second_line_item() -> None:
    parsed = parse_question("What is the ratio of failures to trips for the Osprey in 2031?")
    table = EvidenceItem(chunk_id="d:p6:b0", doc_id="d", file_name="r.pdf", page=6,
                         text="Table 3: Ratios of failures to trips.\nBoat | 2031 | 2030\nOsprey | 0.61 | 0.58")  # fmt: skip
    printed = ValueAnswer(statement="x", cells=tuple(c for c in cells_in([[table]]) if c.column == "2031"),
                          label_cover=1.0, period_ok=True)  # fmt: skip
    assert not holds(AnswerWithEvidence(text=""), parsed, [printed], _cited(printed), computed_lines=0).blocked


def test_a_statement_column_s_span_is_the_period_asked_not_an_instrument_s_term() -> None:
    question = "What was Acme's gross margin for the three months ended May 4, 2041?"
    assert missing_durations(question, ["Gross profit | 1,204 | 1,150"]) == []
    assert missing_durations("What did Acme pay on its ten-year notes?", ["Notes due 2041 | 1,204"]) == ["ten-year"]
