"""Every kind of caveat reads as a sentence for people; the wording lives in one place."""

from __future__ import annotations

import re

from engine.contracts import Caveat, CaveatKind, caveat
from engine.present.caveat_text import caveat_text, caveat_texts

SAMPLES = {
    CaveatKind.SIDE_UNCITED: caveat(CaveatKind.SIDE_UNCITED, "the Kestrel fleet"),
    CaveatKind.COUNT_SHORT: caveat(CaveatKind.COUNT_SHORT, figures=(4, 3)),
    CaveatKind.UNCLAIMED: caveat(CaveatKind.UNCLAIMED, figures=(0.41, 0.72)),
    CaveatKind.STOPPED_EARLY: caveat(CaveatKind.STOPPED_EARLY, "budget_seconds", "the time budget is spent", (1.0,)),
    CaveatKind.VALUE_NO_PERIOD: caveat(CaveatKind.VALUE_NO_PERIOD, ""),
    CaveatKind.CENSUS_LABELS_ONLY: caveat(CaveatKind.CENSUS_LABELS_ONLY, "Figure", "figures"),
}


def test_every_kind_has_a_sentence_with_no_internal_names():
    for kind in CaveatKind:
        item = SAMPLES.get(kind, caveat(kind, "the Kestrel fleet", "a made-up detail", (1.0, 2.0)))
        text = caveat_text(item)
        assert text and not re.search(r"\b[a-z]+_[a-z_]+\b", text), (kind, text)


def test_figures_and_subjects_reach_the_sentence():
    assert caveat_text(SAMPLES[CaveatKind.COUNT_SHORT]) == "the evidence announces 4 items but only 3 were found"
    unclaimed = caveat_text(SAMPLES[CaveatKind.UNCLAIMED])
    assert unclaimed.startswith("not verified") and "0.41" in unclaimed and "0.72" in unclaimed
    assert "the run stopped because the time budget is spent" in caveat_text(SAMPLES[CaveatKind.STOPPED_EARLY])
    assert caveat_text(SAMPLES[CaveatKind.VALUE_NO_PERIOD]).startswith("the sentence read")


def test_a_caveat_saved_as_text_reads_back_as_that_text():
    old = Caveat.model_validate("a note from an earlier version")
    assert old.kind == CaveatKind.NOTE and caveat_texts((old, old)) == ("a note from an earlier version",)
