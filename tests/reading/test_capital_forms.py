"""Short forms a results table heads its columns with, read as the camel-case names a question writes (made up)."""

from __future__ import annotations

from engine.documents.text import stems
from engine.reading.abbreviations import capital_forms, with_capital_forms


def test_a_camel_case_name_is_spelled_by_its_capitals() -> None:
    assert capital_forms("How did it do on KestrelQA?") == {"kqa": "kestrelqa"}


def test_a_short_form_of_two_capitals_or_a_plain_word_names_nothing() -> None:
    assert capital_forms("What did the Survey find about Harbours and HeronBench?") == {}  # "HB": two capitals


def test_a_header_naming_the_short_form_reads_as_the_name() -> None:
    forms = capital_forms("What is the score on the hard split of KestrelQA?")
    assert with_capital_forms(stems("KQA Hard"), forms) == stems("KestrelQA hard")
