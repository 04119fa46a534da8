"""Feedback signals computed from evidence: references, vocabulary, counts and garbled text.

Shared by the offline answer rule and the programmatic checks. Pure functions over ``EvidenceItem``s.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence

from engine.bricks.text import STOPWORDS, find_references, normalize_space, split_reference, stems
from engine.contracts import EvidenceItem

_GENERIC_HEADINGS = frozenset(
    [
        "abstract",
        "introduction",
        "conclusion",
        "conclusions",
        "references",
        "acknowledgements",
        "acknowledgments",
        "appendix",
        "contents",
        "summary",
        "overview",
        "background",
        "discussion",
        "results",
        "methods",
        "method",
        "related",
        "work",
        "notes",
        "index",
    ]
)


# --------------------------------------------------------------------------------------------
# References
# --------------------------------------------------------------------------------------------


def reference_present(reference: str, evidence: Sequence[EvidenceItem]) -> bool:
    """Whether the target of ``reference`` is in the evidence.

    A target counts as present when an evidence chunk starts with its caption or heading
    ("Table 3: ...", "5.4 Dropout", "Appendix B ..."), or its section path names it.
    """
    kind, label = split_reference(reference)
    starts = [rf"{kind}\.?\s*{re.escape(label)}\b"]
    if kind == "Section":
        starts += [rf"§\s*{re.escape(label)}\b", rf"{re.escape(label)}\.?\s+[A-Z]"]
    if kind == "Figure":
        starts.append(rf"Fig\.?\s*{re.escape(label)}\b")
    pattern = re.compile(r"^\W{0,3}(?:" + "|".join(starts) + ")", re.I if kind != "Section" else 0)
    loose = re.compile(rf"\b{kind}\s*{re.escape(label)}\b", re.I)
    for item in evidence:
        if pattern.match(normalize_space(item.text)):
            return True
        for title in item.section_path:
            if pattern.match(title.strip()) or loose.search(title):
                return True
    return False


def pending_references(mentioned: Iterable[str], evidence: Sequence[EvidenceItem], limit: int = 4) -> tuple[str, ...]:
    """References in ``mentioned`` whose target is not in the evidence (at most ``limit``)."""
    pending = [r for r in dict.fromkeys(mentioned) if not reference_present(r, evidence)]
    return tuple(pending[:limit])


def references_in(texts: Iterable[str]) -> list[str]:
    found: dict[str, None] = {}
    for text in texts:
        for reference in find_references(text):
            found.setdefault(reference, None)
    return list(found)


# --------------------------------------------------------------------------------------------
# Vocabulary
# --------------------------------------------------------------------------------------------

_ACRONYM = re.compile(r"\(([A-Z][A-Za-z0-9\-]{1,9})\)")
_DEFINED = (
    re.compile(r"\b(?:called|known as|termed|referred to as|dubbed|denoted)\s+(?:the\s+|an?\s+)?[\"“']?"
               r"([A-Za-z][\w\-]+(?:\s+[A-Za-z][\w\-]+){0,2}?)(?=[\"”']|[,.;:)]|\s+(?:and|or|which|that|in|of)\b)"),
)  # fmt: skip
_CAP_RUN = re.compile(r"\b([A-Z][a-z][\w\-]*(?:\s+(?:of\s+)?[A-Z][\w\-]+)+)\b")


def _clean_term(term: str) -> str:
    term = re.sub(r"^\s*(?:[0-9]+(?:\.[0-9]+)*|[A-Z]\.)\s+", "", term)  # heading numbers
    return normalize_space(term.strip(" .:;,-–—"))


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
        candidates += [_clean_term(t) for t in item.bold_terms]
    for item in evidence:
        candidates += _acronyms(item.text)
        for pattern in _DEFINED:
            for match in pattern.finditer(item.text):
                candidates += [_clean_term(g) for g in match.groups() if g]
    for item in evidence:
        if item.section_path:
            candidates.append(_clean_term(item.section_path[-1]))
        if item.kind == "heading":
            candidates.append(_clean_term(item.text))
    runs = Counter(m.group(1) for item in evidence for m in _CAP_RUN.finditer(item.text))
    candidates += [run for run, n in runs.most_common() if n >= 2]
    kept: dict[str, str] = {}
    for term in candidates:
        key = term.lower()
        words = stems(term)
        if not term or len(term) < 3 or len(term) > 60 or key in kept or key in _GENERIC_HEADINGS:
            continue
        if not words or words <= question_terms or find_references(term) or term.lower() in STOPWORDS:
            continue
        kept[key] = term
        if len(kept) >= limit:
            break
    return tuple(kept.values())


# --------------------------------------------------------------------------------------------
# Enumerations
# --------------------------------------------------------------------------------------------

_BULLET = re.compile(r"^\s*(?:[•▪◦●\-–*]|\(?[0-9]{1,2}[.)]|\(?[a-h][.)])\s+\S", re.M)
_ORDINAL = re.compile(r"(?:^|[.!?]\s+)(First|Second|Third|Fourth|Fifth|Sixth|Finally|Lastly)\b[,:]?", re.M)


def enumerated_items(evidence: Sequence[EvidenceItem]) -> list[str]:
    """Items enumerated in the evidence: bold run-in terms, bullet lines and ordinal sentences."""
    items: dict[str, None] = {}
    for item in evidence:
        for term in item.bold_terms:
            clean = _clean_term(term)
            if clean and clean.lower() not in _GENERIC_HEADINGS and not re.match(r"^(?:Table|Figure)\b", clean):
                items.setdefault(clean.lower(), None)
        for match in _BULLET.finditer(item.text):
            line = item.text[match.start() :].strip().splitlines()[0]
            items.setdefault(normalize_space(line)[:60].lower(), None)
        for match in _ORDINAL.finditer(item.text):
            items.setdefault(f"{item.chunk_id}:{match.group(1).lower()}", None)
    return list(items)


# --------------------------------------------------------------------------------------------
# Garbled text
# --------------------------------------------------------------------------------------------

_SPACED_LETTERS = re.compile(r"(?:\b[A-Za-z]\s){5,}")
_VOWEL = re.compile(r"[aeiouyAEIOUY]")


def looks_garbled(text: str) -> bool:
    """True when ``text`` looks like a broken extraction (cid markers, shredded lines, non-words)."""
    if "(cid:" in text or text.count("\ufffd") >= 3:
        return True
    if _SPACED_LETTERS.search(text):
        return True
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if len(lines) >= 6 and sum(1 for line in lines if len(line) <= 3) / len(lines) >= 0.5:
        return True
    tokens = text.split()
    if len(tokens) < 12:
        return False
    lone_numbers = sum(1 for t in tokens if re.fullmatch(r"[\d.,%()$\-]+", t))
    alpha = [t for t in tokens if t.isalpha()]
    non_words = sum(1 for t in alpha if len(t) >= 3 and not t.isupper() and not _VOWEL.search(t))
    singles = sum(1 for t in tokens if len(t) == 1 and t.isalpha() and t not in ("a", "A", "I"))
    if singles / len(tokens) > 0.3 or (alpha and non_words / len(alpha) > 0.3):
        return True
    short_lines = len(lines) >= 8 and sum(1 for line in lines if len(line.split()) == 1) / len(lines) > 0.6
    return lone_numbers / len(tokens) > 0.6 and short_lines


def garbled_pages(evidence: Sequence[EvidenceItem]) -> tuple[int, ...]:
    """Pages whose evidence text looks garbled, sorted."""
    by_page: dict[int, list[str]] = {}
    for item in evidence:
        by_page.setdefault(item.page, []).append(item.text)
    return tuple(sorted(p for p, texts in by_page.items() if any(looks_garbled(t) for t in texts)))
