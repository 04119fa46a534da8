"""Does a passage support a statement? Code's check of what a model says, backend-independent.

A model's statement is supported by a passage when they share content (at least half of the
statement's content stems occur in the passage, at least one of them) and every number the statement
states appears in the passage. The quote shown to the reader is the passage's sentence (or table row)
closest to the statement, taken from the passage itself, never from the model.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from engine.documents.text import normalize_space, split_sentences, stems

MIN_SHARED = 0.5
"""Share of a statement's content stems a supporting passage must contain."""

_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")


def numbers_in(text: str) -> set[str]:
    """The numbers of ``text`` in a comparable form: thousands separators and trailing zero decimals
    dropped ("1,577.00" -> "1577")."""
    found = set()
    for raw in _NUMBER.findall(text):
        value = raw.replace(",", "").rstrip(".")
        if "." in value:
            value = value.rstrip("0").rstrip(".")
        found.add(value)
    return found


def support_score(statement: str, passage: str) -> float:
    """Share of the statement's content stems found in ``passage`` (0 when a stated number is absent)."""
    wanted = stems(statement)
    if not wanted:
        return 0.0
    if not numbers_in(statement) <= numbers_in(passage):
        return 0.0
    return len(wanted & stems(passage)) / len(wanted)


def supports(statement: str, passage: str) -> bool:
    """True when ``passage`` supports ``statement`` (shared content and every stated number present)."""
    return support_score(statement, passage) >= MIN_SHARED


def best_support(statement: str, passages: Sequence[str]) -> int | None:
    """Index of the passage that supports ``statement`` best, or None when none does."""
    scored = [(support_score(statement, text), -i) for i, text in enumerate(passages)]
    if not scored:
        return None
    score, negative_index = max(scored)
    return -negative_index if score >= MIN_SHARED else None


def closest_quote(statement: str, passage: str, max_chars: int = 300) -> str:
    """The sentence (or line) of ``passage`` sharing most stems with ``statement``, verbatim."""
    lines = [line for line in passage.splitlines() if line.strip()]
    units = [u for line in lines for u in split_sentences(line)] or [normalize_space(passage)]
    wanted = stems(statement)
    best = max(units, key=lambda unit: (len(wanted & stems(unit)), -len(unit)))
    return best if len(best) <= max_chars else best[:max_chars].rsplit(" ", 1)[0]


__all__ = ["MIN_SHARED", "best_support", "closest_quote", "numbers_in", "support_score", "supports"]
