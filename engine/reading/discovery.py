"""New vocabulary in the evidence: the terms an offline answer reports as ``discovered_keywords``.

Bold terms, defined terms ("known as X"), acronyms with their expansions, section titles and
capitalised names the question does not use already; the feedback loop searches again with them.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from engine.contracts import EvidenceItem
from engine.documents.text import STOPWORDS, find_references, stems
from engine.reading.signals import GENERIC_HEADINGS, clean_term

_ACRONYM = re.compile(r"\(([A-Z][A-Za-z0-9\-]{1,9})\)")
_DEFINED = (
    re.compile(r"\b(?:called|known as|termed|referred to as|dubbed|denoted)\s+(?:the\s+|an?\s+)?[\"“']?"
               r"([A-Za-z][\w\-]+(?:\s+[A-Za-z][\w\-]+){0,2}?)(?=[\"”']|[,.;:)]|\s+(?:and|or|which|that|in|of)\b)"),
)  # fmt: skip
_CAP_RUN = re.compile(r"\b([A-Z][a-z][\w\-]*(?:\s+(?:of\s+)?[A-Z][\w\-]+)+)\b")


def _acronyms(text: str) -> list[str]:
    """ "label smoothing regularization (LSR)" -> ["label smoothing regularization", "LSR"]."""
    found: list[str] = []
    for match in _ACRONYM.finditer(text):
        abbreviation = match.group(1)
        letters = sum(1 for c in abbreviation if c.isupper())
        words = re.findall(r"[A-Za-z][\w\-]*", text[: match.start()])[-max(1, letters) :]
        if words and len(abbreviation) >= 2 and words[0][0].lower() == abbreviation[0].lower():
            found.append(" ".join(words))
        found.append(abbreviation)
    return found


def discovered_keywords(evidence: Sequence[EvidenceItem], question_terms: set[str], limit: int = 8) -> tuple[str, ...]:
    """Salient evidence terms the question does not use: bold terms, defined terms, headings, names."""
    candidates: list[str] = []
    for item in evidence:
        candidates += [clean_term(t) for t in item.bold_terms]
    for item in evidence:
        candidates += _acronyms(item.text)
        for pattern in _DEFINED:
            for match in pattern.finditer(item.text):
                candidates += [clean_term(g) for g in match.groups() if g]
    for item in evidence:
        if item.section_path:
            candidates.append(clean_term(item.section_path[-1]))
        if item.kind == "heading":
            candidates.append(clean_term(item.text))
    runs = Counter(m.group(1) for item in evidence for m in _CAP_RUN.finditer(item.text))
    candidates += [run for run, n in runs.most_common() if n >= 2]
    kept: dict[str, str] = {}
    for term in candidates:
        key = term.lower()
        words = stems(term)
        if not term or len(term) < 3 or len(term) > 60 or key in kept or key in GENERIC_HEADINGS:
            continue
        if not words or words <= question_terms or find_references(term) or term.lower() in STOPWORDS:
            continue
        kept[key] = term
        if len(kept) >= limit:
            break
    return tuple(kept.values())
