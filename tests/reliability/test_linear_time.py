"""Work that grows with hostile input grows linearly: outline page ranges, heading anchors, questions.

Outlines of 100,000 entries took 52 s (every entry scanned every later one, copying the list), and
anchoring compared every entry with every text unit of its page. The timeouts below are hang guards
two orders of magnitude above the linear cost, not speed targets (those live in bench/).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bricks import outline
from engine.bricks.layout import Unit
from engine.contracts import TocEntry

ENTRIES = 100_000


def _unit(page: int, j: int) -> Unit:
    box = (72.0, 40.0 + j * 24, 300.0, 52.0 + j * 24)
    kind = "heading" if j % 3 == 0 else "text"
    return Unit(page=page, text=f"{page}.{j} Heading number {j} of page {page}", bboxes=[box], kind=kind, size=11,
                page_height=792)  # fmt: skip


def _units(pages: int = 10, per_page: int = 30) -> list[list[Unit]]:
    return [[_unit(p, j) for j in range(per_page)] for p in range(1, pages + 1)]


def _naive_ranges(entries: list[tuple[int, int]], page_count: int) -> list[tuple[int, int]]:
    """(start, end) of each (level, page) entry: the end is the page of the next entry of the same or a
    higher level (the definition, written the obvious quadratic way)."""
    ends = []
    for pos, (level, page) in enumerate(entries):
        end = next((p for lv, p in entries[pos + 1 :] if lv <= level), page_count)
        ends.append((page, max(page, end)))
    return ends


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 5), st.integers(1, 12)), min_size=2, max_size=40))
def test_page_ranges_match_their_definition(rows: list[tuple[int, int]]) -> None:
    rows = sorted(rows, key=lambda r: r[1])  # in page order, as an anchored outline is
    toc, _, _ = outline.build_toc([[lv, f"Part {n}", p] for n, (lv, p) in enumerate(rows)], [[] for _ in range(12)])
    levels = [(t.level, t.start_page) for t in toc]
    assert [(t.start_page, t.end_page) for t in toc] == _naive_ranges(levels, 12)


@pytest.mark.timeout(60)
@pytest.mark.parametrize("shape", ["chain", "flat", "guessed", "one_title"])
def test_outline_of_100000_entries_is_linear(shape: str) -> None:
    rows = {
        "chain": [[n + 1, f"Level {n}", 1] for n in range(ENTRIES)],  # each entry one level deeper
        "flat": [[1 + n % 2, f"Entry {n}", 1 + n * 10 // ENTRIES] for n in range(ENTRIES)],
        "guessed": [[1, f"{n % 10 + 1}.{n % 30} Heading number {n % 30}", 99_999] for n in range(ENTRIES)],
        "one_title": [[1, "1.0 Heading", 1] for _ in range(ENTRIES)],
    }[shape]
    toc, source, paths = outline.build_toc(rows, _units())
    assert source == "outline" and toc and len(paths) == 10
    assert all(isinstance(t, TocEntry) and t.start_page <= t.end_page for t in toc)


def test_headings_are_still_found_on_their_page() -> None:
    units = _units(pages=3)
    toc, _, paths = outline.build_toc([[1, "1.3 Heading number 3", 1], [1, "2.6 Heading number 6", 2]], units)
    assert [t.start_page for t in toc] == [1, 2]
    assert paths[0][2] == () and paths[0][3] == ("1.3 Heading number 3",)
    assert paths[1][5] == ("1.3 Heading number 3",) and paths[1][6] == ("2.6 Heading number 6",)
