"""Work that grows with hostile input grows linearly: outline page ranges, heading anchors, questions.

Outlines of 100,000 entries took 52 s (every entry scanned every later one, copying the list), and
anchoring compared every entry with every text unit of its page. The timeouts below are hang guards
two orders of magnitude above the linear cost, not speed targets (those live in bench/).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.contracts import TocEntry
from engine.documents import outline
from engine.documents.layout import Unit

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


# ------------------------------------------------------------------------------------------------
# The side finder: each "A <separator> B" shape matched in linear time, as its regular expression would
# ------------------------------------------------------------------------------------------------

HOSTILE_QUESTIONS = {
    "vs": "word " * 20_000,
    "between": "between x " * 10_000,
    "do_and": "do a and " * 11_000,  # (.+?) and (.+?) differ: cubic as a regex
    "is_differ": "is x " * 20_000,
    "or_comma": "a or " * 20_000 + "a,",
    "clauses": "a: b, c or d? " * 7_000,
}


@pytest.mark.timeout(60)
@pytest.mark.parametrize("shape", sorted(HOSTILE_QUESTIONS))
def test_side_finder_is_linear_on_100000_characters(shape: str) -> None:
    from engine.reading.question_sides import find_sides, is_comparison

    question = HOSTILE_QUESTIONS[shape]
    sides = find_sides(question)
    assert isinstance(sides, list)
    is_comparison(question, sides)


TOKENS = ["do", "does", "is", "between", "and", "or", "vs", "vs.", "versus", "compare", "compares", "with", "in",
          "for", "differ", "different", "from", "A", "B", "x,", "y?", "z:", ",", "?", ":"]  # fmt: skip
texts = st.lists(st.sampled_from(TOKENS), max_size=12).map(" ".join)


@settings(max_examples=300, deadline=None)
@given(texts)
def test_separator_scans_match_their_regular_expressions(text: str) -> None:
    import re

    from engine.reading import separators as sep

    def groups(match: re.Match[str] | None) -> tuple[str, ...] | None:
        return match.groups() if match else None

    vs = r"\s+(?:vs\.?|versus)\s+"
    assert sep.pair_from_start(text, vs) == groups(re.search(f"(.+?){vs}(.+)", text, re.I))
    lead = re.search(r"\bbetween\s+", text, re.I)
    assert sep.pair_after(text, lead, r"\s+and\s+") == groups(re.search(r"\bbetween\s+(.+?)\s+and\s+(.+)", text, re.I))
    lead = re.search(r"\b(?:do|did|does)\s+", text, re.I)
    expected = groups(re.search(r"\b(?:do|did|does)\s+(.+?)\s+and\s+(.+?)\s+(?:differ|compare)\b", text, re.I))
    assert sep.triple_after(text, lead, r"\s+and\s+", r"\s+(?:differ|compare)\b") == expected
    aspect = r"\s+(?:in|for)\s+"
    assert sep.until_first(text, 0, aspect) == (groups(re.search(f"^(.+?)(?:{aspect}.*)?$", text, re.I)) or ("",))[0]
    expected = groups(re.search(r"(?:^|[,?:]\s*)([^,?:]+?),?\s+or\s+([^,?]+)$", text))
    assert sep.last_either_or(text) == expected
