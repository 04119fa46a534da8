"""The understanding brick: the parse request and the code checks on any backend's parse."""

from __future__ import annotations

import pytest

from engine.contracts import ParsedQuestion
from engine.errors import LoupeError
from engine.llm.offline import OfflineBackend
from engine.reading.understanding import MAX_KEYWORDS, check_parse, question_request

from ..run.factories import question


def test_the_request_holds_the_question_with_its_spaces_normalised():
    request = question_request("   What does Section 5.4 say about dropout?  \n")
    assert request.question == "What does Section 5.4 say about dropout?"
    parsed = OfflineBackend().run("parse_question", request, ParsedQuestion).value
    assert parsed.intent == "section_retrieval"


@pytest.mark.parametrize("text", ["", "   ", "\n\t"])
def test_empty_question_is_rejected_clearly(text):
    with pytest.raises(LoupeError, match="empty"):
        question_request(text)


def test_an_offline_parse_passes_the_check_unchanged():
    text = "What does Section 5.4 say about dropout?"
    parsed = OfflineBackend().run("parse_question", question_request(text), ParsedQuestion).value
    assert check_parse(parsed, text) is parsed


def test_a_model_parse_gets_the_question_verbatim_distinct_keywords_and_a_main_query():
    many = tuple(f"term{n}" for n in range(MAX_KEYWORDS + 5))
    parsed = question(text="a paraphrase", keywords=("dropout", "dropout", " ", *many))
    parsed = parsed.model_copy(update={"retrieval": parsed.retrieval.model_copy(update={"main_query": "  "})})
    checked = check_parse(parsed, "What  dropout is used?")
    assert checked.original_question == "What dropout is used?"
    assert checked.keywords[0] == "dropout" and len(checked.keywords) == MAX_KEYWORDS
    assert checked.retrieval.main_query == " ".join(checked.keywords)


def test_comparison_sides_are_the_things_compared_not_the_aspect_or_the_owner():
    from engine.reading.question_sides import find_sides

    assert find_sides("Compare the net sales of Acme in 2031 and Zenith in fiscal 2030") == ["Acme", "Zenith"]
    assert find_sides("Compare the revenue of Acme and Zenith in 2031") == ["Acme", "Zenith"]
    assert find_sides("How did Acme's EU bookings growth compare to domestic bookings growth in 2031?") == [
        "EU",
        "domestic",
    ]
    assert find_sides("How does the battery life of the Heron 2 compare with that of the Heron 3?") == [
        "Heron 2",
        "Heron 3",
    ]
    assert find_sides("How does Acme's revenue compare with Zenith's?") == ["Acme", "Zenith"]


def test_one_thing_with_and_without_something_is_two_whole_sides():
    from engine.reading.question_sides import find_sides

    assert find_sides("Compare the fuel use of the ferry with sails and the ferry without sails.") == [
        "ferry with sails",
        "ferry without sails",
    ]
    assert find_sides("Compare the recall of Lynx with Tides and Lynx without Tides") == [
        "Lynx with Tides",
        "Lynx without Tides",
    ]
    assert find_sides("Compare the Heron 2 with the Heron 3.") == ["Heron 2", "Heron 3"], "'with' still separates"


def test_the_year_opening_a_compared_phrase_is_its_aspects_not_a_side() -> None:
    from engine.reading.question_sides import find_sides

    asked = "How did 2031 revenues of Acme's Harbour segment compare with its Inland segment?"
    assert find_sides(asked) == ["Acme Harbour", "Inland"]  # not ["2031", "Inland"]
