"""Sentences of a paragraph (an abbreviation's point before a capital ends none) and words cut at a line end (made-up
text)."""

from __future__ import annotations

from engine.documents.text import split_sentences


def test_a_capital_after_an_abbreviation_continues_the_sentence() -> None:
    text = ("For most berths, including U.S. Navy berths, the fee is 3% of the tonnage. Dr. Lee signed it. "
            "The harbour (see Fig. 4) opened in May. Ships wait.")  # fmt: skip
    assert split_sentences(text) == [
        "For most berths, including U.S. Navy berths, the fee is 3% of the tonnage.",
        "Dr. Lee signed it.",
        "The harbour (see Fig. 4) opened in May.",
        "Ships wait.",
    ]


def test_a_sentence_ending_in_a_word_or_a_number_ends_there() -> None:
    assert split_sentences("Fees rose 5%. Costs fell. The ferry ran 12 trips. 2031 was a record.") == [
        "Fees rose 5%.",
        "Costs fell.",
        "The ferry ran 12 trips.",
        "2031 was a record.",
    ]


def test_a_word_hyphenated_across_a_line_is_joined_even_with_a_trailing_space() -> None:
    from engine.documents.layout import join_lines

    assert join_lines(["Drain the reser- ", "voir first."]) == "Drain the reservoir first."
    assert join_lines(["Drain the reser-", "voir first."]) == "Drain the reservoir first."
    assert "short- or long-term" in join_lines(["short-", "or long-term loans"]), "a suspended hyphen joins nothing"
