"""Page layout for the parser: lines from PyMuPDF dicts, running headers/footers, block units.

Internal to :mod:`engine.bricks.parsing`. Works on one ``page.get_text("dict")`` per page; every
rule is general typography (font size, weight, position), never tied to a particular document.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from engine.contracts import BBox, ChunkKind

LIGATURES = str.maketrans({"\ufb00": "ff", "\ufb01": "fi", "\ufb02": "fl", "\ufb03": "ffi", "\ufb04": "ffl",
                           "\ufb05": "st", "\ufb06": "st", "\u00ad": ""})  # fmt: skip
"""Ligature characters (and soft hyphens) a text layer may still carry."""

BAND = 0.10
"""Share of the page height at the top and at the bottom where running headers/footers live."""

_BULLETS = frozenset("•◦▪▫●○■□►▶‣⁃∙·–—-*")
_LIST_START = re.compile(r"^(?:\(\s*(?:\d{1,2}|[a-zA-Z]|[ivx]{1,4})\s*\)|\d{1,2}[.)]\s|[a-z][.)]\s)")
_CAPTION = re.compile(
    r"^(?:Table|TABLE|Figure|FIGURE|Fig\.|FIG\.|Exhibit)\s*[0-9]+[A-Za-z]?(?:\.[0-9]+)?"
    r"(?:\s*[:.|\-–—]|\s*$|\s+[A-Z(])"
)
_SECTION_NUMBER = re.compile(
    r"^(?P<kw>(?:Item|ITEM|Section|SECTION|Chapter|CHAPTER|Part|PART|Appendix|APPENDIX|Annex|ANNEX)\s+)?"
    r"(?P<num>\d+[A-Z]?(?:\.\d+)*|[A-Z](?:\.\d+)+|[IVX]+|[A-Z])(?P<end>[.:)]?)(?=\s|$)"
)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9(\"'])")
_DIGITS = re.compile(r"\d+")
_CURRENCY_ONLY = re.compile(r"^[$€£¥]$")
_BOLD_FONT = ("Bold", "bold", "BOLD", "Black", "Heavy", "Semibold", "SemiBold")


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


@dataclass(slots=True)
class Unit:
    """A chunk in the making: text, line boxes, kind and typographic cues."""

    page: int
    text: str
    bboxes: list[BBox]
    kind: ChunkKind = "text"
    bold_terms: list[str] = field(default_factory=list)
    size: float = 0.0
    page_height: float = 0.0

    @property
    def y0(self) -> float:
        return self.bboxes[0][1] if self.bboxes else 0.0


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
    wide = line.bbox[0] - prev.bbox[2] > 2.5 * max(line.size, prev.size)
    if wide and not (
        len(prev.text) <= 12 and section_number(prev.text)  # "Item 7." <tab> "Management's Discussion"
    ):
        prev.columnar = True
    if wide and not _CURRENCY_ONLY.match(prev.cells[-1]):
        prev.cells.append(line.text)
    else:  # a narrow gap, or "$" set apart from its amount: the same cell
        prev.cells[-1] = f"{prev.cells[-1]} {line.text}"
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


# --------------------------------------------------------------------------------------------
# Running headers and footers
# --------------------------------------------------------------------------------------------


def band_key(line: Line, height: float) -> str | None:
    """The normalised form of a line in the top/bottom band (digits masked), else None."""
    if line.bbox[3] > height * BAND and line.bbox[1] < height * (1 - BAND):
        return None
    return _DIGITS.sub("#", " ".join(line.text.lower().split()))


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
        for lines in blocks:
            for line in lines:
                key = band_key(line, height)
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


def _heading_like(line: Line, big: float) -> bool:
    return (line.size >= big or line.bold) and len(line.text) <= 150 and not line.columnar


def _is_heading_text(text: str, size: float, big: float) -> bool:
    if len(text) > 200 or _CAPTION.match(text) or not any(c.isalpha() for c in text):
        return False
    if size >= big:
        return True
    return not text.endswith((".", ",", ";")) or bool(section_number(text) and len(text.split()) <= 25)


def block_units(lines: list[Line], page: int, height: float, body: float, ratio: float) -> list[Unit]:
    """Turn one block into units: headings (a run of bold/large lines at the block start or after a
    sentence end), body paragraphs and list items."""
    big = body * ratio
    flags = [_heading_like(line, big) for line in lines]
    units: list[Unit] = []
    start = i = 0
    while i < len(lines):
        if not flags[i] or (i and not lines[i - 1].text.endswith((".", ":", ";", "!", "?"))):
            i += 1
            continue
        j = i
        while j < len(lines) and flags[j]:
            j += 1
        head = lines[i:j]
        text = join_lines([line.text for line in head])
        size = max(line.size for line in head)
        if _is_heading_text(text, size, big) and (j == len(lines) or len(text) <= 150):
            units.extend(_body_units(lines[start:i], page, height))
            units.append(Unit(page, text, [line.bbox for line in head], "heading", [], size, height))
            start = j
        i = j
    units.extend(_body_units(lines[start:], page, height))
    return units


def _body_units(lines: list[Line], page: int, height: float) -> list[Unit]:
    units: list[Unit] = []
    start = 0
    for i in range(1, len(lines) + 1):
        if i == len(lines) or _starts_item(lines[i].text):
            if i > start:
                units.append(_body_unit(lines[start:i], page, height))
            start = i
    return units


def _starts_item(text: str) -> bool:
    return text[:1] in _BULLETS or bool(_LIST_START.match(text))


def join_lines(texts: list[str]) -> str:
    """Join line texts with spaces, re-joining words hyphenated across a line break."""
    out = ""
    for text in texts:
        if not out:
            out = text
        elif out.endswith("-") and len(out) > 1 and out[-2].isalpha() and text[:1].islower():
            out = out[:-1] + text
        else:
            out = f"{out} {text}"
    return out


ROW_SEPARATOR = " | "
"""Between the cells of a table row; rows stand on lines of their own."""


def row_text(line: Line) -> str:
    """A table row as ``cell | cell | cell``; any other line as its text."""
    if not line.columnar or len(line.cells) < 2:
        return line.text
    cells = list(line.cells)
    for n in range(len(cells) - 1):  # "5,363 $" | "4,869": the symbol belongs to the next column's amount
        head, _, symbol = cells[n].rpartition(" ")
        if head and _CURRENCY_ONLY.match(symbol):
            cells[n], cells[n + 1] = head, f"{symbol} {cells[n + 1]}"
    return ROW_SEPARATOR.join(cells)


def join_rows(lines: list[Line]) -> str:
    """Join lines as prose, except that every table row stands on a line of its own (cells kept apart)."""
    pieces: list[str] = []
    prose: list[str] = []
    for line in lines:
        if line.columnar and len(line.cells) >= 2:
            if prose:
                pieces.append(join_lines(prose))
                prose = []
            pieces.append(row_text(line))
        else:
            prose.append(line.text)
    if prose:
        pieces.append(join_lines(prose))
    return "\n".join(pieces)


def has_rows(text: str) -> bool:
    """Whether a unit's text holds table rows (so it joins others line by line)."""
    return ROW_SEPARATOR in text


def _body_unit(lines: list[Line], page: int, height: float) -> Unit:
    text = join_rows(lines)
    terms: list[str] = []
    for n, line in enumerate(lines):
        for pos, run in line.bold_runs:
            term = " ".join(run.split()).strip(" .:;,—–-")
            if 2 <= len(term) <= 80 and any(c.isalpha() for c in term) and term not in terms:
                if n == 0 and pos == 0 and line.starts_bold:
                    terms.insert(0, term)
                else:
                    terms.append(term)
    kind: ChunkKind = "text"
    if _CAPTION.match(text):
        kind = "caption"
    elif _starts_item(text):
        kind = "list_item"
    size = max(line.size for line in lines)
    return Unit(page, text, [line.bbox for line in lines], kind, terms, size, height)


def demote_cells(units: list[Unit]) -> list[Unit]:
    """Headings that sit on one line with another short unit beside them are table cells: text."""
    for head in units:
        if head.kind != "heading" or len(head.bboxes) > 2:
            continue
        hx0, hy0, hx1, _ = head.bboxes[0]
        for other in units:
            if other is head or len(other.bboxes) > 2:
                continue
            ox0, oy0, ox1, _ = other.bboxes[0]
            if abs(oy0 - hy0) < 3 and (ox1 <= hx0 + 1 or ox0 >= hx1 - 1):
                head.kind = "text"
                break
    return units


# --------------------------------------------------------------------------------------------
# Merging and splitting
# --------------------------------------------------------------------------------------------


def merge_tiny(units: list[Unit], min_chars: int) -> list[Unit]:
    """Merge text units shorter than ``min_chars`` into the next text unit of the same page, and a
    block that continues an unfinished one (it starts in lower case) into it."""
    out: list[Unit] = []
    for unit in units:
        prev = out[-1] if out else None
        if prev is not None and _continues(prev, unit):
            _absorb(prev, unit)
        elif prev is not None and prev.kind == "text" and unit.kind == "text" and len(prev.text) < min_chars:
            if _starts_run_in(unit):  # keep a run-in header first: attach the scrap to the text before
                before = out[-2] if len(out) > 1 else None
                if before is not None and before.kind == "text":
                    _absorb(before, out.pop())
                out.append(unit)
            else:
                _absorb(prev, unit)
        else:
            out.append(unit)
    return out


def _continues(prev: Unit, unit: Unit) -> bool:
    """A wrapped line the PDF put in a block of its own: lower-case start after an unfinished sentence."""
    return (
        unit.kind == "text"
        and prev.kind in ("text", "list_item")
        and unit.text[:1].islower()
        and not prev.text.rstrip().endswith((".", ":", ";", "!", "?"))
    )


def _starts_run_in(unit: Unit) -> bool:
    return bool(unit.bold_terms) and unit.text.startswith(unit.bold_terms[0])


def _absorb(into: Unit, unit: Unit) -> None:
    separator = "\n" if has_rows(into.text) or has_rows(unit.text) else " "
    into.text = f"{into.text}{separator}{unit.text}"
    into.bboxes.extend(unit.bboxes)
    into.bold_terms.extend(t for t in unit.bold_terms if t not in into.bold_terms)
    into.size = max(into.size, unit.size)


def split_long(units: list[Unit], max_chars: int) -> list[Unit]:
    """Split units longer than ``max_chars`` at sentence ends, or between rows for a table (each
    continuation repeats the table's header row); line boxes are shared out by position."""
    out: list[Unit] = []
    for unit in units:
        if len(unit.text) <= max_chars:
            out.append(unit)
            continue
        if has_rows(unit.text):
            pieces = _pack_rows(unit.text, max_chars)
        else:
            pieces = [(piece, "") for piece in _pack(unit.text, max_chars)]
        total = len(unit.text)
        n_boxes = len(unit.bboxes)
        offset = 0
        for body, header in pieces:
            first = min(n_boxes - 1, offset * n_boxes // total)
            offset += len(body) + 1
            last = min(n_boxes - 1, max(first, (offset - 2) * n_boxes // total))
            text = f"{header}\n{body}" if header else body
            terms = [t for t in unit.bold_terms if t in body]
            out.append(
                Unit(unit.page, text, unit.bboxes[first : last + 1], unit.kind, terms, unit.size, unit.page_height)
            )
    return out


_HEADER_CELL = re.compile(
    r"^(?:\(?[A-Za-z][^\d]*\)?|(?:FY|Q[1-4]|H[12])?\s*'?(?:19|20)\d\d(?:\s*[A-Za-z%()]+)?|"
    r"(?:[A-Z][a-z]+\.?\s+\d{1,2},?\s+)?(?:19|20)\d\d)$"
)
"""A column header: words, a year or period ("2018", "FY2019", "Q3 2022", "December 31, 2018")."""


def header_row(lines: list[str]) -> str | None:
    """The first row of a table whose cells after the first are all column headers (years, words)."""
    for line in lines:
        cells = line.split(ROW_SEPARATOR)
        if len(cells) < 2:
            continue
        if all(_HEADER_CELL.match(c.strip()) for c in cells[1:] if c.strip()):
            return line
        return None  # the first row holds values: the header, if any, was not set as a row
    return None


def _pack_rows(text: str, max_chars: int) -> list[tuple[str, str]]:
    """(body, repeated header) pieces of a text with table rows, cut between lines."""
    lines = text.split("\n")
    header = header_row(lines) or ""
    pieces: list[tuple[str, str]] = []
    current: list[str] = []
    size = 0
    for line in lines:
        for part in _pack(line, max_chars) if len(line) > max_chars else [line]:
            if current and size + 1 + len(part) > max_chars:
                pieces.append(("\n".join(current), ""))
                current, size = [], 0
            current.append(part)
            size += len(part) + 1
    if current:
        pieces.append(("\n".join(current), ""))
    return [(body, header if n and header and header not in body else "") for n, (body, _) in enumerate(pieces)]


def _pack(text: str, max_chars: int) -> list[str]:
    sentences = _SENTENCE_END.split(text)
    pieces: list[str] = []
    current = ""
    for sentence in sentences:
        while len(sentence) > max_chars:
            cut = sentence.rfind(" ", 0, max_chars)
            cut = cut if cut > 0 else max_chars
            if current:
                pieces.append(current)
                current = ""
            pieces.append(sentence[:cut])
            sentence = sentence[cut:].strip()
        if current and len(current) + 1 + len(sentence) > max_chars:
            pieces.append(current)
            current = sentence
        else:
            current = f"{current} {sentence}" if current else sentence
    if current:
        pieces.append(current)
    return pieces
