"""Stems of short texts are kept between calls; every call still returns a set of its own."""

from __future__ import annotations

from engine.documents.text import _KEPT_TEXT_CHARS, _content_stem, stems


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
