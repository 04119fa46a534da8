"""Library: the building state is the second column (no sideways scrolling to find it); an outline inferred
from headings is shown only when the profile found it usable."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from engine import TocEntry
from ui.library import entry_rows, shown_outline

TOC = (TocEntry(title="Annual report 2031", level=1, start_page=1, end_page=1),)


def _entry(usable: bool, building: tuple[str, ...] = ()) -> Any:
    profile = SimpleNamespace(toc_entries=0, is_likely_scanned=False, ocr_pages=(), has_tables=True,
                              suggested_strategy="dispatched", has_usable_toc=usable)  # fmt: skip
    return SimpleNamespace(file_name="annual.pdf", total_pages=90, profile=profile, size_bytes=2048,
                           added_at="2031-01-01T10:00:00", doc_id="b" * 64, building=building)  # fmt: skip


def test_the_building_state_comes_right_after_the_name() -> None:
    (row,) = entry_rows([_entry(False, ("keyword index",))])
    assert list(row)[:2] == ["document", "state"] and row["state"] == "building: keyword index"
    assert row["suggested approach"] == "Guided search with follow-up passes"


def test_cover_page_lines_are_not_shown_as_an_outline() -> None:
    assert shown_outline(_entry(False), TOC, "headings") == ((), "Outline")


def test_a_usable_inferred_outline_says_it_is_inferred() -> None:
    toc, title = shown_outline(_entry(True), TOC, "headings")
    assert toc == TOC and "inferred" in title


def test_the_document_outline_is_shown_as_it_is() -> None:
    assert shown_outline(_entry(False), TOC, "outline") == (TOC, "Outline")
