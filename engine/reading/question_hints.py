"""Where a question points: a table or a figure, from its references and its words. Pure."""

from __future__ import annotations

import re

from engine.contracts import LayoutHint
from engine.documents.text import split_reference
from engine.reading.periods import YEAR

YEARISH = re.compile(rf"\b(?:FY|Q[1-4])?\s?{YEAR}\b")
"""A period a question names: "2019", "FY2021", "Q3 2020"."""
_TABLE_CUES = re.compile(
    r"\btables?\b|\btabulated\b|\bbalance sheets?\b|\bcash flows?\b|\bincome statements?\b|"
    r"\bstatements? of (?:operations|income|cash|financial|comprehensive)|\bfinancial statements?\b|"
    r"\bin (?:usd|eur|gbp|us\$|\$) ?(?:millions?|billions?|thousands?)\b|\(in (?:millions|billions|thousands)\)|"
    r"\bbreakdown\b|\bper (?:segment|quarter|station|region|country)\b|"
    r"\bwhere (?:do|does|did|is|are|were|was)\b.*\b(?:show|shown|report|reported|present|presented|list|listed)\b",
    re.I,
)
_MEASURE_CUES = re.compile(r"\bhow much\b|\bwhat (?:is|was|were|are) the (?:percentage|share|ratio|rate)\b|"
                           r"\bwhat percentage\b|\bpercent(?:age)?\b", re.I)  # fmt: skip
_FIGURE_CUES = re.compile(r"\bfig(?:ure)?s?\b|\bcharts?\b|\bgraphs?\b|\bplots?\b|\bdiagrams?\b|\billustrat", re.I)


def layout_hint(question: str, references: tuple[str, ...]) -> LayoutHint | None:
    """``table`` or ``figure`` when the question points at one (explicit references win)."""
    kinds = [split_reference(r)[0] for r in references]
    if "Table" in kinds:
        return "table"
    if "Figure" in kinds:
        return "figure"
    if _TABLE_CUES.search(question):
        return "table"
    if _FIGURE_CUES.search(question):
        return "figure"
    if _MEASURE_CUES.search(question) and (
        YEARISH.search(question) or re.search(r"\$|usd|million|billion", question, re.I)
    ):
        return "table"
    return None
