"""Lines of a page for the parser: PyMuPDF text dicts -> visual lines, running headers and footers.

Internal to :mod:`engine.documents.parsing` (through :mod:`engine.documents.layout`). Works on one
``page.get_text("dict")`` per page; every rule is general typography (font size, weight, position).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from engine.contracts import BBox

LIGATURES = str.maketrans({"\ufb00": "ff", "\ufb01": "fi", "\ufb02": "fl", "\ufb03": "ffi", "\ufb04": "ffl",
                           "\ufb05": "st", "\ufb06": "st", "\u00ad": ""})  # fmt: skip
"""Ligature characters (and soft hyphens) a text layer may still carry."""

BAND = 0.10
"""Share of the page height at the top and at the bottom where running headers/footers live."""

_DIGITS = re.compile(r"\d+")
_PAGE_NUMBER = re.compile(r"\d+$")
CURRENCY_ONLY = re.compile(r"^[$€£¥]$")
FIGURE_GAP = 0.5
"""Em widths over which two figures set apart on one line are two cells: more than a word space, which the text
layer never leaves inside a number ("40.4%" and "54.3%" a narrow column gap apart are two columns' values)."""
_ENDS_WITH_FIGURE = re.compile(r"\d[\d,.]*\s?%?\)?$")
_OPENS_NEXT = re.compile(r"^(?P<cell>.*\d[\d,.]*\s?%?\)?)\s+(?P<currency>[$€£¥])$")
"""A cell ending in a figure and then a lone currency symbol ("360,000 $"): the text layer ran the next column's
"$" into the figure before it; the symbol opens the next cell, it never closes an amount."""
_FIGURE_PIECE = re.compile(r"^[(\-−–]?[$€£¥]?\s?[(\-−–]?\d[\d,.]*\s?%?\)?(?:\s?\(\d[\d,.]*\s?%?\))?$")
"""A piece that is a figure only: "1,204", "(3.5)", "$ 750", "12%", "54.3% (0.3%)" (a value and its spread)."""
_MEASURED_PIECE = re.compile(r"^[(\-−–]?[$€£¥]?\s?(?:[\d,]*\.\d+%?|[\d,]+%)\)?(?:\s?\(\d[\d,.]*\s?%?\))?$")
"""A figure that is a measurement (a decimal or a percentage: "68.7%", "0.91"), never a footnote mark, item number
or page number ("(1)", "7", "12"): set apart from a label, it is the label's value."""
_BOLD_FONT = ("Bold", "bold", "BOLD", "Black", "Heavy", "Semibold", "SemiBold")


_SECTION_NUMBER = re.compile(
    r"^(?P<kw>(?:Item|ITEM|Section|SECTION|Chapter|CHAPTER|Part|PART|Appendix|APPENDIX|Annex|ANNEX)\s+)?"
    r"(?P<num>\d+[A-Z]?(?:\.\d+)*|[A-Z](?:\.\d+)+|[IVX]+|[A-Z])(?P<end>[.:)]?)(?=\s|$)"
)


@dataclass(slots=True)
class Line:
    """One visual line: its text, box, char-weighted font size and boldness."""

    text: str
    bbox: BBox
    size: float
    bold: bool
    chars: int
    bold_runs: list[tuple[int, str]] = field(default_factory=list)  # (span position, text)
    starts_bold: bool = False
    columnar: bool = False  # joined from pieces with wide gaps (a table row), never a heading
    cells: list[str] = field(default_factory=list)  # a table row's cells (pieces split by wide gaps)
    cell_x: list[tuple[float, float]] = field(default_factory=list)  # each cell's left and right edge
    pieces: list[tuple[float, float, str]] = field(default_factory=list)  # the text layer's pieces joined, by x

    def __reduce__(self) -> tuple[type[Line], tuple[object, ...]]:
        """Pickled as its fields in order (the PDF worker's helper sends the lines it read): half the time of a
        slotted dataclass's default, which pickles a dict of its slots."""
        return Line, (self.text, self.bbox, self.size, self.bold, self.chars, self.bold_runs, self.starts_bold,
                      self.columnar, self.cells, self.cell_x, self.pieces)  # fmt: skip


_BOLD_NAMES: dict[str, bool] = {}


def _is_bold(span: dict) -> bool:
    if span["flags"] & 16:
        return True
    font = span["font"]
    bold = _BOLD_NAMES.get(font)
    if bold is None:
        bold = _BOLD_NAMES[font] = any(mark in font for mark in _BOLD_FONT)
    return bold


def extract_lines(page_dict: dict) -> list[list[Line]]:
    """Blocks of lines from one ``get_text("dict")`` result (text blocks only, reading order kept)."""
    blocks: list[list[Line]] = []
    for block in page_dict["blocks"]:
        if block.get("type", 0) != 0:
            continue
        lines: list[Line] = []
        for raw in block["lines"]:
            line = _make_line(raw)
            if line is None:
                continue
            prev = lines[-1] if lines else None
            if (
                prev is not None
                and abs(line.bbox[3] - prev.bbox[3]) < 0.5 * max(line.size, 1)
                and (line.bbox[0] >= prev.bbox[2] - 1)
            ):
                _join_same_baseline(prev, line)
            else:
                lines.append(line)
        if lines:
            blocks.append(lines)
    return blocks


def _make_line(raw: dict) -> Line | None:
    parts: list[str] = []
    chars = 0
    weighted = 0.0
    bold_chars = 0
    runs: list[tuple[int, str]] = []
    run: list[str] = []
    first_bold: bool | None = None
    for span in raw["spans"]:
        text = span["text"]
        n = len(text.strip())
        parts.append(text)
        if not n:
            if run:
                run.append(text)
            continue
        bold = _is_bold(span)
        if first_bold is None:
            first_bold = bold
        chars += n
        weighted += span["size"] * n
        if bold:
            bold_chars += n
            run.append(text)
        elif run:
            runs.append((len(runs), "".join(run)))
            run = []
    if not chars:
        return None
    if run:
        runs.append((len(runs), "".join(run)))
    text = " ".join("".join(parts).translate(LIGATURES).split())
    x0, y0, x1, y1 = raw["bbox"]
    return Line(text, (x0, y0, x1, y1), weighted / chars, bold_chars == chars, chars, runs, bool(first_bold))


def _join_same_baseline(prev: Line, line: Line) -> None:
    size = (prev.size * prev.chars + line.size * line.chars) / (prev.chars + line.chars)
    if not prev.cells:
        prev.cells = [prev.text]
        prev.cell_x = [(prev.bbox[0], prev.bbox[2])]
    if not prev.pieces:
        prev.pieces = [(prev.bbox[0], prev.bbox[2], prev.text)]
    prev.pieces.append((line.bbox[0], line.bbox[2], line.text))
    gap = line.bbox[0] - prev.bbox[2]
    wide = gap > 2.5 * max(line.size, prev.size)
    figures = gap > FIGURE_GAP * max(line.size, prev.size) and (
        _side_by_side(prev.cells[-1], line.text)
        or (CURRENCY_ONLY.match(line.text) is not None and _ENDS_WITH_FIGURE.search(prev.cells[-1]) is not None)
    )  # a lone "$" after a figure is the next amount's: a currency sign is printed before its amount, never after
    if (wide and not (
        len(prev.text) <= 12 and section_number(prev.text)  # "Item 7." <tab> "Management's Discussion"
    )) or figures:  # fmt: skip
        prev.columnar = True
    opens = _OPENS_NEXT.match(prev.cells[-1])
    own = _OPENS_NEXT.match(line.text)  # "46,710 $": the piece itself ends in the next column's sign
    if opens is not None and _FIGURE_PIECE.match(own.group("cell") if own else line.text) is not None:
        prev.columnar = True
        prev.cells[-1] = opens.group("cell")
        prev.cells.append(f"{opens.group('currency')} {line.text}")
        prev.cell_x.append((line.bbox[0], line.bbox[2]))
    elif (wide or figures) and not CURRENCY_ONLY.match(prev.cells[-1]):
        prev.cells.append(line.text)
        prev.cell_x.append((line.bbox[0], line.bbox[2]))
    else:  # a narrow gap, or "$" set apart from its amount: the same cell
        prev.cells[-1] = f"{prev.cells[-1]} {line.text}"
        prev.cell_x[-1] = (prev.cell_x[-1][0], line.bbox[2])
    prev.text = f"{prev.text} {line.text}"
    prev.bbox = (min(prev.bbox[0], line.bbox[0]), min(prev.bbox[1], line.bbox[1]),
                 max(prev.bbox[2], line.bbox[2]), max(prev.bbox[3], line.bbox[3]))  # fmt: skip
    if prev.bold and line.bold and prev.bold_runs and line.bold_runs:
        prev.bold_runs[-1] = (prev.bold_runs[-1][0], f"{prev.bold_runs[-1][1]} {line.bold_runs[0][1]}")
        prev.bold_runs.extend(line.bold_runs[1:])
    else:
        prev.bold_runs.extend(line.bold_runs)
    prev.bold = prev.bold and line.bold
    prev.columnar = prev.columnar or line.columnar
    prev.size = size
    prev.chars += line.chars


def _side_by_side(cell: str, piece: str) -> bool:
    """A figure following a cell that ends in one (two values of a row, never one number), or a measured figure
    following a label ("Greedy + Lookahead (ours)" | "68.7%")."""
    if _ENDS_WITH_FIGURE.search(cell) is not None:
        return _FIGURE_PIECE.match(piece) is not None
    return _MEASURED_PIECE.match(piece) is not None


# --------------------------------------------------------------------------------------------
# Running headers and footers
# --------------------------------------------------------------------------------------------


EDGE_SLACK = 2.0
"""Points by which a line may sit off the page's first or last line and still be on it (one visual line)."""


EDGE_MIN_LINES = 3
"""A page of fewer lines has no running footer apart from its text: its first or last line is the text itself."""


def text_edges(blocks: list[list[Line]]) -> tuple[float, float] | None:
    """The top of the page's first line and the bottom of its last, else None for a page of fewer than
    ``EDGE_MIN_LINES`` lines."""
    boxes = [line.bbox for lines in blocks for line in lines]
    return (min(b[1] for b in boxes), max(b[3] for b in boxes)) if len(boxes) >= EDGE_MIN_LINES else None


def band_key(line: Line, height: float, edges: tuple[float, float] | None = None) -> str | None:
    """The normalised form (digits masked) of a line in the top/bottom band, or on the page's first or last line
    (``edges``: a footer printed under the text wherever the text ends, not at the foot of the page); else None."""
    top, bottom = line.bbox[1], line.bbox[3]  # the text is normalised only for a line in a band (few are)
    if bottom <= height * BAND or top >= height * (1 - BAND):
        return _DIGITS.sub("#", " ".join(line.text.lower().split()))
    if edges is not None and (top <= edges[0] + EDGE_SLACK or bottom >= edges[1] - EDGE_SLACK):
        # off the band only a page number may change: "Acme Inc. 2041 Form 10-K 3" repeats, "Chapter 3" does not
        return _PAGE_NUMBER.sub("#", " ".join(line.text.lower().split()))
    return None


def find_repeated(pages: list[tuple[list[list[Line]], float]], min_fraction: float) -> dict[str, str]:
    """Band lines repeated on at least ``min_fraction`` of the pages (needs >= 3 pages).

    Returns ``{normalised key: first original text}``.
    """
    if len(pages) < 3:
        return {}
    counts: Counter[str] = Counter()
    originals: dict[str, str] = {}
    for blocks, height in pages:
        keys: set[str] = set()
        edges = text_edges(blocks)
        for lines in blocks:
            for line in lines:
                key = band_key(line, height, edges)
                if key:
                    keys.add(key)
                    originals.setdefault(key, line.text)
        counts.update(keys)
    need = max(2.0, min_fraction * len(pages))
    return {key: originals[key] for key, n in counts.items() if n >= need}


# --------------------------------------------------------------------------------------------
# Blocks -> units
# --------------------------------------------------------------------------------------------


def body_font_size(pages: list[tuple[list[list[Line]], float]]) -> float:
    """The char-weighted median font size over the document (the body text size)."""
    sizes: Counter[float] = Counter()
    for blocks, _ in pages:
        for lines in blocks:
            for line in lines:
                sizes[round(line.size, 1)] += line.chars
    if not sizes:
        return 10.0
    half = sum(sizes.values()) / 2
    running = 0
    for size in sorted(sizes):
        running += sizes[size]
        if running >= half:
            return size
    return 10.0


def section_number(text: str) -> str | None:
    """The section number a heading starts with: "5.4", "7A" ("Item 7A."), "B" ("Appendix B")."""
    match = _SECTION_NUMBER.match(text.strip())
    if not match:
        return None
    number = match.group("num")
    if number.isdigit() and len(number) >= 4:
        return None  # a year or an amount ("2019 acquisitions"), not a section
    if not match.group("kw"):
        if number.isalpha():
            return None  # bare letters and roman numerals only count after a keyword ("Appendix B")
        if number[-1].isalpha() and not match.group("end"):
            return None  # "3D printing"
    return number
