"""Page layout for the parser: block units from lines (headings, lists, captions, tables), sized for search.

Internal to :mod:`engine.documents.parsing`. Line extraction and running headers/footers live in
:mod:`engine.documents.lines` (re-exported here); every rule is general typography (font size, weight,
position), never tied to a particular document.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine.contracts import BBox, ChunkKind
from engine.documents.lines import (
    CURRENCY_ONLY,
    LIGATURES,
    Line,
    band_key,
    body_font_size,
    extract_lines,
    find_repeated,
    section_number,
    text_edges,
)
from engine.documents.list_marks import BULLETS
from engine.documents.text import YEAR

_BULLETS = frozenset(BULLETS)
_LIST_START = re.compile(r"^(?:\(\s*(?:\d{1,2}|[a-zA-Z]|[ivx]{1,4})\s*\)|\d{1,2}[.)]\s|[a-z][.)]\s)")
_CAPTION = re.compile(
    r"^(?:Table|TABLE|Figure|FIGURE|Fig\.|FIG\.|Exhibit)\s*[0-9]+[A-Za-z]?(?:\.[0-9]+)?"
    r"(?:\s*[:.|\-–—]|\s*$|\s+[A-Z(])"
)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9(\"'])")


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


def _heading_like(line: Line, big: float) -> bool:
    return (
        (line.size >= big or line.bold) and len(line.text) <= 150 and not line.columnar and not figures_row(line.text)
    )


_FIGURE = re.compile(r"^[(\-−]?[$€£]?[\d,]*\.\d+%?\)?$|^[(\-−]?[\d,]+%\)?$")
"""A measured figure as a table prints it: a decimal or a percentage ("30.87%", "6.42", "(1.5)")."""


def is_figure(token: str) -> bool:
    """Whether one whitespace-free token is a measured figure (``_FIGURE``)."""
    return _FIGURE.match(token) is not None


def figures_row(text: str) -> bool:
    """A line holding two or more measured figures ("Lynx-7 with tides 30.87% 23.50%") is a table row, even when it
    is printed bold to mark the best result: never a heading."""
    return sum(1 for token in text.split() if is_figure(token)) >= 2


def _is_heading_text(text: str, size: float, big: float) -> bool:
    if len(text) > 200 or _CAPTION.match(text) or not any(c.isalpha() for c in text):
        return False
    if size >= big:
        return True
    return not text.endswith((".", ",", ";")) or bool(section_number(text) and len(text.split()) <= 25)


def block_units(
    lines: list[Line], page: int, height: float, body: float, ratio: float, glyph: str | None = None
) -> list[Unit]:
    """Turn one block into units: headings (a run of bold/large lines at the block start or after a
    sentence end), body paragraphs and list items (``glyph``: the page's symbol-font bullet, ``glyph_bullet``)."""
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
            units.extend(_body_units(lines[start:i], page, height, glyph))
            units.append(Unit(page, text, [line.bbox for line in head], "heading", [], size, height))
            start = j
        i = j
    units.extend(_body_units(lines[start:], page, height, glyph))
    return units


def _body_units(lines: list[Line], page: int, height: float, glyph: str | None) -> list[Unit]:
    units: list[Unit] = []
    start = 0
    for i in range(1, len(lines) + 1):
        if i == len(lines) or _starts_item(lines[i].text) or (glyph and lines[i].text.startswith(glyph)):
            if i > start:
                units.append(_body_unit(lines[start:i], page, height, glyph))
            start = i
    return units


def _starts_item(text: str) -> bool:
    return text[:1] in _BULLETS or bool(_LIST_START.match(text))


_SUSPENDED = re.compile(r"(?:and|or|to|nor)\b")
"""The word after a suspended hyphen ("pre- and post-war", "short- or long-term"): the hyphen joins no word."""


def join_lines(texts: list[str]) -> str:
    """Join line texts with spaces, re-joining words hyphenated across a line break."""
    out = ""
    for text in texts:
        if not out:
            out = text
        elif _hyphenated(cut := out.rstrip(), text.lstrip()):
            out = cut[:-1] + text.lstrip()  # "refrig- " over "erator": the line's trailing space is no word break
        else:
            out = f"{out} {text}"
    return out


def _hyphenated(before: str, after: str) -> bool:
    """Whether a line ending in a hyphen and the next line are one word cut in two."""
    return (
        before.endswith("-") and len(before) > 1 and before[-2].isalpha()
        and after[:1].islower() and not _SUSPENDED.match(after)
    )  # fmt: skip


ROW_SEPARATOR = " | "
"""Between the cells of a table row; rows stand on lines of their own."""

FOOTNOTE_MARK = r"(?<=[A-Za-z)])\s*(?:\((?:[a-z]|\d{1,2})\)|\*+)"
"""A footnote marker after a word of a label or header ("Total assets(b)", "Boats Retired (1)", "Revenue*"): it
points to a note, it names nothing. Alone, "(16)" is an amount."""


def row_text(line: Line) -> str:
    """A table row as ``cell | cell | cell``; any other line as its text."""
    if not line.columnar or len(line.cells) < 2:
        return line.text
    cells = list(line.cells)
    for n in range(len(cells) - 1):  # "5,363 $" | "4,869": the symbol belongs to the next column's amount
        head, _, symbol = cells[n].rpartition(" ")
        if head and CURRENCY_ONLY.match(symbol):
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


def _body_unit(lines: list[Line], page: int, height: float, glyph: str | None = None) -> Unit:
    text = join_rows(lines)
    if glyph and text.startswith(glyph):
        text = "• " + text[len(glyph) :].lstrip()  # the bullet the reader sees, not the font's letter
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
    """A wrapped line the PDF put in a block of its own: lower-case start after an unfinished sentence, or a number
    and a lower-case word ("30 minutes before ...") after a block cut right after a word ("... wait")."""
    unfinished = not prev.text.rstrip().endswith((".", ":", ";", "!", "?"))
    cut_after_word = prev.text.rstrip()[-1:].islower() and bool(_NUMBER_THEN_WORD.match(unit.text))
    return (
        unit.kind == "text"
        and prev.kind in ("text", "list_item")
        and unfinished
        and (unit.text[:1].islower() or cut_after_word)
    )


_NUMBER_THEN_WORD = re.compile(r"\d[\d,.]*\s+[a-z]")


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
    rf"^(?:\(?[A-Za-z][^\d]*\)?|(?:FY|Q[1-4]|H[12])?\s*'?{YEAR}(?:\s*[A-Za-z%()]+)?|"
    rf"(?:[A-Z][a-z]+\.?\s+\d{{1,2}},?\s+)?{YEAR})$"
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


__all__ = [
    "LIGATURES",
    "Line",
    "Unit",
    "band_key",
    "block_units",
    "body_font_size",
    "demote_cells",
    "extract_lines",
    "find_repeated",
    "join_lines",
    "merge_tiny",
    "section_number",
    "split_long",
    "text_edges",
]
