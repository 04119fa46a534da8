"""Domain vocabulary the offline backend knows: what a term is called in the documents that hold it.

A question says "capex", "quick ratio" or "P&L"; a filing says "purchases of property and equipment",
"total current assets" and "statements of operations". Each entry maps a question term (a regular
expression) to the words a document uses for it, and optionally to the financial statement that
holds those line items. This is general accounting and reporting vocabulary, not knowledge of any
particular document; the retrieval layer adds these words to a query, it never replaces the
question's own words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.reading.lexicon import (
    GLOSSARY_ENTRIES,
    STATEMENT_NAME_ENTRIES,
)

_STATEMENT_NAMES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.I), statement) for pattern, statement, _ in STATEMENT_NAME_ENTRIES
)


@dataclass(frozen=True)
class Term:
    """A question term, the document words for it and the statement that holds them (if any)."""

    pattern: re.Pattern[str]
    words: tuple[str, ...]
    statements: tuple[str, ...] = ()


TERMS: tuple[Term, ...] = tuple(
    Term(re.compile(e.pattern, re.I), tuple(w.strip() for w in e.words.split(";") if w.strip()), e.statements)
    for e in GLOSSARY_ENTRIES
)


def statements_named(text: str) -> tuple[str, ...]:
    """The financial statements ``text`` names ("the P&L", "statement of financial position")."""
    return tuple(name for pattern, name in _STATEMENT_NAMES if pattern.search(text))


def expansions(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(document words, statements) implied by the terms of ``text``, in order of first mention."""
    words: dict[str, None] = {}
    statements: dict[str, None] = {}
    for term in TERMS:
        if term.pattern.search(text):
            words.update(dict.fromkeys(term.words))
            statements.update(dict.fromkeys(term.statements))
    return tuple(words), tuple(statements)
