"""Stems of short texts and of the last passages are kept between calls; every call still returns a set of its own."""

from __future__ import annotations

from engine.documents.text import _KEPT_TEXT_CHARS, _content_stem, frozen_stems, stems


def _each_word(text: str) -> set[str]:
    return {s for s in (_content_stem(w) for w in text.replace(",", " ").split()) if s}


def test_a_kept_label_gives_a_fresh_set_each_time():
    label = "Purchases of properties and equipment"
    first = stems(label)
    assert first == _each_word(label) and len(first) == 3
    first.add("changed")
    assert stems(label) == _each_word(label), "changing a returned set changes nothing kept"


def test_long_and_short_texts_stem_alike():
    words = "Inventories increased as the stores carried more seasonal goods "
    long_text = words * (_KEPT_TEXT_CHARS // len(words) + 2)
    assert len(long_text) > _KEPT_TEXT_CHARS
    assert stems(long_text) == stems(words) == _each_word(words)


def test_a_kept_passage_gives_a_fresh_set_each_time_and_each_passage_its_own_stems():
    passage = "Inventories increased as the stores carried more seasonal goods " * 5
    other = "Receivables decreased as customers paid their invoices sooner " * 5
    first = stems(passage)
    first.add("changed")
    assert frozen_stems(passage) == stems(passage) == _each_word(passage), "changing a returned set changes nothing"
    assert frozen_stems(other) == _each_word(other) != _each_word(passage)
