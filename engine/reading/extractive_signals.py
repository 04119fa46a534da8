"""The extractive reader's own signals: its caveats, its rule confidence, the closest passages it offers
when it has no answer, and the question terms that are not the documents' subject."""

from __future__ import annotations

from collections.abc import Sequence

from engine.contracts import Caveat, Citation, EvidenceItem, caveat
from engine.contracts import CaveatKind as K
from engine.documents.text import stems
from engine.reading.passages import Unit
from engine.reading.signals import count_caveat

SUBJECT_SHARE = 0.5
"""A question term that at least this share of the evidence passages hold is the documents' subject
("Transformer" in the Transformer paper): the answer's own sentences need not repeat it."""
CLOSEST_PAGES = 2
"""An answer that states nothing offers the closest passage of at most this many pages."""


def closest_citations(ranked: Sequence[Unit]) -> tuple[Citation, ...]:
    """The best-scoring passage of each of the first ``CLOSEST_PAGES`` pages, marked as support."""
    closest: dict[tuple[str, int], Unit] = {}
    for unit in ranked:  # best first: the first unit seen on a page is that page's closest passage
        if unit.coverage > 0 and len(closest) < CLOSEST_PAGES:
            closest.setdefault((unit.item.doc_id, unit.item.page), unit)
    return tuple(
        Citation(chunk_id=u.item.chunk_id, doc_id=u.item.doc_id, page=u.item.page, quote=u.text, role="support")
        for u in closest.values()
    )


def extractive_confidence(
    best: Unit | None, second: float, anchor_cov: float, side_share: float, problems: int
) -> float:
    """The rule engine's confidence in an extractive answer, before calibration."""
    if best is None:
        return 0.0
    margin = max(0.0, min(1.0, (best.score - second) / max(best.score, 1e-6)))
    value = 0.45 * anchor_cov + 0.3 * best.coverage + 0.1 * margin + 0.15 * side_share
    return round(max(0.0, min(1.0, value * (0.85**problems))), 3)


def own_terms(terms: list[set[str]], evidence: Sequence[EvidenceItem]) -> list[set[str]]:
    """The question's terms without the documents' subject (``SUBJECT_SHARE``); all of them when every
    term is the subject."""
    if len(evidence) < 4:
        return terms
    held = [stems(e.text) | stems(" ".join(e.section_path)) for e in evidence]
    own = [t for t in terms if sum(1 for h in held if t <= h) < SUBJECT_SHARE * len(held)]
    return own or terms


def extract_caveats(
    matched: bool,
    uncovered: list[str],
    expected: int | None,
    found_count: int | None,
    pending: tuple[str, ...],
    bad_pages: tuple[int, ...],
    anchor_cov: float,
    evidence: Sequence[EvidenceItem],
) -> tuple[Caveat, ...]:
    """What an extractive answer may miss: no evidence, too few of the question's terms (``matched``: a passage
    reached the overlap thresholds), a side, items a count announces, a reference, a garbled page."""
    notes: list[Caveat] = []
    if not evidence:
        notes.append(caveat(K.NO_EVIDENCE))
    elif not matched:
        notes.append(caveat(K.UNMATCHED))
    elif anchor_cov < 0.5:
        notes.append(caveat(K.PARTIAL_MATCH))
    notes += [caveat(K.SIDE_NOT_FOUND, side) for side in uncovered]
    if expected is not None and found_count is not None and found_count < expected:
        notes.append(count_caveat(expected, found_count))
    notes += [caveat(K.PENDING_REFERENCE, r) for r in pending]
    if bad_pages:
        notes.append(caveat(K.GARBLED_PAGE, ", ".join(str(p) for p in bad_pages)))
    return tuple(notes)
