"""The text of the bundled sample document (``engine.samples`` lays it out): one tuple of blocks per page.

All prose is original and fictional: two survey drones (Heron 2 and Heron 3) on a lake programme.
"""

from __future__ import annotations

from dataclasses import dataclass


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
