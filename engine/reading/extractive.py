"""Offline extractive answering: the best evidence sentences, cited, plus honest feedback signals.

Sentences (or table rows) are scored by overlap with the question's keywords and anchors, the
retrieval score, and the question's shape (numbers for value questions, one sentence per side for
comparisons, one line per item for listings). Feedback fields are computed from the evidence itself.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from collections.abc import Set as AbstractSet

from engine.contracts import AnswerWithEvidence, Citation, EvidenceItem, ParsedQuestion, QuestionPart, caveat
from engine.contracts import CaveatKind as K
from engine.documents.text import find_cardinality_cue, find_references, listing_subject, stems
from engine.reading.answer_text import ITEM_LABEL, cover_clauses, distinct, listed_count, render
from engine.reading.discovery import discovered_keywords
from engine.reading.extractive_signals import closest_citations, extract_caveats, extractive_confidence, own_terms
from engine.reading.focus import focus
from engine.reading.lists import (
    best_lead,
    counts_without_items,
    in_reading_order,
    is_lead,
    items_after,
    list_leads,
    split_inline,
)
from engine.reading.passages import (
    Unit,
    coverage,
    label_share,
    score_units,
    side_units,
    split_units,
    term_stems,
    unit_terms,
)
from engine.reading.question import question_parts
from engine.reading.side_verdict import with_verdict
from engine.reading.signals import (
    announced_count,
    cue_order,
    garbled_pages,
    needed_references,
    part_key,
    reference_present,
    side_aspect,
    uncovered_parts,
    unresolved_references,
)

logger = logging.getLogger(__name__)

NOT_FOUND = "I could not find the answer in the retrieved evidence."
MIN_OVERLAP = 0.34
MIN_WEIGHTED = 0.2
"""The best passage must hold this share of the question's terms weighted by rarity ("purchase price"
weighs more than "aircraft" in a note about aircraft), else the answer is "not found"."""
EXTRACTIVE_SCALE = 0.55
"""Passages chosen by word overlap answer about half of the questions they seem to: their confidence
is scaled to stay under the claim line (0.6) unless code verified more (a listing's announced count
matched here; a value read by its label and period, by the composition layer)."""
LEAD_SHARE = 0.5
"""A list's lead sentence answers a listing question when it scores at least this share of the best unit
(it names the listed subject; its items need not repeat the question's words)."""
SIDE_MIN_WEIGHTED = MIN_WEIGHTED / 2
"""A document side's best passage is scored on the side's terms plus the document words for them, a
longer list than one question's: half the share suffices to cite it as that side's closest passage."""


# --------------------------------------------------------------------------------------------
# Selection
# --------------------------------------------------------------------------------------------


def _side_units(units: list[Unit], parsed: ParsedQuestion) -> tuple[list[tuple[str, Unit]], list[str]]:
    """The best unit of each side: from the side's own document (the best-scoring one that answers
    at all), or, in one document, the unit that names the side best."""
    chosen: list[tuple[str, Unit]] = []
    uncovered: list[str] = []
    for side in parsed.sides:
        if side.doc_id is not None:
            own = side_units(list(dict.fromkeys(u.item for u in units)), parsed, side)
            aspect = side_aspect(side, parsed, parsed.sides)  # a passage naming only the company covers nothing
            own = [u for u in own if not aspect or any(t & (stems(u.text) | stems(u.caption)) for t in aspect)]
            best = max(_side_lists(own, parsed) or own, key=lambda u: u.score, default=None)
            for u in sorted(own, key=lambda u: -u.score)[:4] if logger.isEnabledFor(logging.DEBUG) else []:
                logger.debug(
                    "side %s: %.2f wc=%.2f p.%d %s", side.label, u.score, u.weighted_coverage, u.item.page, u.text[:90]
                )
            if best is None or best.weighted_coverage < SIDE_MIN_WEIGHTED:
                uncovered.append(side.label)
                continue
            chosen.append((side.label, best))
            if is_lead(best.text):  # the side's list: its lead and the items under it
                chosen += [
                    (side.label, u) for u in items_after(best, [u for u in units if u.item.doc_id == side.doc_id])
                ]
            chosen += [(side.label, u) for u in _part_units(own, parsed.parts, best)]
            continue
        scored = [(label_share(side.label, u), u) for u in units]
        scored = [(cov, u) for cov, u in scored if cov >= 0.5]
        if not scored:
            uncovered.append(side.label)
            continue
        aspect = side_aspect(side, parsed, parsed.sides)
        # the side's passage speaks of what is compared (an aspect term beside the side's name): a sentence
        # that only names the side ("the Heron 3 entered service in 2019") answers nothing of the comparison
        chosen.append(
            (side.label, max(scored, key=lambda pair: (_speaks_of(pair[1], aspect), pair[0], pair[1].score))[1])
        )
    return chosen, uncovered


def _speaks_of(unit: Unit, aspect: list[set[str]]) -> bool:
    return not aspect or any(t & unit_terms(unit) for t in aspect)


def _side_lists(own: list[Unit], parsed: ParsedQuestion) -> list[Unit]:
    """For a listing question, a side's passages that state the list asked: they name the listed subject
    and announce or hold items after a colon ("three reportable segments: A, B and C"). A sentence that
    only mentions the subject ("each of our reportable segments") answers nothing of the list."""
    subject = stems(listing_subject(parsed.original_question) or "") if parsed.intent == "listing" else set()
    if not subject:
        return []
    return [u for u in own if subject <= stems(u.text.partition(":")[0]) and ":" in u.text and u.weighted_coverage > 0]


def _part_units(own: list[Unit], parts: Sequence[QuestionPart], first: Unit) -> list[Unit]:
    """For a multi-part question, the best further unit of a side for each part its first unit misses
    (one that holds the part's key term and scores at least half as well as the side's best)."""
    extra: list[Unit] = []
    for part in parts:
        if not part.keywords:
            continue
        key = part_key(part.keywords)
        if any(2 * len(key & unit_terms(u)) >= len(key) for u in [first, *extra]):
            continue
        holding = [
            u for u in own
            if 2 * len(key & unit_terms(u)) >= len(key) and u.score >= 0.8 * first.score
            and all(u.item.chunk_id != x.item.chunk_id or u.text != x.text for x in [first, *extra])
        ]  # fmt: skip
        if holding:
            extra.append(max(holding, key=lambda u: u.score))
    return extra[:1]


def _listing_units(units: list[Unit], limit: int, expected: int | None = None, cue: Unit | None = None) -> list[Unit]:
    """Units that introduce an enumerated item (bold run-in term, bullet, ordinal), relevant first.

    With a count ``cue`` ("We use three kinds of sensors"), items are looked for on its page and the
    two after it; when fewer than ``expected`` relevant ones are found, further bold run-in items
    there fill the list in page order: an item ("Multispectral imager. A four-band imager ...")
    need not repeat the question's words.
    """
    picked: list[Unit] = []
    run_ins: list[Unit] = []
    for unit in units:
        if unit.item.kind in ("caption", "heading") or (cue is not None and not _near(unit, cue)):
            continue  # "Table 3: ..." is bold but it is not an item of an enumeration
        run_in = any(unit.text.startswith(t.strip()) for t in unit.item.bold_terms if t.strip())
        bold = run_in or any(t.strip() in unit.text[:80] for t in unit.item.bold_terms if t.strip())
        marker = re.match(r"^(?:[•▪◦●\-–*]\s|\(?\d{1,2}[.)]\s+[A-Za-z]|(?:First|Second|Third|Fourth|Fifth|Finally|Lastly)\b)",
                          unit.text)  # fmt: skip
        if marker and not bold and len(unit.text.split()) < 6 and not unit.text.endswith((".", ";", ":")):
            marker = None  # a numbered heading, not an item
        if any(p.item.chunk_id == unit.item.chunk_id for p in picked):
            continue
        if (bold or marker) and unit.score > 0.15:
            picked.append(unit)
        elif run_in and not unit.is_row:
            run_ins.append(unit)
    if expected is not None and len(picked) < expected:
        taken = {u.item.chunk_id for u in picked}
        for unit in sorted(run_ins, key=lambda u: (u.item.page, u.order)):
            if len(picked) >= expected:
                break
            if unit.item.chunk_id not in taken:
                taken.add(unit.item.chunk_id)
                picked.append(unit)
    return in_reading_order(picked)[:limit]


def _near(unit: Unit, cue: Unit) -> bool:
    """On the cue's page or the two after it, and not the cue's own passage."""
    same_doc = unit.item.doc_id == cue.item.doc_id and unit.item.chunk_id != cue.item.chunk_id
    return same_doc and cue.item.page <= unit.item.page <= cue.item.page + 2


def _inline_list(ranked: list[Unit], expected: int | None, subject: AbstractSet[str] = frozenset()) -> Unit | None:
    """The best passage naming its items itself ("three stages: A, B and C"); below the best passage, one
    naming as many items as the question counts, scoring at least ``LEAD_SHARE`` of the best: a sentence that
    only counts the items ("we summarize three paradigms") may outrank the one that names them, and so may one
    naming other things ("four tests that check two parts: A and B" when four tests are asked). Without a
    count asked, one whose lead names the listed ``subject`` ("five segments: A; B; ..." for "which segments")
    over a better one that names something else ("two regions: North and South")."""

    def fits(unit: Unit) -> bool:
        named = split_inline(unit.text)
        return named is not None and (len(named[1]) == expected if expected else subject <= stems(named[0]))

    top = ranked[0] if split_inline(ranked[0].text) is not None else None
    if top is not None and fits(top):
        return top
    for unit in ranked[1:]:
        if unit.score < LEAD_SHARE * ranked[0].score or (expected is None and not subject):
            break
        if fits(unit):
            return unit
    return top


def select_units(units: list[Unit], parsed: ParsedQuestion, limit: int) -> tuple[list[tuple[str, Unit]], list[str]]:
    """The units an answer is made of (each with an optional label) and the uncovered sides."""
    ranked = sorted(units, key=lambda u: -u.score)
    if not ranked:
        return [], [s.label for s in parsed.sides]
    uncovered: list[str] = []
    chosen: list[tuple[str, Unit]] = []
    if parsed.sides and (parsed.intent == "comparison" or any(side.doc_id for side in parsed.sides)):
        chosen, uncovered = _side_units(units, parsed)
        if any(side.doc_id for side in parsed.sides):  # each document answered for itself, nothing else
            return chosen[:limit], uncovered
    elif parsed.intent == "listing":
        subject = stems(listing_subject(parsed.original_question) or "")
        inline = _inline_list(ranked, parsed.expected_count, subject)
        led = best_lead(ranked, LEAD_SHARE * ranked[0].score, subject, stems(parsed.original_question))
        inline_lead = split_inline(inline.text) if inline is not None else None
        if inline is not None and inline_lead is not None and (led is None or subject <= stems(inline_lead[0])):
            return [("", inline)], uncovered  # a strong passage names the items itself ("two agents: A and B")
        if led is not None:  # the list the evidence states: its lead sentence and the items under it
            return [("", led[0]), *((ITEM_LABEL, u) for u in led[1])], uncovered
        cue = next(iter(cue_order(ranked, parsed)), None)
        stated = find_cardinality_cue(cue.text) if cue else None
        expected = parsed.expected_count or (stated[0] if stated else None)
        items = [u for u in _listing_units(units, limit, expected, cue) if u is not cue]
        if items:
            return [*(("", u) for u in ([cue] if cue else [])), *((ITEM_LABEL, u) for u in items)][
                : limit + 1
            ], uncovered
    best = ranked[0].score
    want = 2 if parsed.intent in ("single_fact", "section_retrieval") else limit
    if parsed.intent == "single_fact" and (parsed.asks_for_value or ranked[0].anchor_coverage >= 0.99):
        want = 1  # one passage holding every anchor term (or the value asked for) is the answer
    for unit in ranked:
        if len(chosen) >= want or unit.score < 0.6 * best:
            break
        if all(unit is not u for _, u in chosen):
            chosen.append(("", unit))
    chosen = _with_items(chosen[:limit], units)
    subject = stems(listing_subject(parsed.original_question) or " ".join(parsed.keywords))
    if parsed.intent == "listing" and all(
        label != ITEM_LABEL and counts_without_items(u.text, subject) for label, u in chosen
    ):
        return [], uncovered  # a count or a lead alone names none of the items asked: its passage is only the closest
    return chosen, uncovered


def _with_items(chosen: list[tuple[str, Unit]], units: list[Unit]) -> list[tuple[str, Unit]]:
    """Each chosen sentence that ends in a colon is followed by the items it announces (``lists``): quoted
    alone, "The plan covers the following:" says only that something follows."""
    result: list[tuple[str, Unit]] = []
    leading = list_leads(units)
    for label, unit in chosen:
        if any(unit is u for _, u in result):
            continue
        result.append((label, unit))
        if id(unit) in leading:
            result += [(ITEM_LABEL, u) for u in items_after(unit, units) if all(u is not x for _, x in result)]
    return result


# --------------------------------------------------------------------------------------------
# The answer
# --------------------------------------------------------------------------------------------


STRONGEST_UNITS = 6
"""New vocabulary is read from the chunks of this many best-scoring sentences, not from every match."""


def _strongest_chunks(
    ranked: Sequence[Unit], evidence: Sequence[EvidenceItem], chosen: Sequence[tuple[str, Unit]] = ()
) -> list[EvidenceItem]:
    """The chunks the answer quotes (a listing's items first), then those of the best-scoring sentences."""
    ids = dict.fromkeys(u.item.chunk_id for _, u in chosen)
    ids.update(dict.fromkeys(u.item.chunk_id for u in ranked[:STRONGEST_UNITS] if u.coverage > 0))
    by_id = {e.chunk_id: e for e in evidence}
    return [by_id[cid] for cid in ids if cid in by_id]


def extract_answer(
    question: str,
    parsed: ParsedQuestion,
    evidence: Sequence[EvidenceItem],
    max_sentences: int = 5,
    max_citations: int = 6,
    best_effort: bool = False,
) -> AnswerWithEvidence:
    """An extractive answer to ``question`` from ``evidence`` with its feedback signals. With
    ``best_effort``, the best passages are chosen even when none holds enough of the question's terms;
    such an answer keeps the caveat saying so, its rule confidence stays capped and it is never complete."""
    units = split_units(evidence)
    score_units(units, parsed)
    ranked = sorted(units, key=lambda u: -u.score)
    best = ranked[0] if ranked else None
    matched = any(u.coverage >= MIN_OVERLAP or u.anchor_coverage >= 0.5 for u in ranked) and (
        best is not None and best.weighted_coverage >= MIN_WEIGHTED
    )  # the question's rarest terms must be in the best passage, not only its common ones
    if any(side.doc_id for side in parsed.sides):
        matched = bool(ranked)  # each document's side is judged on its own passages (``_side_units``)
    found = matched or (best_effort and best is not None and best.coverage > 0)
    chosen, uncovered = select_units(units, parsed, max_sentences) if found else ([], [s.label for s in parsed.sides])
    chosen = distinct(chosen)
    pending = unresolved_references(parsed, units, evidence)
    question = focus(question).content  # "Round to two decimals." is not a part of the question to cover
    question_stems = stems(question) | {s for k in parsed.keywords for s in stems(k)}
    bad_pages = garbled_pages(evidence)
    expected, found_count = announced_count(parsed, units, evidence)
    if parsed.intent == "listing":
        found_count = max(found_count or 0, listed_count(chosen))
    count_short = expected is not None and found_count is not None and found_count < expected
    parts = parsed.parts or question_parts(question)
    if chosen and not any(side.doc_id for side in parsed.sides):  # document sides cover their parts themselves
        chosen = cover_clauses(parts, parsed, units, chosen, max_citations)
    # a table row is read with its header row, a passage with its section title; the clause sentences
    # added for the question's other parts are part of the answer
    chosen_text = " ".join(f"{u.text} {u.caption} {u.lead_in} {' '.join(u.item.section_path[-1:])}" for _, u in chosen)
    anchors = [a for a in parsed.retrieval.anchor_keywords if not find_references(a)] or list(parsed.keywords)
    anchor_cov = coverage(own_terms(term_stems(anchors), evidence), stems(chosen_text)) if chosen else 0.0
    doc_sides = [s for s in parsed.sides if s.doc_id]
    if doc_sides and chosen:  # each document side's quote was chosen for holding the side's aspect (its terms
        # or their document words: ``side_aspect``); its label is named by its document: coverage is per side
        anchor_cov = 1.0 - len(uncovered) / len(doc_sides)
    needed = needed_references(pending, parsed, [u.text for _, u in chosen])
    caveats = extract_caveats(matched, uncovered, expected, found_count, needed, bad_pages, anchor_cov, evidence)
    missing_parts = uncovered_parts(parts, [u for _, u in chosen], units)
    if missing_parts:
        caveats = (*caveats, caveat(K.PARTS_UNCOVERED, "; ".join(missing_parts)))
    no_items = parsed.intent == "listing" and not found_count
    complete = (matched and not uncovered and not count_short and not needed and not bad_pages and anchor_cov >= 0.5
                and not missing_parts and not no_items)  # fmt: skip
    side_share = 1.0 - len(uncovered) / len(parsed.sides) if parsed.sides else 1.0
    second = ranked[1].score if len(ranked) > 1 else 0.0
    # any pending reference of a relevant passage lowers the confidence (more may be there); only one the
    # answer's own lines or the question point to keeps it from being complete
    problems = len(uncovered) + int(count_short) + int(bool(pending)) + int(bool(bad_pages)) + len(missing_parts)
    confidence = (
        extractive_confidence(best, second, anchor_cov, side_share, problems)
        if matched
        else min(0.2, extractive_confidence(best, second, 0.0, 0.0, problems))
    )
    counted = parsed.intent == "listing" and expected is not None and found_count == expected  # the count announced
    if not counted:
        confidence = round(confidence * EXTRACTIVE_SCALE, 3)
    citations = tuple(
        dict.fromkeys(
            Citation(chunk_id=u.item.chunk_id, doc_id=u.item.doc_id, page=u.item.page, quote=u.text) for _, u in chosen
        )
    )[: max_citations + listed_count(chosen)]  # a list's items are each cited
    if not chosen:  # no answer: show the closest passages, marked as support
        citations = closest_citations(ranked)
    return AnswerWithEvidence(
        text=with_verdict(parsed, chosen, render(parsed, chosen, units)) if chosen else NOT_FOUND,
        citations=citations,
        answer_found=bool(chosen),
        complete_answer_found=complete and bool(chosen),
        confidence=confidence,
        caveats=caveats,
        discovered_keywords=discovered_keywords(_strongest_chunks(ranked, evidence, chosen), question_stems),
        pending_references=pending,
        context_structured=not bad_pages,
        garbled_pages=bad_pages,
        expected_count=expected,
        found_count=found_count,
        uncovered_sides=tuple(uncovered),
    )


__all__ = ["NOT_FOUND", "extract_answer", "reference_present"]
