"""Which compared side each number of one sentence is of (made-up sentences)."""

from __future__ import annotations

from engine.contracts import EvidenceItem
from engine.reading.changes import asks_difference, without_difference_ask
from engine.reading.question import parse_question
from engine.reading.sentence_values import sentence_cells
from engine.reading.side_numbers import numbers_of_other_sides, side_of_numbers


def positions(sentence: str) -> list[int]:
    item = EvidenceItem(chunk_id="d:p1:b0", doc_id="d", file_name="f.pdf", page=1, text=sentence)
    return sorted(c.position for c in sentence_cells(item))


def tied(sentence: str, sides: list[str]) -> list[tuple[str, str]]:
    found = side_of_numbers(sentence, positions(sentence), sides)
    return [(sentence[p:].split()[0], side) for p, side in sorted(found.items())]


def test_each_number_after_its_side_s_name_is_that_side_s() -> None:
    said = "On the Lakes split we measure 65.6 seconds, while on Rivers the run takes 83.2 seconds."
    assert tied(said, ["Lakes", "Rivers"]) == [("65.6", "Lakes"), ("83.2", "Rivers")]


def test_each_number_before_its_side_s_name_is_that_side_s() -> None:
    said = "Annotators agreed on 81% of the Lakes-east samples and 74% of the samples from Lakes-west."
    assert tied(said, ["Lakes-east", "Lakes-west"]) == [("81%", "Lakes-east"), ("74%", "Lakes-west")]


def test_respectively_ties_the_numbers_to_the_sides_in_the_order_named() -> None:
    said = "The Captain and the Pilots may earn a bonus of up to 90% and 70% of their salary, respectively."
    assert tied(said, ["Captain", "Pilots"]) == [("90%", "Captain"), ("70%", "Pilots")]


def test_no_number_is_tied_when_the_order_does_not_say() -> None:
    assert tied("Lakes and Rivers scored 65.6 and 83.2 in the trial.", ["Lakes", "Rivers"]) == []
    assert tied("Lakes scored 65.6 and 83.2 in two trials.", ["Lakes", "Rivers"]) == [], "one side named"
    said = "On the Lakes split we measure 65.6 seconds, while on Rivers the run takes 83.2 seconds."
    item = EvidenceItem(chunk_id="d:p1:b0", doc_id="d", file_name="f.pdf", page=1, text=said)
    others = numbers_of_other_sides(sentence_cells(item), "Lakes", ["Lakes", "Rivers"])
    assert [said[p:].split()[0] for _, _, p in others] == ["83.2"]


def test_a_closing_clause_asking_how_far_apart_adds_no_part_or_words() -> None:
    question = "What fares did Acme charge on Lakes and on Rivers, and how far apart are they?"
    assert asks_difference("how far apart are they") and not asks_difference("how did margins change")
    assert without_difference_ask(question) == "What fares did Acme charge on Lakes and on Rivers?"
    parsed = parse_question(question)
    assert parsed.parts == () and not any("apart" in k for k in parsed.keywords)
