"""The names a question qualifies its metric with (made-up questions)."""

from __future__ import annotations

from engine.reading.entities import focus_of, focus_score, named_words, names_all


def test_the_names_a_question_qualifies_its_metric_with() -> None:
    assert named_words("What was Zorbex revenue in 2031?", ["ACME"]) == ("zorbex",)
    assert named_words("What were the net sales of the Garden segment in March 2031?", ["ACME"]) == ("garden",)
    assert named_words("What were Net Revenues in 2031?", ["ACME"]) == ()  # a capitalised metric is no name
    assert named_words("What were Acme Corp's total assets?", ["ACME"]) == ()  # whose value, not which


def test_a_text_names_every_word_or_not() -> None:
    assert names_all("Garden segment net sales", ["garden"]) and not names_all("Net sales", ["garden"])


def test_a_text_read_again_gives_each_question_its_own_verdict() -> None:
    texts = ["The Heron 2 flies 40 km.", "The Heron 3 flies 55 km in 2017.", "In 2018 the range grew.", "Nothing."]
    asked = focus_of("What was the Heron 2's range in FY2018?")
    assert [focus_score(t, asked) for t in texts] == [1, -1, 1, 0]
    assert [focus_score(t, asked) for t in texts] == [1, -1, 1, 0], "the texts' names and years are kept alike"
    assert [focus_score(t, focus_of("What was the Heron 3's range?")) for t in texts] == [-1, 1, 0, 0]


def test_a_name_excluded_with_non_is_not_another_things_name() -> None:
    from engine.reading.entities import named_in_another_clause

    sentence = "Keep a gap from walls or non-Kestrel appliances of 40 mm at the rear."
    assert named_in_another_clause(["Kestrel"], sentence, sentence.index("40")) == []
    other = "The Kestrel heats in 90 s, which beats the Osprey by 20 s."
    assert named_in_another_clause(["Osprey"], other, other.index("90")) == ["Osprey"]
