"""Column headers the text layer set apart from their table, put back over its columns by position.

A filing's table often prints its column headers as stacked words ("Boats at" / "Season" / "End")
with a period spanning groups of columns above them ("2041" over "Boats Launched | Boats Retired | Boats at Season End").
PyMuPDF returns each stacked cell as a block of its own, so the header came out as loose heading-like units far
from the rows, and each row's figures had no column names. Here the pieces over a table's value columns are
assigned to the columns under them, by their left and right edges, and the table gets one header row ("| 2041
Boats Launched | 2041 Boats Retired | ..."); the pieces leave the units they were in.

Every rule is geometry and typography, never a document's wording. A piece is placed only where its position
says which columns it heads; when one does not fit, the table keeps the layout it had. Internal to
:mod:`engine.documents.parsing`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import combinations, pairwise
from math import comb

from engine.documents.layout import FOOTNOTE_MARK
from engine.documents.lines import Line
from engine.documents.text import ABBREVIATED_CELL, YEAR

MIN_ROWS = 2
"""A table body is at least this many rows of figures, one above the other in one block."""
MIN_VALUE_COLUMNS = 2
"""A header is only rebuilt over two value columns or more."""
REACH_ROWS = 5.0
"""Header pieces sit within this many row heights above the first row (three stacked lines and a spanning one)."""
MAX_PIECE_CHARS = 40
"""A header cell is short; a longer line over the table is a caption or prose, and ends the header."""
SLACK = 2.0
"""Points by which a column's centre may lie outside a piece and the piece still head it."""
SPAN_FIT = 0.35
"""A row of periods fewer than the columns spans groups of them when each period is centred over its group to
within this share of the columns' pitch: figures sit flush right under centred headers, so the fit is loose,
but a period over its own column with a change column beside it is half a pitch off, and is no span."""
MAX_BODIES = 64
"""Tables per page rebuilt at most: each one looks at every line of its page."""
MAX_SPLITS = 5_000
"""Splits of the columns among a row's periods tried at most (12 columns under 4 periods: 165)."""
BAND = 3.0
"""Points within which pieces set in separate blocks stand on one header line."""

_AMOUNT = re.compile(r"\d")
_FIGURE = re.compile(r"^[(\-−–$€£¥]*\d[\d,.]*%?\)?$")
"""A token that is a figure: a header is words ("F1", "Top-5" and "Model 3" are words), never a row's figures."""
_NUMBERS = re.compile(r"\d[\d,.]*")
_FOOTNOTE = re.compile(FOOTNOTE_MARK)
_SPREAD = re.compile(r"\s?\(\d[\d,.]*\s?%?\)$")
"""A value's spread printed after it in one cell ("54.3% (0.3%)"): one value, not two run together."""
_NO_WORD = re.compile(r"^[\s$€£¥%—–\-.]*$")
"""A cell of dashes or signs only: a row's empty values ("—"), never a header."""
_SCALE = re.compile(r"\b(?:thousands?|millions?|billions?)\b", re.I)
"""A scale caption ("(dollars in millions)"): the reader takes the table's unit from it, so it stays where it is and
the header above it is left as printed."""
_YEAR = re.compile(rf"\b{YEAR}\b")
_PERIOD_ONLY = re.compile(
    rf"(?:(?:fiscal(?:\s+year)?|fy)\s*)?'?{YEAR}|[A-Z][a-z]{{2,8}}\.?\s+\d{{1,2}},?\s+{YEAR}", re.I
)
"""A header cell that is a period only: "2041", "Fiscal 2041", "FY2041", "June 30, 2041"."""


@dataclass(frozen=True)
class _Piece:
    text: str
    x0: float
    x1: float
    y0: float
    parts: tuple[_Piece, ...] = ()  # the text layer's pieces a cell was joined from ("Coast", "Hills", ...)

    @property
    def centre(self) -> float:
        return (self.x0 + self.x1) / 2


@dataclass(frozen=True)
class _Body:
    block: int
    start: int
    columns: list[tuple[float, float]]
    top: float
    row_height: float
    in_place: Line | None = None  # the header row printed right over the rows, in their block
    left: float = 0.0  # the rows' left edge: lines wholly beside the table (another column of the page) are not its


def with_table_headers(blocks: list[list[Line]]) -> list[list[Line]]:
    """The page's blocks with each table's header rebuilt over its columns, where its pieces stood apart."""
    bodies = [body for n, lines in enumerate(blocks) for body in _bodies(n, lines)]
    if not bodies or len(bodies) > MAX_BODIES:
        return blocks  # more tables than a page prints: a hostile or broken page is read as it comes
    taken: set[int] = set()
    inserts: dict[tuple[int, int], Line] = {}
    for body in bodies:
        if body.in_place is not None:
            split = _split_in_place(body.in_place, body.columns)
            if split is not None:
                taken.add(id(body.in_place))
                inserts[(body.block, body.start - 1)] = split
            continue  # a header printed in place is kept: only its cells joined over several columns are split
        found = _header(body, blocks, taken)
        if found is not None:
            header, used = found
            taken.update(id(line) for line in used)
            inserts[(body.block, body.start)] = header
    if not inserts:
        return blocks
    out: list[list[Line]] = []
    for n, lines in enumerate(blocks):
        kept: list[Line] = []
        for i, line in enumerate(lines):
            if (n, i) in inserts:
                kept.append(inserts[(n, i)])
            if id(line) not in taken:
                kept.append(line)
        if kept:
            out.append(kept)
    return out


def _is_row(line: Line) -> bool:
    """A row of figures: a label (or none) and two value cells or more holding numbers other than years, each one
    number (cells the text layer ran together, "$ 750,000 $ 800,000", give no column edges to place a header by)."""
    if not line.columnar or len(line.cells) < 3 or len(line.cell_x) != len(line.cells):
        return False
    if any(len(_NUMBERS.findall(_SPREAD.sub("", cell))) > 1 for cell in line.cells[1:]):
        return False
    return sum(1 for cell in line.cells[1:] if _AMOUNT.search(_YEAR.sub("", cell))) >= MIN_VALUE_COLUMNS


def _bodies(block: int, lines: list[Line]) -> list[_Body]:
    """The table bodies of one block: runs of rows with a common cell count, and their value columns' edges."""
    out: list[_Body] = []
    i = 0
    while i < len(lines):
        if not _is_row(lines[i]):
            i += 1
            continue
        j = i
        while j < len(lines) and _is_row(lines[j]):
            j += 1
        rows = lines[i:j]
        width = max(len(row.cells) for row in rows)
        full = [row for row in rows if len(row.cells) == width]
        above = lines[i - 1] if i else None
        if len(full) >= MIN_ROWS:
            columns = [
                (min(row.cell_x[k][0] for row in full), max(row.cell_x[k][1] for row in full)) for k in range(1, width)
            ]
            first = rows[0].bbox
            in_place = (
                above if above is not None and above.columnar and not _is_row(above) and not _described(above) else None
            )  # a row of words under the header ("Crew | Pilot | Pilot") is data, and the header is looked for above
            left = min(row.bbox[0] for row in rows)
            out.append(_Body(block, i, columns, first[1], max(first[3] - first[1], 1.0), in_place, left))
        i = j
    return out


def _header(body: _Body, blocks: list[list[Line]], taken: set[int]) -> tuple[Line, list[Line]] | None:
    """The header row over ``body`` and the lines it was built from, else None."""
    left = body.columns[0][0] - (body.columns[0][1] - body.columns[0][0])
    right = body.columns[-1][1] + (body.columns[-1][1] - body.columns[-1][0])  # a centred header may overhang
    window = [
        line
        for n, lines in enumerate(blocks)
        for i, line in enumerate(lines)
        if not (n == body.block and i >= body.start)
        and line.bbox[3] <= body.top + 1
        and line.bbox[1] >= body.top - REACH_ROWS * body.row_height
        and line.bbox[2] >= body.left - SLACK
        and line.bbox[0] <= right  # the prose of the page's other column, level with the header, is not over it
    ]
    used: list[Line] = []
    for line in sorted(window, key=lambda c: -c.bbox[3]):  # nearest the rows first, up to a caption or a row
        if _described(line) and id(line) not in taken:
            continue  # a row of words between the header and the figures ("Hull | Steel Steel | Timber")
        if id(line) in taken or not _header_like(line):
            break  # anywhere across the page: a row label or a sentence between header and rows ends the header
        if any(piece.centre >= left for piece in _pieces(line)):
            used.append(line)  # the label column's own header stays where it is
    if not used:
        return None
    placed = _place(body.columns, used)
    if placed is None or sum(1 for label in placed[1] if label) < MIN_VALUE_COLUMNS:
        return None
    cells = [placed[0], *placed[1]]
    text = " | ".join(cells)
    x0 = min(line.bbox[0] for line in used)
    box = (x0, min(line.bbox[1] for line in used), body.columns[-1][1], max(line.bbox[3] for line in used))
    size = max(line.size for line in used)
    header = Line(text, box, size, False, len(text), columnar=True, cells=cells)
    return header, used


def _described(line: Line) -> bool:
    """A table row of words, not a header: a label and two neighbouring cells alike ("Crew | Pilot | Pilot"), as the
    text layer split them or as its pieces stood. A header names each of its columns once, side by side."""
    cells = [p.text for p in _pieces(line)][1:]
    pieces = [text for _, _, text in line.pieces][1:]
    return any(a == b and not _FIGURE.match(a) for run in (cells, pieces) for a, b in pairwise(run))


def _header_like(line: Line) -> bool:
    """A header line: short cells of words or periods, no figures, not a sentence. A cell the text layer joined
    from pieces set a narrow gap apart ("Recall Precision Recall@20" over three columns) is as short as its
    longest piece: each piece may head a column of its own."""
    cells = line.cells if line.cells else [line.text]
    longest = {piece.text: max(len(part.text) for part in piece.parts or (piece,)) for piece in _pieces(line)}
    return all(
        longest.get(cell, len(cell)) <= MAX_PIECE_CHARS
        and not any(_FIGURE.match(token) for token in _FOOTNOTE.sub("", _YEAR.sub("", cell)).split())
        and not _NO_WORD.match(cell)
        and not _SCALE.search(cell)
        and not (cell.endswith(":") or (cell.endswith(".") and not ABBREVIATED_CELL.fullmatch(cell)))
        for cell in cells
    )


def _pieces(line: Line) -> list[_Piece]:
    y0 = line.bbox[1]
    parts = [_Piece(text, x0, x1, y0) for x0, x1, text in line.pieces]
    if line.cells and len(line.cell_x) == len(line.cells):
        return [
            _Piece(text, x0, x1, y0, tuple(p for p in parts if x0 <= p.x0 and p.x1 <= x1))
            for text, (x0, x1) in zip(line.cells, line.cell_x, strict=True)
        ]
    return [_Piece(line.text, line.bbox[0], line.bbox[2], y0, tuple(parts))]


def _split_in_place(line: Line, columns: list[tuple[float, float]]) -> Line | None:
    """``line`` with each cell joined over several columns split into the pieces that head them one each, else None
    when no cell is split."""
    centres = [(x0 + x1) / 2 for x0, x1 in columns]
    cells: list[str] = []
    cell_x: list[tuple[float, float]] = []
    for piece in _pieces(line):
        parts = [part for part, _ in _heads(piece, columns, centres)]
        split = parts[0] is not piece  # split into its pieces, not heading several columns whole
        for part in parts if split else [piece]:
            cells.append(part.text)
            cell_x.append((part.x0, part.x1))
    if len(cells) == len(line.cells):
        return None
    return Line(" ".join(cells), line.bbox, line.size, line.bold, line.chars, list(line.bold_runs),
                line.starts_bold, True, cells, cell_x, list(line.pieces))  # fmt: skip


def _heads(piece: _Piece, columns: list[tuple[float, float]], centres: list[float]) -> list[tuple[_Piece, int]]:
    """Each piece of ``piece`` with a column it heads. A cell over several columns is split into the pieces it was
    joined from when each of them heads a column of its own ("Coast Hills Marsh" set a narrow gap apart over
    three columns); else the cell heads every column under it (one header over two columns)."""
    heads = _under(piece, columns, centres)
    if len(heads) > 1 and len(piece.parts) > 1:
        own = [_under(part, columns, centres) for part in piece.parts]
        if all(own) and sum(len(k) for k in own) == len({c for k in own for c in k}):
            # each piece over columns of its own: one each, or a group each ("train=False" over "dev | test")
            return [(part, c) for part, k in zip(piece.parts, own, strict=True) for c in k]
    return [(piece, k) for k in heads]


def _place(columns: list[tuple[float, float]], lines: list[Line]) -> tuple[str, list[str]] | None:
    """The label column's header (pieces wholly left of the first value column) and each value column's header
    text, top to bottom; None when a piece heads no column. Rows of periods that may span groups of columns are
    fitted last, against the extent of the header pieces under them (headers are centred over each other; the
    figures below sit flush right)."""
    parts: list[list[_Piece]] = [[] for _ in columns]
    lead: list[_Piece] = []
    centres = [(x0 + x1) / 2 for x0, x1 in columns]
    periods: list[list[_Piece]] = []
    bands = _bands(lines)
    for n, band in enumerate(bands):
        lead += [p for p in band if p.x1 < columns[0][0]]
        pieces = [p for p in band if p.x1 >= columns[0][0]]
        if 2 <= len(pieces) < len(columns) and all(_PERIOD_ONLY.fullmatch(p.text.strip()) for p in pieces):
            periods.append(pieces)
            continue
        words = [part for p in pieces for part in (p.parts if len(p.parts) > 1 else (p,))]
        if n < len(bands) - 1 and 2 <= len(words) < len(columns):
            periods.append(words)  # a band over another may name groups of its columns ("Inbound" over three)
            continue
        for piece in pieces:
            heads = _heads(piece, columns, centres)
            if not heads:
                return None
            for part, k in heads:
                parts[k].append(part)
    extents = [
        (min(p.x0 for p in ps), max(p.x1 for p in ps)) if ps else column
        for ps, column in zip(parts, columns, strict=True)
    ]
    pitch = min((b - a for a, b in pairwise(centres)), default=0.0)
    for pieces in periods:
        spans = _spanning(pieces, extents, pitch)
        for n, piece in enumerate(pieces):
            for k in spans[n] if spans is not None else _under(piece, columns, centres):
                parts[k].append(piece)
    return _joined(lead), [_joined(ps) for ps in parts]


def _joined(pieces: list[_Piece]) -> str:
    return " ".join(p.text for p in sorted(pieces, key=lambda p: (p.y0, p.x0)))


def _bands(lines: list[Line]) -> list[list[_Piece]]:
    """The header's pieces by line, left to right, pieces set in separate blocks on one line joined."""
    bands: list[list[_Piece]] = []
    for piece in sorted((p for line in lines for p in _pieces(line)), key=lambda p: p.y0):
        if bands and abs(piece.y0 - bands[-1][0].y0) <= BAND:
            bands[-1].append(piece)
        else:
            bands.append([piece])
    return [sorted(band, key=lambda p: p.x0) for band in bands]


def _under(piece: _Piece, columns: list[tuple[float, float]], centres: list[float]) -> list[int]:
    """The columns a piece heads: those whose centre it covers (a wide header over two columns), else the one in
    whose zone its centre lies (a column's zone runs halfway to its neighbours: figures are set flush right under
    a centred header)."""
    covered = [k for k, c in enumerate(centres) if piece.x0 - SLACK <= c <= piece.x1 + SLACK]
    if covered:
        return covered
    bounds = [(right + left) / 2 for (_, right), (left, _) in pairwise(columns)]
    return [sum(1 for b in bounds if piece.centre > b)]


def _spanning(pieces: list[_Piece], extents: list[tuple[float, float]], pitch: float) -> list[list[int]] | None:
    """The contiguous group of columns each period of a header row is centred over (a year over its "Launched |
    Retired | Afloat" columns), when one split of the columns fits every period; else None. ``extents`` are the
    columns' header extents."""
    if comb(len(extents) - 1, len(pieces) - 1) > MAX_SPLITS:
        return None  # a header this wide is not fitted (a hostile page must not make the parser try them all)
    best: tuple[float, list[list[int]]] | None = None
    for cuts in combinations(range(1, len(extents)), len(pieces) - 1):
        bounds = [0, *cuts, len(extents)]
        groups = [list(range(bounds[g], bounds[g + 1])) for g in range(len(pieces))]
        error = max(
            abs(p.centre - (extents[g[0]][0] + extents[g[-1]][1]) / 2) for p, g in zip(pieces, groups, strict=True)
        )
        if best is None or error < best[0]:
            best = (error, groups)
    if best is None or best[0] > SPAN_FIT * pitch:
        return None
    return best[1]
