"""A wrapped line the PDF put in a block of its own is joined to the block it continues (made-up manual text)."""

from __future__ import annotations

from engine.documents.layout import Unit, merge_tiny


def _units(*texts_and_kinds: tuple[str, str]) -> list[Unit]:
    return [Unit(3, text, [(72.0, 100.0 + 12 * n, 500.0, 110.0 + 12 * n)], kind) for n, (text, kind) in
            enumerate(texts_and_kinds)]  # type: ignore[arg-type]  # fmt: skip


def test_a_number_and_a_word_after_a_block_cut_after_a_word_continue_it() -> None:
    units = merge_tiny(_units(("• After a swim, dry the strap and wait", "list_item"),
                              ("20 minutes before you charge the band.", "text")), min_chars=0)  # fmt: skip
    assert [u.text for u in units] == ["• After a swim, dry the strap and wait 20 minutes before you charge the band."]


def test_a_numbered_step_or_a_finished_sentence_is_not_continued() -> None:
    steps = merge_tiny(_units(("Open the app and touch Devices", "text"), ("2 Touch Sync to pair the band.", "text")),
                       min_chars=0)  # fmt: skip
    assert len(steps) == 2, "a step number before a capitalised word opens a step"
    done = merge_tiny(_units(("Dry the strap.", "list_item"), ("20 minutes later, charge it.", "text")), min_chars=0)
    assert len(done) == 2
