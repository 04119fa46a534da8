"""The offline word lists: data in one place, every entry with its reason, nothing fitted to one question."""

from __future__ import annotations

import re

import pytest

from engine.documents.text import STOPWORD_ENTRIES
from engine.reading import lexicon
from engine.reading.focus import focus
from engine.reading.glossary import expansions
from engine.reading.question import extract_keywords

WORD_LISTS = {
    "GENERIC": lexicon.GENERIC_ENTRIES,
    "QUESTION_WORDS": lexicon.QUESTION_WORD_ENTRIES,
    "CONNECTORS": lexicon.CONNECTOR_ENTRIES,
    "PHRASE_BREAKERS": lexicon.PHRASE_BREAKER_ENTRIES,
    "COMPARATIVE": lexicon.COMPARATIVE_ENTRIES,
    "SIDE_STOP": lexicon.SIDE_STOP_ENTRIES,
    "STOPWORDS": STOPWORD_ENTRIES,
}


@pytest.mark.parametrize("name", list(WORD_LISTS))
def test_every_word_list_entry_has_a_reason_and_no_word_twice(name):
    entries = WORD_LISTS[name]
    words = [w for forms, _ in entries for w in forms.split()]
    assert all(reason.strip() and forms.strip() for forms, reason in entries)
    assert len(words) == len(set(words)), f"{name} repeats a word"


def test_every_instruction_and_glossary_entry_has_a_reason_and_compiles():
    for pattern, reason in (*lexicon.INSTRUCTION_ENTRIES, *lexicon.LEAD_IN_ENTRIES):
        assert reason.strip() and re.compile(pattern)
    for entry in lexicon.GLOSSARY_ENTRIES:
        assert entry.reason.strip() and entry.words.strip() and re.compile(entry.pattern)
        assert set(entry.statements) <= set(lexicon.STATEMENT_TITLES)
    assert all(reason.strip() for _, _, reason in lexicon.STATEMENT_NAME_ENTRIES)


@pytest.mark.parametrize("phrase", ["receive turnover", "ppne", "legal battles"])
def test_the_glossary_holds_no_misspelling_or_phrasing_of_one_question(phrase):
    assert expansions(f"What is the {phrase} in FY2021?") == ((), ())


@pytest.mark.parametrize(
    "sentence",
    [
        "Anwser in millions.",
        "Work out what is asked by drawing on the figures shown.",
        "Address the question by adopting the perspective of an analyst.",
        "Tackle the problem by taking the usual definition.",
        "Relying on the table of cash flows, explain.",
        "Using the rows printed on that page, compute it.",
        "If operating margin tells little about a business of this type, say so and give the reason.",
        "List the chapter titles in bullet form.",
        "We need to work out a finance ratio.",
    ],
)
def test_phrasings_outside_the_general_openings_are_not_instructions(sentence):
    """Personas, requests and conditions in other words than the general openings stay content: the openings
    are general answer-format verbs, not the templates of one question set."""
    question = f"What is the operating margin of the group? {sentence}"
    assert focus(question).content == question, "only general answer-format instructions are set aside"


@pytest.mark.parametrize(
    "sentence",
    ["Round the result to two decimals.", "Answer in EUR thousands.", "Give me an integer.",
     "Directly answer with one word, yes or no.", "The answer must come as a list."],
)  # fmt: skip
def test_general_answer_format_instructions_are_set_aside(sentence):
    assert focus(f"What is the operating margin of the group? {sentence}").content == (
        "What is the operating margin of the group?"
    )


def test_equity_is_a_term_to_look_for():
    assert "equity" in " ".join(extract_keywords("What is the return on equity of the group?")).lower()
