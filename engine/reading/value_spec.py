"""What a value question asks for: the metric's terms (its keywords without periods, names, asking and framing
words), the periods and scale asked, the names that qualify the metric. Pure."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from engine.documents.text import find_references, stems
from engine.reading.brackets import brackets_in
from engine.reading.entities import focus_of, named_words, owners
from engine.reading.line_items import line_item_triggers
from engine.reading.measures import measure_words
from engine.reading.metric_words import ASKING_STEMS, condition_words, frame_words
from engine.reading.periods import Period, period_words, periods_in
from engine.reading.value_asks import topic_prefix
from engine.reading.value_scoring import MOVED, basis_restated, wanted_scale

_STATEMENTS = (
    (re.compile(r"\bcash flows?\b", re.I), re.compile(r"\bstatements? of (?:consolidated )?cash flows?\b", re.I)),
    (re.compile(r"\bincome statement\b|\bstatements? of (?:income|operations|earnings)\b|\bp&l\b", re.I),
     re.compile(r"\bstatements? of (?:consolidated )?(?:income|operations|earnings)\b", re.I)),
    (re.compile(r"\bbalance sheets?\b|\bstatements? of financial position\b", re.I),
     re.compile(r"\bbalance sheets?\b|\bstatements? of financial position\b", re.I)),
)  # fmt: skip
"""How a question names a primary financial statement, and how the statement's own title reads."""


@dataclass(frozen=True)
class ValueSpec:
    """What a value question asks for."""

    terms: tuple[frozenset[str], ...]
    """Stems of each metric term the question uses."""
    alternatives: tuple[frozenset[str], ...]
    """Stems of each document phrase for the metric ("purchases of property and equipment")."""
    periods: tuple[Period, ...]
    wanted_scale: str
    """"thousand", "million", "billion" when the question names the scale of its answer, else ""."""
    question: str = ""
    named: tuple[str, ...] = ()
    """Names the question qualifies its metric with ("Zorbex revenue"): a value of the thing named names it."""
    triggers: frozenset[str] = frozenset()
    """Stems of the question's words the document phrases translate ("sales" of "comparable sales")."""
    sources: str = ""
    """Where the whole question says to read (an input's spec keeps the question's "as the balance sheet
    shows"); empty: the question itself."""

    @property
    def statements_named(self) -> tuple[re.Pattern[str], ...]:
        """The titles of the financial statements the question says to read from."""
        text = self.sources or self.question
        return tuple(title for asked, title in _STATEMENTS if asked.search(text))

    @property
    def is_empty(self) -> bool:
        return not self.terms and not self.alternatives


def _dropped_parts(stem: str, drop: set[str]) -> bool:
    """A hyphenated word all of whose parts are dropped words ("year-end" of "year" and "end")."""
    parts = [p for p in stem.split("-") if p]
    return len(parts) > 1 and all(stems(p) <= drop for p in parts)


RANKED_METRIC = re.compile(r"[A-Za-z]@\d")
"""A metric cut off at a rank ("Recall@50", "Hits@10"): its number names which column, it is no period or value."""


def value_spec(
    question: str, keywords: Sequence[str], alternatives: Sequence[str], entity_words: Sequence[str] = ()
) -> ValueSpec:
    """The spec of ``question``: metric terms from its keywords minus periods, entity and asking words."""
    topic = topic_prefix(question)  # "In the 2031 survey report, what ...": where to read, not what
    asked = question[len(topic) :]
    periods = periods_in(asked)  # the report's year is no period asked
    named = {head for head, _ in focus_of(question).entities}  # "Heron" of "the Heron 2": who, not what
    references = {w for ref in find_references(question) for w in stems(ref)}  # "Table 3": where, not what
    drop = {str(p.year) for p in periods} | {w for e in entity_words for w in stems(e)} | ASKING_STEMS
    drop |= named | references | owners(question) | measure_words(question) | basis_restated(question)
    drop |= period_words(question)  # "three months ended July 29": the period asked, read from the column
    drop |= condition_words(question) | frame_words(asked)
    drop |= stems(topic) - stems(asked)
    drop |= {w for bracket in brackets_in(question) for w in stems(bracket)}  # a bracket names a row, read whole
    joined = {re.sub(r"\W", "", e).lower() for e in entity_words}
    terms = []
    for keyword in keywords:
        if MOVED.fullmatch(keyword.strip()) or re.sub(r"\W", "", keyword).lower() in joined:
            continue  # a name written apart that a file name runs together ("Best Buy", "BESTBUY_2031_10K"): who
        if keyword[:1].isupper() and len(keyword) >= 4 and any(keyword.lower() in name for name in joined):
            continue  # a capitalised part of such a name ("Harbour" of "North Harbour", "NORTHHARBOUR_2031_10K")
        ranked = RANKED_METRIC.search(keyword) is not None
        kept = frozenset(s for s in stems(keyword) if s not in drop and (ranked or not re.fullmatch(r"(?:fy)?[\d.,-]+", s))
                         and not _dropped_parts(s, drop))  # fmt: skip
        if kept and kept not in terms:
            terms.append(kept)
    alts = [frozenset(stems(a)) for a in alternatives if stems(a)]
    return ValueSpec(
        terms=tuple(terms),
        alternatives=tuple(alts),
        periods=periods,
        wanted_scale=wanted_scale(question),
        question=question,
        named=named_words(asked, entity_words),  # "In the Kestrel paper, ...": where to read, no name asked
        triggers=frozenset(w for trigger in line_item_triggers(question) for w in stems(trigger)),
    )
