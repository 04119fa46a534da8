"""Focus on what the question names: the entity ("Heron 2") and the period ("2018") it asks about.

Documents about a family of products, models or years put siblings side by side: the Heron 2 next to
the Heron 3, FY2018 next to FY2017, a quarter next to its fiscal year. A passage about a sibling must
not lead an answer about the one asked. ``focus_of`` reads what the question names; ``focus_score``
says whether a passage names it (positive), only a sibling of it (negative) or neither (zero).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from engine.documents.text import stems
from engine.reading.periods import YEAR
from engine.reading.reporting_terms import REPORTING_TERMS

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


@lru_cache(maxsize=4096)
def _names_in(text: str) -> frozenset[tuple[str, str]]:
    """The (name, variant) pairs a text names. Kept per text, as :func:`_years_in`: a question's passes score
    the same passages again."""
    return frozenset((m.group(1).lower(), m.group(2).lower()) for m in _NAMED.finditer(text))


@lru_cache(maxsize=4096)
def _years_in(text: str) -> frozenset[str]:
    return frozenset(m.group(1) for m in _YEAR.finditer(text))


def _entity_score(text: str, entities: tuple[tuple[str, str], ...]) -> int:
    if not entities:
        return 0
    found = _names_in(text)
    if not found:
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
    years = _years_in(text)
    if not years:
        return 0
    return 1 if years & set(focus.years) else -1


_TITLE_WORD = re.compile(r"(?<![\w'’.])([A-Z][a-z][\w-]*)\b(?!['’]s\b)")
"""A capitalised word that is no acronym ("Zorbex", "Health"), not in the possessive ("Acme's": whose value)."""
_CALENDAR = frozenset(stems(
    "january february march april may june july august september october november december monday tuesday "
    "wednesday thursday friday saturday sunday fiscal year quarter"
))  # fmt: skip
_REPORTING = frozenset(
    w for term in REPORTING_TERMS for w in stems(f"{term.names} {term.search} {term.pattern}".replace(";", " "))
)
"""The words of the reporting vocabulary ("Net Revenues", "Total Assets"): a capitalised metric, not a name."""


def named_words(question: str, ignore: Sequence[str] = ()) -> tuple[str, ...]:
    """The names a question qualifies its metric with ("Zorbex revenue", "net sales of Health Care"): capitalised
    words past its first, outside the calendar, the reporting vocabulary and ``ignore`` (the issuers' names)."""
    skip = _CALENDAR | _REPORTING | {w for name in ignore for w in stems(name)}
    issuers = [name.lower() for name in ignore if len(name) >= 5]  # "BESTBUY" holds "Best" and "Buy"
    first = re.match(r"\s*\S+", question)
    text = _OWNER.sub(lambda m: " " * len(m.group(0)), question)  # "Best Buy's revenue": whose, not which
    found = [
        m.group(1).lower() for m in _TITLE_WORD.finditer(text)
        if (first is None or m.start() >= first.end()) and not stems(m.group(1)) & skip
        and not any(m.group(1).lower() in issuer for issuer in issuers)
    ]  # fmt: skip
    found += [m.group(1).lower() for m in _PART_ACRONYM.finditer(text) if not stems(m.group(1)) & skip]
    found += [  # "AWS's margin" in the issuer's filing: an acronym owner that is not the issuer is one of its parts
        m.group(1).lower() for m in _OWNER.finditer(question)
        if _ACRONYM.fullmatch(m.group(1)) and not stems(m.group(1)) & skip
        and not any(m.group(1).lower() in issuer for issuer in issuers)
    ]  # fmt: skip
    return tuple(dict.fromkeys(found))


_ACRONYM = re.compile(r"[A-Z]{2,6}")
"""A name in capitals only ("AWS", "EMEA")."""


_PART_ACRONYM = re.compile(r"\b([A-Z][A-Z&]{1,6})\s+(?:segment|division|business|unit|region|brand|group)s?\b")
"""An acronym that names a part of the company ("the ZBX segment", "the EMEA region"): capitals are skipped as
names elsewhere (a metric, "EBITDA"; a unit, "USD"), but a metric or a unit is never followed by "segment"."""


_OWNER = re.compile(r"\b((?:[A-Z0-9][\w&.\-]*\s+){0,3}[A-Z0-9][\w&.\-]*)['’]s\b")
"""A capitalised name in the possessive ("Best Buy's", "3M's"): whose value, not which."""


def owner_names(question: str) -> list[str]:
    """The names a question puts in the possessive, in order ("Was Acme's capex above Zenith's?" -> Acme, Zenith)."""
    return [m.group(1) for m in _OWNER.finditer(question)]


def owners(question: str) -> set[str]:
    """The stems of the names a question puts in the possessive ("Best Buy's revenue" -> best, buy)."""
    return {w for name in owner_names(question) for w in stems(name)}


def names_all(text: str, named: Sequence[str]) -> bool:
    """Whether ``text`` names every one of ``named``. A model printed with a placeholder for its variants
    ("K90-XX", "K7-xx") names the model ("K90")."""
    held = with_models(stems(text))
    return all(stems(word) <= held for word in named)


def with_models(words: set[str]) -> set[str]:
    """``words`` (stems) and the model each names with a placeholder for its variants ("k90-xx": "k90")."""
    return words | {w.rsplit("-", 1)[0] for w in words if _PLACEHOLDER.fullmatch(w)}


_PLACEHOLDER = re.compile(r"[a-z0-9]*\d[a-z0-9]*-x+")
"""A model designation closed by a run of x's standing for its variants' suffixes ("k90-xx")."""


_CLAUSE_BREAK = re.compile(
    r",\s*(?:which|while|whereas|compared|but)\b|;|\bcompared\s+(?:to|with)\b|\bthan\b|"
    r"\b(?:well|far|just|slightly)\s+(?:below|above|behind|ahead\s+of|short\s+of)\b|\b(?:versus|vs\.?)(?=\s)",
    re.I,
)
"""Where a sentence passes from one clause to the next: "A reaches 70%, which improves B by 8 points" states A's
value; B is named in another clause; so is C in "A scores 8.6, well below C" or "A (8.6) versus C"."""
_IDENTIFIER = re.compile(r"\b(?=[\w.-]*(?:\d|[a-z][A-Z]|[A-Z]{2}))[A-Za-z][\w.-]*[\w]")
"""A name written as an identifier: with a digit or capitals inside ("GPT-4", "PaLM-2L", "RoBERTa", "BERT")."""


def own_clause(sentence: str, position: int) -> str:
    """The clause of ``sentence`` that holds the character at ``position`` (the whole sentence when no break)."""
    start, end = 0, len(sentence)
    for m in _CLAUSE_BREAK.finditer(sentence):
        if m.end() <= position:
            start = m.end()
        elif m.start() > position:
            end = m.start()
            break
    return sentence[start:end]


def identifier_names(question: str) -> tuple[str, ...]:
    """The names ``question`` writes as identifiers ("GPT-4", "PaLM-2L", "RoBERTa"), each once."""
    return tuple(dict.fromkeys(m.group(0) for m in _IDENTIFIER.finditer(question) if not m.group(0).isdigit()))


def named_in_another_clause(names: Sequence[str], sentence: str, position: int) -> list[str]:
    """Those of ``names`` (``identifier_names``) that ``sentence`` names only outside the clause of its number at
    ``position``: the number is another thing's ("X reaches 70%, which beats GPT-4 by 8 points")."""
    clause = own_clause(sentence, position)
    return [name for name in names if _mentions(name, sentence) and not _names_alone(name, clause)]


def _mentions(name: str, sentence: str) -> bool:
    """Whether ``sentence`` mentions ``name`` other than to exclude it: "non-Acme parts" are everything but Acme."""
    return re.search(rf"(?<!\bnon-){re.escape(name)}", sentence, re.I) is not None


def _names_alone(name: str, text: str) -> bool:
    """Whether ``text`` names ``name`` itself, not only a longer name that holds it: "Lynx-7" in "the Lynx-7
    model", but not in "Lynx-7+Aux" or "Lynx-7b" (a variant is another thing), nor "BERT" in "RoBERTa"."""
    return re.search(rf"(?<![\w+.-]){re.escape(name)}(?![\w+]|[-.]\w)", text, re.I) is not None
