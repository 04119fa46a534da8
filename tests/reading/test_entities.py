"""The names a question qualifies its metric with (made-up questions)."""

from __future__ import annotations

from engine.reading.entities import named_words, names_all


def test_the_names_a_question_qualifies_its_metric_with() -> None:
    assert named_words("What was Zorbex revenue in 2031?", ["ACME"]) == ("zorbex",)
    assert named_words("What were the net sales of the Garden segment in March 2031?", ["ACME"]) == ("garden",)
    assert named_words("What were Net Revenues in 2031?", ["ACME"]) == ()  # a capitalised metric is no name
    assert named_words("What were Acme Corp's total assets?", ["ACME"]) == ()  # whose value, not which


def test_a_text_names_every_word_or_not() -> None:
    assert names_all("Garden segment net sales", ["garden"]) and not names_all("Net sales", ["garden"])
