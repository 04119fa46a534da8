"""The wording of caveats: the one place a ``Caveat`` becomes text for people."""

from __future__ import annotations

from engine.contracts import Caveat, CaveatKind

_TYPE_TEXT = {
    "yes_no": "the passages bear on the question but do not say yes or no",
    "number": "the cited passages state no number that answers the question",
    "date": "the cited passages state no date that answers the question",
}

_FIXED = {
    CaveatKind.NO_EVIDENCE: "no evidence was retrieved",
    CaveatKind.UNMATCHED: "no retrieved passage matches enough of the question's terms",
    CaveatKind.PARTIAL_MATCH: "the cited passages match only some of the question's key terms",
    CaveatKind.ONE_OF_TWO_VALUES: "the question asks for a difference; the evidence read states one value, not both",
    CaveatKind.ONE_OF_TWO_TERMS: "the question asks for a ratio of two values; the evidence read states one value, not both",
}

_WITH_SUBJECT = {
    CaveatKind.SIDE_NOT_FOUND: "no passage in the evidence mentions {}",
    CaveatKind.SIDE_UNCITED: "the answer cites no passage about {}",
    CaveatKind.PARTS_UNCOVERED: "the evidence does not cover: {}",
    CaveatKind.PENDING_REFERENCE: "the evidence refers to {}, which was not retrieved",
    CaveatKind.GARBLED_PAGE: "the text of page {} looks garbled (possibly a broken table extraction)",
    CaveatKind.TERM_UNNAMED: "the cited passages do not name the {} asked about",
    CaveatKind.VALUE_NOT_COUNT: "the question asks how many; the evidence read counts something else or states an amount ({})",
    CaveatKind.VALUE_NOT_RATIO: "the question asks for a ratio, share or rate; the evidence read states an amount ({})",
    CaveatKind.VALUE_NARROWER: "the row read ({}) may not name exactly the item asked (narrower or broader)",
    CaveatKind.VALUES_MISSING: "the evidence does not hold: {}",
    CaveatKind.PERIOD_NOT_COVERED: "no selected document mentions {}: they report nothing for that period",
    CaveatKind.ANSWER_OTHER_PERIOD: "the passage read speaks of {} only, not of the period asked",
    CaveatKind.NAME_NOT_COVERED: "no selected document mentions {}: they say nothing of it",
    CaveatKind.UNSUPPORTED_STATEMENT: "not supported by the passages, left out: {}",
    CaveatKind.NOT_IN_PASSAGES: "not found in the passages: {}",
}


def caveat_text(item: Caveat) -> str:
    """The sentence a person reads for ``item``."""
    kind = item.kind
    if kind in _FIXED:
        return _FIXED[kind]
    if kind in _WITH_SUBJECT:
        return _WITH_SUBJECT[kind].format(item.subject or item.detail)
    if kind == CaveatKind.TYPE_NOT_STATED:
        return _TYPE_TEXT.get(item.subject, "the cited passages do not state what the question asks for")
    if kind == CaveatKind.COUNT_SHORT:
        expected, found = (int(n) for n in item.figures[:2])
        return f"the evidence announces {expected} items but only {found} were found"
    if kind == CaveatKind.VALUE_DOUBTFUL:
        return f"the row read ({item.subject}) may not be the figure asked: {item.detail}"
    if kind == CaveatKind.VALUE_NO_PERIOD:
        read = f"the row read ({item.subject})" if item.subject else "the sentence read"
        return f"{read} names no period, or not the one asked"
    if kind == CaveatKind.CENSUS_LABELS_ONLY:
        return (
            f"counted from the captions and headings labelled '{item.subject} 1', '{item.subject} 2' (or "
            f"'{item.subject} A', ...); {item.detail or 'elements'} without such a label are not counted"
        )
    if kind == CaveatKind.STOPPED_EARLY:
        because = "the run stopped because " if item.figures[:1] == (1,) else ""
        return f"may be incomplete: {because}{item.detail}"
    if kind == CaveatKind.UNCLAIMED:
        confidence, line = item.figures[:2]
        return (
            f"not verified: this is the best-supported reading, but its confidence ({confidence:.2f}) is under "
            f"the line where answers are claimed ({line:.2f}); check the cited passages"
        )
    return item.detail or item.subject


def caveat_texts(items: tuple[Caveat, ...]) -> tuple[str, ...]:
    """The sentences of ``items``, each once."""
    return tuple(dict.fromkeys(caveat_text(c) for c in items))
