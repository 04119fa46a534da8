"""The feedback signals code can check, computed after ANY backend's answer.

``check_answer`` runs after every answer call, whichever backend answered (the offline rules or a
model), the way the citation check does: references the relevant passages name whose target is not in
the evidence, comparison sides and question parts no citation covers, the count a passage announces
against the items found, garbled context. A backend may report more signals; code only adds to them
and decides ``complete_answer_found`` from them. The offline answer rule computes its own signals
with these same functions, so the check never contradicts it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

from engine.contracts import (
    AnswerWithEvidence,
    Caveat,
    ComparisonSide,
    EvidenceItem,
    ParsedQuestion,
    QuestionPart,
    caveat,
)
from engine.contracts import CaveatKind as K
from engine.documents.text import (
    SPELLED_NUMBER,
    count_value,
    find_cardinality_cue,
    find_references,
    listing_subject,
    normalize_space,
    split_reference,
    stems,
)
from engine.reading.answer_type import expected_type, states_type
from engine.reading.passages import Unit, label_share, mark_coverage, split_units, term_stems, unit_terms
from engine.reading.periods import without_spans
from engine.reading.where import LOCATING_PART, listed_terms, located, part_key, place_shown

GENERIC_HEADINGS = frozenset(  # headings every kind of document has: never an enumerated item or new vocabulary
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


def clean_term(term: str) -> str:
    """``term`` without a heading number or surrounding punctuation."""
    term = re.sub(r"^\s*(?:[0-9]+(?:\.[0-9]+)*|[A-Z]\.)\s+", "", term)  # heading numbers
    return normalize_space(term.strip(" .:;,-–—"))


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
            clean = clean_term(term)
            if clean and clean.lower() not in GENERIC_HEADINGS and not re.match(r"^(?:Table|Figure)\b", clean):
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
_LONE_NUMBER = re.compile(r"[\d.,%()$\-]+")


@lru_cache(maxsize=4096)
def looks_garbled(text: str) -> bool:
    """True when ``text`` looks like a broken extraction (cid markers, shredded lines, non-words). Kept per text:
    every pass of every question reads its evidence chunks' texts again."""
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
    lone_numbers = sum(1 for t in tokens if _LONE_NUMBER.fullmatch(t))
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


# --------------------------------------------------------------------------------------------
# Signals of one answer
# --------------------------------------------------------------------------------------------


def relevant_texts(units: Sequence[Unit], evidence: Sequence[EvidenceItem]) -> list[str]:
    """Texts of the chunks holding at least one unit that shares a term with the question (coverage marked)."""
    ids = {u.item.chunk_id for u in units if u.coverage > 0}
    return [e.text for e in evidence if e.chunk_id in ids]


def unresolved_references(
    parsed: ParsedQuestion, units: Sequence[Unit], evidence: Sequence[EvidenceItem]
) -> tuple[str, ...]:
    """References the question or its relevant passages name whose target is not in the evidence."""
    mentioned = [
        *parsed.references,
        *(r for r in references_in(relevant_texts(units, evidence)) if r not in parsed.references),
    ]
    return pending_references(mentioned, evidence)


def needed_references(pending: Sequence[str], parsed: ParsedQuestion, answer_texts: Sequence[str]) -> tuple[str, ...]:
    """The pending references an answer needs: those the question names or its own quoted lines (the
    sentences and rows it cites) point to. A "Table 3" another retrieved passage mentions is for the loop
    to follow; it does not keep an answer that never refers to it from being complete."""
    text = " ".join(answer_texts)
    return tuple(r for r in pending if r in parsed.references or r in text)


_NAME = re.compile(r"^[A-Z][a-z]+(?:'s)?$")
"""A capitalised word ("Acme", "Pfizer's"): the subject every side shares, not what is compared."""


def side_aspect(side: ComparisonSide, parsed: ParsedQuestion, sides: Sequence[ComparisonSide]) -> list[set[str]]:
    """What one document side must speak of: its terms and their document words, without the sides'
    labels ("2018", "fiscal 2022") and without the names of the subject they share ("Acme")."""
    labels = set().union(*(stems(s.label) for s in sides))
    terms = [t for t in (side.keywords or parsed.keywords) if not _NAME.match(t)]
    return [t - labels for t in term_stems([*terms, *parsed.retrieval.expansions]) if t - labels]


def side_covered(side: ComparisonSide, units: Sequence[Unit], aspect: Sequence[set[str]] = ()) -> bool:
    """Whether a unit covers the side: one from the side's own document (when it has one) that speaks
    of the side's ``aspect``, holding every word of one of its terms in its text, table header or section
    title ("file" alone is not "file upload"; a page that only names the company or the year covers
    nothing), else one that holds at least half of the words of the side's label."""
    if side.doc_id is not None:
        own = [u for u in units if u.item.doc_id == side.doc_id]
        if not aspect:
            return bool(own)
        return any(any(term <= unit_terms(u) for term in aspect) for u in own)
    return any(label_share(side.label, u) >= 0.5 for u in units)


_DURATION = re.compile(rf"\b(\d{{1,3}}|{SPELLED_NUMBER})[\s-](year|day|month|week)s?\b", re.I)
"""A term in a question ("five-year revolving credit agreement", "364-day facility", "10-year notes"):
it tells one instrument from its siblings, so the passage that answers must name it."""


def missing_durations(question: str, texts: Sequence[str]) -> list[str]:
    """The question's terms ("five year") that none of the cited ``texts`` states, in digits or in words. A span of
    a statement's columns ("the three months ended June 30") is the period asked, which the value's column states
    and the period checks weigh, never an instrument's term."""
    stated = {_duration_key(m) for text in texts for m in _DURATION.finditer(text)}
    return [m.group(0) for m in _DURATION.finditer(without_spans(question)) if _duration_key(m) not in stated]


def _duration_key(match: re.Match[str]) -> tuple[int | None, str]:
    return count_value(match.group(1)), match.group(2).lower()


def uncovered_parts(parts: Sequence[QuestionPart], units: Sequence[Unit], evidence: Sequence[Unit] = ()) -> list[str]:
    """Parts of a multi-part question that no unit covers (half of the words of its key term suffice)."""
    if len(parts) < 2:
        return []
    unit_stems = [unit_terms(u) for u in units]
    missing = []
    for part in parts:
        if not part.keywords or not stems(" ".join(part.keywords)):
            continue
        key = part_key(part.keywords)
        holding = [u for u, s in zip(units, unit_stems, strict=True) if 2 * len(key & s) >= len(key)]
        if LOCATING_PART.match(part.text):  # "where is it shown" is answered only where a table, figure or
            # section is named, and it shows what the part asks about (its key term in the passage or table)
            holding = [
                u for u in units if located(u) and 2 * len(key & (stems(u.item.text) | unit_terms(u))) >= len(key)
            ]
            # or a cited unit is of a table or figure whose caption is in the evidence and whose caption, rows
            # or naming passages show it (and name the listed items a "they" points back at): the place
            listed = listed_terms((u.text, u.item.bold_terms) for u in units)
            if not holding and evidence and place_shown(part, units, evidence, listed):
                holding = list(units)
        if not holding:
            missing.append(part.text)
    return missing


def cue_order(units: Sequence[Unit], parsed: ParsedQuestion) -> list[Unit]:
    """Units stating a count ("three types of ..."); when the question names what it lists, only those whose
    count sentence names it (a passage counting something else announces nothing about the list asked)."""
    subject = stems(listing_subject(parsed.original_question) or " ".join(parsed.keywords))
    cues = [u for u in units if u.coverage > 0 and find_cardinality_cue(u.text)]
    if subject:  # "three blades" announces no count of the damping methods asked: only a cue naming them does
        return [u for u in cues if subject & stems(find_cardinality_cue(u.text)[1])]  # type: ignore[index]
    return cues


def announced_count(
    parsed: ParsedQuestion, units: Sequence[Unit], evidence: Sequence[EvidenceItem]
) -> tuple[int | None, int | None]:
    """(items announced, items enumerated in the evidence) for a listing or a question that states a count.

    The count comes from the question, else from the passage that states one (the listed subject's
    first); items are counted in that passage's section, else in the relevant passages.
    """
    expected, cue_text = parsed.expected_count, None
    if expected is None and parsed.intent == "listing":
        for unit in cue_order(sorted(units, key=lambda u: -u.coverage), parsed):
            expected, cue_text = find_cardinality_cue(unit.text) or (None, None)
            break
    if parsed.intent != "listing" and parsed.expected_count is None:
        return None, None
    sections = {u.item.section_path for u in units if cue_text and u.text == cue_text}
    related = [
        e for e in evidence
        if (sections and e.section_path in sections) or any(u.item is e and u.coverage > 0 for u in units)
    ]  # fmt: skip
    return expected, len(enumerated_items(related or list(evidence)))


def cited_units(answer: AnswerWithEvidence, evidence: Sequence[EvidenceItem]) -> list[Unit]:
    """The units the answer's own (not supporting) citations quote: the sentence or row when it is one,
    else the quote itself read in its chunk."""
    by_id = {e.chunk_id: e for e in evidence}
    units: list[Unit] = []
    for citation in answer.citations:
        item = by_id.get(citation.chunk_id)
        if item is None or citation.role != "answer":
            continue
        quote = normalize_space(citation.quote)
        own = [u for u in split_units([item]) if u.text == quote]
        units.append(own[0] if own else Unit(text=quote, item=item, order=0))
    return units


def check_answer(
    answer: AnswerWithEvidence, parsed: ParsedQuestion, evidence: Sequence[EvidenceItem]
) -> AnswerWithEvidence:
    """``answer`` with the signals code finds in ``evidence`` added, and ``complete_answer_found`` decided.

    Run it after the citation check (a dropped citation covers nothing). Signals the backend reported
    are kept; a problem code finds that the answer did not report also gets a caveat.
    """
    units = split_units(evidence)
    mark_coverage(units, parsed)
    cited = cited_units(answer, evidence)
    pending = [r for r in unresolved_references(parsed, units, evidence) if r not in answer.pending_references]
    needed = needed_references([*answer.pending_references, *pending], parsed, [u.text for u in cited])
    garbled = [p for p in garbled_pages(evidence) if p not in answer.garbled_pages]
    sides = [
        s.label for s in parsed.sides
        if not side_covered(s, cited, side_aspect(s, parsed, parsed.sides)) and s.label not in answer.uncovered_sides
    ]  # fmt: skip
    missing = uncovered_parts(parsed.parts, cited, units)
    expected, found = announced_count(parsed, units, evidence)
    expected = expected if expected is not None else answer.expected_count
    counts = [n for n in (found, answer.found_count) if n is not None]
    found = max(counts) if counts else None
    short = expected is not None and found is not None and found < expected
    notes = list(answer.caveats)
    notes += [caveat(K.SIDE_UNCITED, side) for side in sides]
    if missing and not any(n.kind == K.PARTS_UNCOVERED for n in notes):
        notes.append(caveat(K.PARTS_UNCOVERED, "; ".join(missing)))
    if short and not any(n.kind == K.COUNT_SHORT for n in notes):
        notes.append(count_caveat(expected, found))
    notes += [caveat(K.PENDING_REFERENCE, r) for r in pending if r in needed]
    if garbled:
        notes.append(caveat(K.GARBLED_PAGE, ", ".join(str(p) for p in garbled)))
    all_garbled = tuple(sorted({*answer.garbled_pages, *garbled}))
    kind = expected_type(parsed.original_question)
    untyped = kind is not None and answer.answer_found and not states_type(answer.text, kind, parsed.original_question)
    if untyped and kind is not None:
        notes.append(caveat(K.TYPE_NOT_STATED, kind))
    terms = missing_durations(parsed.original_question, [u.text for u in cited]) if cited else []
    if terms:
        notes.append(caveat(K.TERM_UNNAMED, ", ".join(terms)))
    problems = needed or all_garbled or answer.uncovered_sides or sides or untyped or terms
    return answer.model_copy(update={
        "pending_references": (*answer.pending_references, *pending),
        "garbled_pages": all_garbled,
        "context_structured": answer.context_structured and not all_garbled,
        "uncovered_sides": (*answer.uncovered_sides, *sides),
        "expected_count": expected,
        "found_count": found,
        "caveats": tuple(dict.fromkeys(notes)),
        "complete_answer_found": answer.complete_answer_found and not (problems or missing or short),
        "confidence": round(answer.confidence * (0.7 if untyped else 1.0), 3),
    })  # fmt: skip


def count_caveat(expected: int | None, found: int | None) -> Caveat:
    """The caveat of an enumeration that announces ``expected`` items where ``found`` were found."""
    return caveat(K.COUNT_SHORT, figures=(float(expected or 0), float(found or 0)))
