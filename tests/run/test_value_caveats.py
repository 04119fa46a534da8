"""A value read says what keeps it from being claimed, and drops the extractive answer's stale doubts."""

from __future__ import annotations

from engine.api import answer
from engine.contracts import CaveatKind as K
from engine.contracts import caveat
from engine.library.local import Library
from engine.present.caveat_text import caveat_texts
from engine.samples import ensure_sample


def test_a_count_read_in_a_sentence_of_no_period_is_stated_with_that_doubt(config) -> None:
    library = Library(config)
    entry = ensure_sample(library)
    result = answer("How many survey flights did crews fly in the 2025 season?", [entry.doc_id],
                    library=library, config=config, strategy="single_pass")  # fmt: skip
    assert "64 survey flights" in result.answer.text
    assert caveat(K.TYPE_NOT_STATED, "number") not in result.answer.caveats, "a number is stated"
    assert caveat(K.VALUE_NO_PERIOD, "") in result.answer.caveats
    assert "the sentence read names no period, or not the one asked" in caveat_texts(result.answer.caveats)
    assert not result.answer.complete_answer_found
