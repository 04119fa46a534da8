"""What a "how long / how far / how heavy" question measures, and whether a number is of that kind.

"How long did the run take?" asks for a time: of "trained for 300,000 steps (3.5 days)" the answer is
the 3.5 days, not the step count. The units here are the ones ``table_values.NUMBER`` reads after a number
(its ``measure``); each measures one dimension, or counts things.
"""

from __future__ import annotations

import re
from typing import Literal

from engine.documents.text import stems

Dimension = Literal[
    "time",
    "length",
    "mass",
    "speed",
    "data",
    "energy",
    "power",
    "voltage",
    "light",
    "frequency",
    "temperature",
    "pressure",
]

_UNITS: dict[Dimension, tuple[str, ...]] = {
    "time": ("minute", "minutes", "min", "hour", "hours", "hr", "hrs", "second", "seconds", "sec", "ms", "day", "days",
             "week", "weeks", "month", "months", "year", "years"),
    "length": ("kilometre", "kilometres", "kilometer", "kilometers", "km", "metre", "metres", "meter", "meters",
               "centimetre", "centimetres", "centimeter", "centimeters", "cm", "millimetre", "millimetres",
               "millimeter", "millimeters", "mm", "mile", "miles", "ft", "inches"),
    "mass": ("kilogram", "kilograms", "kg", "gram", "grams", "g", "mg", "lb", "lbs", "oz", "tonne", "tonnes"),
    "speed": ("km/h", "mph", "m/s"),
    "data": ("gb", "mb", "kb", "tb"),
    "energy": ("mah", "wh", "kwh"),
    "power": ("W", "watt", "watts", "kw"),  # a device's rating on its specification sheet ("150W", "2 kW")
    "voltage": ("V", "volt", "volts"),
    "light": ("lm", "lumen", "lumens", "nits", "cd/m²", "cd/m2"),  # a lamp's output, a screen's brightness
    "frequency": ("hz", "ghz", "mhz"),
    "temperature": ("°c", "°f"),
    "pressure": ("Pa", "kPa", "MPa", "hPa", "bar", "psi", "mmHg"),  # a water inlet's, a tyre's, a cuff's pressure
}  # fmt: skip
"""Each unit documents print after a number, by the dimension it measures. A one-letter unit is read only in the
case SI prints it ("310 g", "150 W", "24 V"): "5G" names a network, not five grams."""
_DIMENSION_OF = {unit.lower(): dim for dim, units in _UNITS.items() for unit in units}
COUNTED_UNITS = ("times", "people", "employees", "stores", "units", "shares", "points", "bps", "basis points", "cps",
                 "cents")  # fmt: skip
"""Words printed after a number that count things ("5,000 employees", "25 basis points"): no dimension."""
UNITS_AFTER_NUMBER = (*(unit for units in _UNITS.values() for unit in units), *COUNTED_UNITS)
"""Every word ``table_values.NUMBER`` reads after a number as what it measures or counts (its ``measure``)."""

_ASKED: dict[str, tuple[Dimension, ...]] = {
    "long": ("time", "length"),  # "how long did it take" or "how long is the cable"
    "far": ("length",),
    "tall": ("length",),
    "high": ("length",),
    "wide": ("length",),
    "heavy": ("mass",),
    "fast": ("speed",),
    "old": ("time",),
}
"""The dimensions each "how <adjective>" asks for; "how big / how large" may ask for any, so neither is here."""

_NOUNS: dict[str, tuple[Dimension, ...]] = {
    "temperature": ("temperature",),
    "clearance": ("length",),
    "distance": ("length",),
    "length": ("length",),
    "width": ("length",),
    "height": ("length",),
    "depth": ("length",),
    "thickness": ("length",),
    "diameter": ("length",),
    "weight": ("mass",),
    "duration": ("time",),
    "speed": ("speed",),
    "frequency": ("frequency",),
    "brightness": ("light",),
    "luminance": ("light",),
    "voltage": ("voltage",),
    "wattage": ("power",),
    "pressure": ("pressure",),
}
"""Nouns that name a physical quantity, by the dimension a number answering for it is in ("What clearance
is required behind the unit?" asks for a length). Words that also name amounts or counts ("size",
"capacity", "range") are not here: their answer may be in any unit."""

_QUANTITY_NOUN = rf"({'|'.join(_NOUNS)})s?\b(?!\s+(?:setting|settings|sensor|sensors|unit|units|mode|modes)\b)"
"""A noun of ``_NOUNS`` naming the quantity asked; one naming a control or a part ("the temperature setting", "the
speed sensor") is no quantity asked."""

MEASURE_HEAD = re.compile(
    rf"^\s*(?:what|which)\s+(?:(?:is|was|are|were)\s+)?(?:the\s+)?(?:[a-z\-]+\s+){{0,2}}?{_QUANTITY_NOUN}", re.I
)
"""A question whose head names a quantity ("What ambient temperature range is allowed?", "What is the
minimum clearance at the sides?"): it asks for a measure, not for a passage."""

MEASURE_AFTER_PREPOSITION = re.compile(
    rf"\b(?:above|below|over|under|at|to|from|beyond|within)\s+(?:what|which)\s+(?:[a-z\-]+\s+){{0,2}}?{_QUANTITY_NOUN}",
    re.I,
)
"""A quantity asked behind a preposition ("Above what pressure should the strap be loosened?", "At what
temperature does it stop?"): a measure asked as much as one heading the question."""

HOW_MEASURE = re.compile(r"\bhow\s+(long|far|big|tall|high|heavy|fast|old|large|wide)\b", re.I)
"""'How long', 'how far', 'how heavy' ask for a measure: the adjective names no line item."""

_DURATION_VERBS = frozenset({"take", "last"})
"""'How long does a battery swap take', 'how long does the battery last': the verb measures the time."""

FIT_BONUS = 0.5
"""A number in the dimension asked ("3.5 days" for "how long"): the kind of answer asked, over the
sentence's other numbers."""
MISFIT_PENALTY = 0.5
"""A number in no unit, or in another dimension ("300,000 steps", "64 GB" for "how long"): a count or
another measure, which does not answer a question asking for a measure."""


def dimension_of(measure: str) -> Dimension | None:
    """The dimension of a unit ("days" -> "time"), None for a count or no unit."""
    return _DIMENSION_OF.get(measure.strip().lower())


def dimensions_asked(question: str) -> tuple[Dimension, ...]:
    """The dimensions a "how <adjective>" question asks for ("How long does it take?" -> time, length), or a
    question whose head names a quantity ("What clearance ...?" -> length)."""
    asked: list[Dimension] = []
    for m in HOW_MEASURE.finditer(question):
        asked += [d for d in _ASKED.get(m.group(1).lower(), ()) if d not in asked]
    head = MEASURE_HEAD.match(question) or MEASURE_AFTER_PREPOSITION.search(question)
    if head:
        asked += [d for d in _NOUNS[head.group(1).lower()] if d not in asked]
    return tuple(asked)


def measure_words(question: str) -> set[str]:
    """The stems of the words that ask for a measure ("how long ... take"), not for a line item."""
    asked = {m.group(1).lower() for m in HOW_MEASURE.finditer(question)}
    return stems(" ".join(asked | (set(_DURATION_VERBS) if "long" in asked else set())))


ROW_MISFIT = 0.3
"""A table row whose label, column header and caption print no unit at all, for a question asking a measure: its
figure is a score or a count ("BLEU 28.4" for how long a step took), though a row's unit may be unprinted."""


def measure_fit(asked: tuple[Dimension, ...], measure: str, is_row: bool, header: str = "") -> float:
    """A score adjustment for a number read for a question asking ``asked``: a bonus when its unit is of
    an asked dimension, a penalty for a sentence's number in no unit or another one. A table row's unit
    is often in its header (``header``: its label, column and caption), not after the number: a row is rewarded
    for a unit of the dimension asked there, and only slightly penalised when its header prints no unit at all."""
    if not asked:
        return 0.0
    dimension = dimension_of(measure)
    if dimension in asked:
        return FIT_BONUS
    if not is_row:
        return -MISFIT_PENALTY
    printed = {dimension_of(word) for word in re.findall(r"[A-Za-z]+", header)} - {None}
    if printed & set(asked):
        return FIT_BONUS
    return -ROW_MISFIT if not printed else 0.0


__all__ = [
    "COUNTED_UNITS",
    "HOW_MEASURE",
    "MEASURE_AFTER_PREPOSITION",
    "MEASURE_HEAD",
    "UNITS_AFTER_NUMBER",
    "Dimension",
    "dimension_of",
    "dimensions_asked",
    "measure_fit",
    "measure_words",
]
