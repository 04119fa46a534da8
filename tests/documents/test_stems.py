"""The light stemmer every term match uses: one stem for a word's inflections (made-up words)."""

from __future__ import annotations

import pytest

from engine.documents.text import stem, stems


@pytest.mark.parametrize(
    "forms",
    [
        ("recalibrate", "recalibrates", "recalibrating", "recalibrated"),  # a verb's silent e
        ("sensor", "sensors"),
        ("battery", "batteries"),
        ("flush", "flushing", "flushed"),
        ("pay", "pays", "paying", "paid"),  # an irregular past form
        ("spend", "spending", "spent"),
        ("grow", "grew", "grown", "growing"),
        ("moor", "moored", "mooring"),
        ("trip", "tripping", "tripped"),  # a consonant doubled before the ending
        ("staff", "staffed"),  # a base that ends in a double consonant keeps it
        ("fall", "falling"),
        ("age", "ages", "aged"),  # a short verb whose -ed follows its own e
        ("owe", "owes", "owed"),
    ],
)
def test_a_words_inflections_share_one_stem(forms: tuple[str, ...]) -> None:
    assert len({stem(f) for f in forms}) == 1, {f: stem(f) for f in forms}


def test_short_words_and_double_vowels_keep_their_e() -> None:
    assert stem("use") == "use" and stem("free") == "free" and stem("degree") == "degree"


def test_stop_words_have_no_stem() -> None:
    assert stems("the pump and the valve") == {stem("pump"), stem("valve")}


def test_a_word_with_another_common_sense_is_not_taken_for_a_past_form() -> None:
    assert stem("left") != stem("leave") and stem("won") != stem("win")
