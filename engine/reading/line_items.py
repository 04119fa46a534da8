"""What financial statements call a line item that questions name in analysts' shorthand, and the textbook
definitions of metrics computed from line items.

Both are read from the one table of reporting terms (``reporting_terms``), which question reading uses too:
a term's ``names`` are the row labels filings use for the very same quantity (synonyms only, never
components: "EBITDA" is not "operating income"); the value brick reads a row whose label is one of them as
naming the metric. No entry exists for a particular document or question.
"""

from __future__ import annotations

import re

from engine.reading.reporting_terms import REPORTING_TERMS, split_words

_COMPILED = tuple((re.compile(term.pattern, re.I), split_words(term.names)) for term in REPORTING_TERMS if term.names)
"""(question term, the row labels filings use for the very same quantity), from the one table of terms."""


_ANY_TERM = tuple(re.compile(term.pattern, re.I) for term in REPORTING_TERMS if term.names or term.definition)


def names_reporting_term(text: str) -> bool:
    """Whether ``text`` names a line item or a metric computed from line items ("EBITDA", "net PP&E")."""
    return any(pattern.search(text) for pattern in _ANY_TERM)


_BALANCES = tuple(
    re.compile(term.pattern, re.I) for term in REPORTING_TERMS if term.names and term.statements == ("balance sheet",)
)


def names_balance(text: str) -> bool:
    """Whether ``text`` names a balance-sheet line item (an amount held at a date: inventories, receivables)."""
    return any(pattern.search(text) for pattern in _BALANCES)


def line_item_triggers(text: str) -> tuple[str, ...]:
    """The words of ``text`` that name a line item with other names ("sales" of "comparable sales")."""
    return tuple(m.group(0) for pattern, _ in _COMPILED for m in pattern.finditer(text))


def line_item_names(text: str) -> tuple[str, ...]:
    """The row labels filings use for the metrics ``text`` names, but not a balance a flow moves: "purchases of
    property, plant and equipment" asks the purchases, not the property's balance ("Property, plant and equipment,
    net")."""
    found: dict[str, None] = {}
    for pattern, labels in _COMPILED:
        named = pattern.search(text)
        if named and not _FLOW_OF.search(text[: named.start()]):
            found.update(dict.fromkeys(labels))
    return tuple(found)


_FLOW_OF = re.compile(
    r"\b(?:purchases?|additions?|payments?|sales?|disposals?|proceeds from(?: the)? sales?|acquisitions?|"
    r"depreciation|impairments?|write-?downs?|amortization)\s+(?:of|to|for|on)\s+(?:the\s+|its\s+)?$",
    re.I,
)
"""What flows in or out of a balance ("purchases of", "additions to", "depreciation of"): the line item named right
after it is the thing the flow moves, not the figure asked."""


_STANDARD_COMPILED = tuple(
    (re.compile(term.pattern, re.I), term.definition) for term in REPORTING_TERMS if term.definition
)
"""(the metric a question names, its textbook definition in line items), from the one table of terms."""


_COMPANY_DEFINED = re.compile(r"\b(?<!un)adjusted\b|\bnon-?gaap\b|\bcore\b|\borganic\b|\bunderlying\b", re.I)
"""Measures a company defines for itself ("adjusted EBITDA", "non-GAAP", "core EPS"): read as reported,
never computed from a textbook definition."""


def company_defined(text: str) -> bool:
    """Whether ``text`` names a measure the company defines for itself ("adjusted EBIT", "core EPS")."""
    return bool(_COMPANY_DEFINED.search(text))


def standard_definition(text: str) -> str | None:
    """The textbook definition of the first standard metric ``text`` names, in line items, else None."""
    if company_defined(text):
        return None
    for pattern, definition in _STANDARD_COMPILED:
        named = pattern.search(text)
        if named:
            return None if _QUALIFIER.match(text[named.end() :]) else definition
    return None


_OTHER_COMPILED = tuple((re.compile(term.pattern, re.I), term.other) for term in REPORTING_TERMS if term.other)
_VARIANT_COMPILED = tuple((re.compile(term.pattern, re.I), term.variant) for term in REPORTING_TERMS if term.variant)


def other_definitions(text: str) -> tuple[str, ...]:
    """The other textbook definitions of the first standard metric ``text`` names that has some, else (): the
    same quantity from other line items, then the other measures of the same name."""
    return _first_listed(text, _OTHER_COMPILED) + variant_definitions(text)


def variant_definitions(text: str) -> tuple[str, ...]:
    """The other measures textbooks give the name of the first standard metric ``text`` names, else ()."""
    return _first_listed(text, _VARIANT_COMPILED)


def _first_listed(text: str, table: tuple[tuple[re.Pattern[str], str], ...]) -> tuple[str, ...]:
    if company_defined(text) or standard_definition(text) is None:
        return ()
    return next((tuple(listed.split(" | ")) for pattern, listed in table if pattern.search(text)), ())


_QUALIFIER = re.compile(r"\s*(?:before|after|excluding|ex\b|net of|adjusted for)\b", re.I)
"""A metric qualified right after its name ("Operating Profit Margin Before Depreciation", "free cash flow
after dividends") is not the textbook metric: its definition would compute another measure."""
