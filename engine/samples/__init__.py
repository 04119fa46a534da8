"""The bundled sample document: a fictional technical note, written by this module with PyMuPDF.

The note compares two fictional survey drones (Heron 2 and Heron 3) and is built to exercise every
pattern of the engine: an outline with numbered sections, a heading at the foot of a page whose body
is on the next page, grid tables with captions (Table 3 is referenced from page 1 and printed on a
later page), an enumeration with a count cue whose third item lives in another section, two versions
of one thing specified on different pages, and a running footer with page numbers.

All prose is original. ``build_sample_pdf`` is deterministic (same bytes on every call).

Run ``python -m engine.samples OUT.pdf`` to write the file.
"""

from __future__ import annotations

import hashlib
import logging
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import pymupdf

from engine.contracts import LibraryEntry
from engine.samples.pages import PAGES, Block, H, P, T, Title

if TYPE_CHECKING:
    from engine.library import DocumentLibrary

logger = logging.getLogger(__name__)

SAMPLE_FILE_NAME = "loupe-sample-heron-note.pdf"
"""File name the sample is stored under in the library."""

SAMPLE_QUESTIONS: tuple[str, ...] = (
    "What is the flight endurance of the Heron 3?",
    "How does the Heron 2 compare with the Heron 3 in endurance and payload?",
    "What three kinds of sensors do the survey flights use?",
    "What mean turbidity does Table 3 report for the Heron 3 flights?",
)
"""Suggested questions: a simple fact, a comparison, a listing and a table reference."""

WIDTH, HEIGHT = 595.0, 842.0  # A4 in points
MARGIN = 64.0
BODY_SIZE = 10.5
LEADING = 1.45
FOOTER_LEFT = "Calder Lake Monitoring Office - TN-7 Heron survey platforms (fictional)"


# ----------------------------------------------------------------------------------------------
# Layout
# ----------------------------------------------------------------------------------------------


@dataclass
class _Pen:
    """Writes blocks top-down on one page and collects the outline."""

    page: pymupdf.Page
    number: int
    toc: list[list[int | str]] = field(default_factory=list)
    y: float = MARGIN + 8

    def write(self, block: Block) -> None:
        if isinstance(block, Title):
            self._title(block)
        elif isinstance(block, H):
            self._heading(block)
        elif isinstance(block, P):
            self._paragraph(block)
        else:
            self._table(block)

    def _title(self, block: Title) -> None:
        self.y = self._lines([(block.title, "hebo")], 22, gap=6)
        self.y = self._lines([(block.subtitle, "helv")], 12.5, gap=4)
        self.y = self._lines([(block.byline, "heit")], 9.5, gap=18)
        self.page.draw_line((MARGIN, self.y - 10), (WIDTH - MARGIN, self.y - 10), color=(0.5, 0.5, 0.5), width=0.6)

    def _heading(self, block: H) -> None:
        size = 15.0 if block.level == 1 else 12.0
        if block.foot:
            self.y = HEIGHT - MARGIN - 40
        self.y += 6 if block.level == 1 else 2
        self.toc.append([block.level, block.text, self.number])
        self.y = self._lines([(block.text, "hebo")], size, gap=4)

    def _paragraph(self, block: P) -> None:
        runs = ([(block.lead, "hebo")] if block.lead else []) + [(block.text, "helv")]
        self.y = self._lines(runs, BODY_SIZE, gap=8)

    def _lines(self, runs: list[tuple[str, str]], size: float, gap: float) -> float:
        """Wrap word runs (text, font) to the text width; return the y below the last line."""
        words = [(word, font) for text, font in runs for word in text.split()]
        width = WIDTH - 2 * MARGIN
        line: list[tuple[str, str]] = []
        y = self.y + size
        for word, font in words:
            trial = [*line, (word, font)]
            if line and _width(trial, size) > width:
                self._emit(line, y, size)
                y += size * LEADING
                line = [(word, font)]
            else:
                line = trial
        if line:
            self._emit(line, y, size)
        return y + gap + size * (LEADING - 1)

    def _emit(self, line: list[tuple[str, str]], y: float, size: float) -> None:
        x = MARGIN
        for group_text, font in _groups(line):
            self.page.insert_text((x, y), group_text, fontname=font, fontsize=size)
            x += pymupdf.get_text_length(group_text + " ", fontname=font, fontsize=size)

    def _table(self, block: T) -> None:
        self.y += 4
        self.y = self._lines([(block.caption, "hebo")], 10.0, gap=2)
        row_h, size = 20.0, 9.5
        top = self.y
        for r, row in enumerate(block.rows):
            x = MARGIN
            for c, cell in enumerate(row):
                rect = pymupdf.Rect(x, top + r * row_h, x + block.widths[c], top + (r + 1) * row_h)
                fill = (0.9, 0.93, 0.91) if r == 0 else None
                self.page.draw_rect(rect, color=(0.2, 0.2, 0.2), fill=fill, width=0.7)
                font = "hebo" if r == 0 else "helv"
                self.page.insert_text((rect.x0 + 5, rect.y1 - 6), cell, fontname=font, fontsize=size)
                x += block.widths[c]
        self.y = top + len(block.rows) * row_h + 16


def _width(words: list[tuple[str, str]], size: float) -> float:
    return sum(pymupdf.get_text_length(text + " ", fontname=font, fontsize=size) for text, font in _groups(words))


def _groups(words: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Consecutive words in the same font joined into one run."""
    groups: list[tuple[str, str]] = []
    for word, font in words:
        if groups and groups[-1][1] == font:
            groups[-1] = (groups[-1][0] + " " + word, font)
        else:
            groups.append((word, font))
    return groups


def _footer(page: pymupdf.Page, number: int, total: int) -> None:
    y = HEIGHT - 34
    page.draw_line((MARGIN, y - 12), (WIDTH - MARGIN, y - 12), color=(0.6, 0.6, 0.6), width=0.5)
    page.insert_text((MARGIN, y), FOOTER_LEFT, fontname="helv", fontsize=8, color=(0.35, 0.35, 0.35))
    label = f"Page {number} of {total}"
    x = WIDTH - MARGIN - pymupdf.get_text_length(label, fontname="helv", fontsize=8)
    page.insert_text((x, y), label, fontname="helv", fontsize=8, color=(0.35, 0.35, 0.35))


def build_sample_pdf() -> bytes:
    """The sample note as PDF bytes (10 pages, outline, tables, footer); identical on every call."""
    doc = pymupdf.open()
    toc: list[list[int | str]] = []
    for number, blocks in enumerate(PAGES, start=1):
        pen = _Pen(doc.new_page(width=WIDTH, height=HEIGHT), number)
        for block in blocks:
            pen.write(block)
        _footer(pen.page, number, len(PAGES))
        toc.extend(pen.toc)
    doc.set_toc(toc)
    doc.set_metadata({
        "title": "Heron Survey Drones - Technical Note TN-7 (fictional sample)",
        "author": "Loupe sample generator",
        "subject": "Fictional survey-drone technical note for the Loupe demo",
        "creator": "engine.samples", "producer": "PyMuPDF",
        "creationDate": "D:20250101000000Z", "modDate": "D:20250101000000Z",
    })  # fmt: skip
    data = doc.tobytes(garbage=3, deflate=True, no_new_id=True)
    doc.close()
    return data


def sample_doc_id() -> str:
    """The library id (sha256) the sample gets."""
    return hashlib.sha256(build_sample_pdf()).hexdigest()


def ensure_sample(library: DocumentLibrary | None = None) -> LibraryEntry:
    """The sample's library entry, ingesting it first when the library does not hold it yet."""
    from engine.errors import DocumentNotFoundError
    from engine.library import open_library

    library = library or open_library()
    data = build_sample_pdf()
    doc_id = hashlib.sha256(data).hexdigest()
    try:
        return library.get(doc_id)
    except DocumentNotFoundError:
        logger.info("ingesting the bundled sample into %s", library.root)
        return library.ingest(data, SAMPLE_FILE_NAME)


def main(argv: list[str]) -> int:
    """``python -m engine.samples OUT.pdf``: write the sample to OUT.pdf."""
    if len(argv) != 1:
        sys.stderr.write("usage: python -m engine.samples OUT.pdf\n")
        return 2
    out = Path(argv[0])
    out.write_bytes(build_sample_pdf())
    sys.stdout.write(f"{out} ({len(PAGES)} pages)\n")
    return 0
