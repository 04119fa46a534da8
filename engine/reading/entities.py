"""Focus on what the question names: the entity ("Heron 2") and the period ("2018") it asks about.

Documents about a family of products, models or years put siblings side by side: the Heron 2 next to
the Heron 3, FY2018 next to FY2017, a quarter next to its fiscal year. A passage about a sibling must
not lead an answer about the one asked. ``focus_of`` reads what the question names; ``focus_score``
says whether a passage names it (positive), only a sibling of it (negative) or neither (zero).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.reading.periods import YEAR

_NAMED = re.compile(r"\b([A-Z][A-Za-z]{2,})[\s-](\d{1,4}[A-Za-z]?|[IVX]{1,4}|[A-Z])\b(?![-.]?\d)")
"""A name and its variant: "Heron 2", "Model S", "GPT-4", "Pixel 7a", "Watch D"."""
_YEAR = re.compile(rf"\b(?:FY\s?'?)?({YEAR})\b", re.I)
_SKIP_HEADS = frozenset({"Table", "Figure", "Section", "Item", "Note", "Appendix", "Chapter", "Part", "Exhibit",
                         "Page", "Step", "Version", "Form", "Schedule", "Article", "Level", "Phase", "Type"})  # fmt: skip
"""Words a number follows in references and structure ("Table 3", "Form 10"), not product names."""


@dataclass(frozen=True)
class Focus:
    """The entities (name, variant) and years a question names."""

    entities: tuple[tuple[str, str], ...] = ()
    years: tuple[str, ...] = ()

    @property
    def empty(self) -> bool:
        return not self.entities and not self.years


def focus_of(question: str) -> Focus:
    """What ``question`` asks about: named variants ("Heron 2") and years ("FY2018" -> "2018")."""
    entities = tuple(
        dict.fromkeys(
            (m.group(1).lower(), m.group(2).lower()) for m in _NAMED.finditer(question) if m.group(1) not in _SKIP_HEADS
        )
    )
    years = tuple(dict.fromkeys(m.group(1) for m in _YEAR.finditer(question)))
    return Focus(entities=entities, years=years)


def _entity_score(text: str, entities: tuple[tuple[str, str], ...]) -> int:
    found = {(m.group(1).lower(), m.group(2).lower()) for m in _NAMED.finditer(text)}
    if not found or not entities:
        return 0
    if any(e in found for e in entities):
        return 1
    heads = {head for head, _ in entities}
    return -1 if any(head in heads for head, _ in found) else 0


def focus_score(text: str, focus: Focus) -> int:
    """1: ``text`` names what is asked; -1: it names only a sibling (another variant of the same name,
    or other years than the ones asked); 0: neither."""
    entity = _entity_score(text, focus.entities)
    if entity:
        return entity
    if not focus.years:
        return 0
    years = {m.group(1) for m in _YEAR.finditer(text)}
    if not years:
        return 0
    return 1 if years & set(focus.years) else -1
