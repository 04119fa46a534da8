"""Stems of short texts are kept between calls; every call still returns a set of its own."""

from __future__ import annotations

from engine.documents.text import _KEPT_TEXT_CHARS, stems


def test_a_kept_label_gives_a_fresh_set_each_time():
    label = "Purchases of properties and equipment"
    first = stems(label)
    assert first == {"purchase", "property", "equipment"}
    first.add("changed")
    assert stems(label) == {"purchase", "property", "equipment"}, "changing a returned set changes nothing kept"


def test_long_and_short_texts_stem_alike():
    words = "Inventories increased as the stores carried more seasonal goods "
    long_text = words * (_KEPT_TEXT_CHARS // len(words) + 2)
    assert len(long_text) > _KEPT_TEXT_CHARS
    assert stems(long_text) == stems(words) == {"inventory", "increas", "store", "carry", "seasonal", "good"}
