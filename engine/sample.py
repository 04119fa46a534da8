"""The bundled sample document: a fictional technical note, written by this module with PyMuPDF.

The note compares two fictional survey drones (Heron 2 and Heron 3) and is built to exercise every
pattern of the engine: an outline with numbered sections, a heading at the foot of a page whose body
is on the next page, grid tables with captions (Table 3 is referenced from page 1 and printed on a
later page), an enumeration with a count cue whose third item lives in another section, two versions
of one thing specified on different pages, and a running footer with page numbers.

All prose is original. ``build_sample_pdf`` is deterministic (same bytes on every call).

Run ``python -m engine.sample OUT.pdf`` to write the file.
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

if TYPE_CHECKING:
    from engine.library import Library

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
# Content: one list of blocks per page
# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class H:
    """A heading (level 1 or 2); ``foot=True`` places it at the bottom of the page."""

    text: str
    level: int = 1
    foot: bool = False


@dataclass(frozen=True)
class P:
    """A paragraph; ``lead`` is a bold run-in header printed before the text on the same line."""

    text: str
    lead: str | None = None


@dataclass(frozen=True)
class T:
    """A grid table with a caption above it; the first row is the header."""

    caption: str
    rows: tuple[tuple[str, ...], ...]
    widths: tuple[float, ...]


@dataclass(frozen=True)
class Title:
    """The title block of page 1."""

    title: str
    subtitle: str
    byline: str


Block = H | P | T | Title

PAGES: tuple[tuple[Block, ...], ...] = (
    (  # page 1
        Title(
            "Heron Survey Drones",
            "Technical Note TN-7: the Heron 2 and Heron 3 platforms on the Calder Lake water-quality programme",
            "Calder Lake Monitoring Office (a fictional office; sample document generated for the Loupe demo)",
        ),
        H("1 Introduction"),
        P(
            "The Calder Lake Monitoring Office flies small survey drones over the lake and its feeder streams to "
            "sample water quality without sending a boat out. This note describes the two platforms in service, "
            "the older Heron 2 and its successor the Heron 3, explains how the survey flights are run and reports "
            "what one season of flights measured. The measured results are in Table 3, which sets the two "
            "platforms side by side."
        ),
        H("1.1 Purpose", 2),
        P(
            "The note supports a procurement decision: whether the office should retire its remaining Heron 2 "
            "aircraft in the coming year. Readers who only need the outcome can go straight to Section 8, which "
            "states the recommendation and the reasons behind it."
        ),
        H("1.2 Scope", 2),
        P(
            "The note covers the airframes, the sensor suite, the field procedures, the measured results and the "
            "running costs. It does not cover pilot training, which the office documents separately, nor the data "
            "pipeline that turns sensor logs into the public water-quality map."
        ),
    ),
    (  # page 2
        H("2 The Heron 2 platform"),
        H("2.1 Airframe", 2),
        P(
            "The Heron 2 entered service in 2021. It is a fixed-wing aircraft with a wingspan of 1.9 metres and a "
            "take-off mass of 4.1 kilograms. Crews launch it by hand and recover it by belly landing on grass near "
            "the shore. A single electric motor draws from a six-cell lithium-polymer battery pack."
        ),
        H("2.2 Specification", 2),
        P(
            "On a still day the Heron 2 reaches a flight endurance of 38 minutes at a cruise speed of 54 kilometres "
            "per hour. It carries a maximum payload of 1.2 kilograms, which is enough for two sensor pods at once "
            "but not for the full suite. Its radio link holds to 6 kilometres over open water. Table 1 lists the "
            "specification in one place."
        ),
    ),
    (  # page 3
        H("2.3 Limitations in service", 2),
        P(
            "Crews found the Heron 2 hard to hold steady in gusts above 30 kilometres per hour, and its battery bay "
            "has to be opened with a screwdriver, which stretches the turnaround between flights to about 25 "
            "minutes. Spare airframes have become difficult to source since the manufacturer moved its production "
            "to the newer model."
        ),
        T(
            "Table 1: Heron 2 specification",
            (
                ("Property", "Heron 2"),
                ("Flight endurance", "38 min"),
                ("Cruise speed", "54 km/h"),
                ("Maximum payload", "1.2 kg"),
                ("Radio range", "6 km"),
                ("Take-off mass", "4.1 kg"),
                ("Battery swap", "about 25 min"),
            ),
            (200.0, 140.0),
        ),
    ),
    (  # page 4
        H("3 The Heron 3 platform"),
        H("3.1 Airframe", 2),
        P(
            "The Heron 3 was introduced in 2024 as the direct successor of the Heron 2. It keeps the fixed-wing "
            "layout but stretches the wingspan to 2.3 metres and adds a quick-release battery hatch, so a crew can "
            "swap packs in under 5 minutes. The take-off mass rises to 4.6 kilograms."
        ),
        H("3.2 Specification", 2),
        P(
            "The Heron 3 reaches a flight endurance of 52 minutes at a cruise speed of 58 kilometres per hour. Its "
            "maximum payload is 1.8 kilograms, so it can carry the full sensor suite on a single flight. The "
            "upgraded radio link holds to 10 kilometres over open water. Table 2 lists the specification."
        ),
        T(
            "Table 2: Heron 3 specification",
            (
                ("Property", "Heron 3"),
                ("Flight endurance", "52 min"),
                ("Cruise speed", "58 km/h"),
                ("Maximum payload", "1.8 kg"),
                ("Radio range", "10 km"),
                ("Take-off mass", "4.6 kg"),
                ("Battery swap", "under 5 min"),
            ),
            (200.0, 140.0),
        ),
        H("4 Sensor suite", 1, foot=True),
    ),
    (  # page 5
        P(
            "We use three kinds of sensors on the survey flights. Each kind is a self-contained pod that clips "
            "under the wing, logs to its own memory card and reports its health to the ground station."
        ),
        P(
            "A weighted optical probe lowered on a three-metre tether while the aircraft loiters above a sampling "
            "station. It measures turbidity in nephelometric turbidity units (NTU) and takes ten readings per "
            "station.",
            lead="Turbidity probe.",
        ),
        P(
            "A downward-looking long-wave infrared camera that maps surface water temperature along the flight "
            "line. It is calibrated against a floating reference buoy before every flight.",
            lead="Thermal camera.",
        ),
        H("4.1 Pod mounting", 2),
        P(
            "Pods share one mounting rail and one power connector, so any pod fits either aircraft. The Heron 2 can "
            "lift at most two pods, which is why its flights are split between water-sampling runs and separate "
            "mapping passes. The third sensor kind is described with the mapping passes in Section 5.2."
        ),
    ),
    (  # page 6
        H("5 Field campaign"),
        H("5.1 Flight plan", 2),
        P(
            "The 2025 season ran from April to September. Crews flew 64 survey flights over twelve sampling "
            "stations spread along the eastern shore and the two feeder streams. Each station was visited by both "
            "platforms within the same week, so that the results of the two aircraft can be compared fairly."
        ),
        H("5.2 Mapping passes", 2),
        P(
            "A four-band imager (green, red, red-edge and near-infrared) used to estimate chlorophyll and to spot "
            "early algal blooms. It is the heaviest pod, so the Heron 2 flies it alone on dedicated mapping passes, "
            "while the Heron 3 carries it alongside the probe and the camera.",
            lead="Multispectral imager.",
        ),
    ),
    (  # page 7
        H("6 Results"),
        H("6.1 Data quality", 2),
        P(
            "Of the 64 flights, three were cut short by sensor faults and their readings were discarded. The "
            "remaining flights produced complete logs. Readings from the turbidity probe were checked against "
            "bottle samples taken by boat at four stations and agreed within the probe's stated accuracy."
        ),
        H("6.2 How the platforms compare", 2),
        P(
            "Both aircraft saw the same lake: the differences lie in how much ground each flight could cover and "
            "how often a flight had to be repeated. The measured values per platform are collected in Table 3 on "
            "the next page."
        ),
    ),
    (  # page 8
        T(
            "Table 3: Measured survey results by platform, 2025 season",
            (
                ("Measure", "Heron 2", "Heron 3"),
                ("Flights flown", "30", "34"),
                ("Stations covered per flight", "2.1", "3.4"),
                ("Mean turbidity (NTU)", "4.8", "4.6"),
                ("Mean surface temperature (deg C)", "17.2", "17.4"),
                ("Mean time aloft (min)", "35", "49"),
                ("Flights cut short by faults", "2", "1"),
            ),
            (210.0, 110.0, 110.0),
        ),
        P(
            "Readings taken by the two aircraft at the same stations in the same week agree within the accuracy of "
            "the pods. The newer aircraft covers more stations on each flight and loses fewer flights to faults."
        ),
    ),
    (  # page 9
        H("7 Maintenance and costs"),
        H("7.1 Servicing", 2),
        P(
            "Both aircraft are inspected after every ten flight hours. The Heron 3 needs a new propeller roughly "
            "twice as often as the Heron 2 because of its higher cruise speed, but its motor mount has not needed "
            "any repair during the season."
        ),
        H("7.2 Running costs", 2),
        P(
            "Counting parts, batteries and servicing time, one flight hour costs 41 euros on the Heron 2 and 33 "
            "euros on the Heron 3. The difference comes mostly from battery wear: the Heron 3 pack is larger and "
            "goes through fewer deep discharge cycles per survey."
        ),
    ),
    (  # page 10
        H("8 Conclusions and recommendation"),
        P(
            "The Heron 3 flies longer, carries the full sensor suite in one flight, turns around faster between "
            "flights and costs less per flight hour. The office therefore recommends retiring the remaining Heron 2 "
            "aircraft at the end of the 2026 season and keeping one of them as a training airframe."
        ),
        H("8.1 Open questions", 2),
        P(
            "Two questions remain for the next note: whether the tether of the turbidity probe can be lengthened "
            "for the deeper northern basin, and whether the multispectral imager should fly on every survey flight "
            "now that the Heron 3 can lift it together with the other pods."
        ),
    ),
)


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
        "creator": "engine.sample", "producer": "PyMuPDF",
        "creationDate": "D:20250101000000Z", "modDate": "D:20250101000000Z",
    })  # fmt: skip
    data = doc.tobytes(garbage=3, deflate=True, no_new_id=True)
    doc.close()
    return data


def sample_doc_id() -> str:
    """The library id (sha256) the sample gets."""
    return hashlib.sha256(build_sample_pdf()).hexdigest()


def ensure_sample(library: Library | None = None) -> LibraryEntry:
    """The sample's library entry, ingesting it first when the library does not hold it yet."""
    from engine.errors import DocumentNotFoundError
    from engine.library import Library

    library = library or Library()
    data = build_sample_pdf()
    doc_id = hashlib.sha256(data).hexdigest()
    try:
        return library.get(doc_id)
    except DocumentNotFoundError:
        logger.info("ingesting the bundled sample into %s", library.root)
        return library.ingest(data, SAMPLE_FILE_NAME)


def main(argv: list[str]) -> int:
    """``python -m engine.sample OUT.pdf``: write the sample to OUT.pdf."""
    if len(argv) != 1:
        sys.stderr.write("usage: python -m engine.sample OUT.pdf\n")
        return 2
    out = Path(argv[0])
    out.write_bytes(build_sample_pdf())
    sys.stdout.write(f"{out} ({len(PAGES)} pages)\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
