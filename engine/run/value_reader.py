"""Value answers, for any backend: the value read from the best pages' table rows and sentences.

When the question asks for a value (an amount, a share, a count, a date, a rate) or for arithmetic on
stated values, code reads it from the whole pages the run's strongest evidence sits on (a table's
header row and scale caption may sit in another chunk than its rows), per document side when the
question spans several documents. The value leads the answer with its label, period and scale, its
row or sentence is cited, and "complete" follows from what was found: a value whose label names the
metric and whose period is the one asked, every input of a computation, every side. An input the
evidence lacks is named; the loop looks for it next.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import replace

from engine.contracts import AnswerWithEvidence, Citation, ComparisonSide, QuestionPart
from engine.contracts import CaveatKind as K
from engine.contracts.caveats import Caveat, caveat, without
from engine.documents.text import stems
from engine.reading.answer_shape import asked_form
from engine.reading.answer_type import expected_type, value_never_answers
from engine.reading.changes import asks_relative, asks_relative_gap
from engine.reading.counts import counted_phrase
from engine.reading.formulas import operands, parse_formula
from engine.reading.line_items import line_item_names, names_reporting_term, standard_definition
from engine.reading.periods import YEAR, periods_in, without_periods
from engine.reading.question_sides import period_change, without_change_words
from engine.reading.section_pick import summed_searches
from engine.reading.side_numbers import numbers_of_other_sides, side_rows
from engine.reading.table_values import Cell
from engine.reading.thresholds import Threshold, asked_threshold, meets, value_question
from engine.reading.value_answer import (
    VARIANT_DOUBT,
    ValueAnswer,
    answer_from_cells,
    counted_things,
    is_amount,
)
from engine.run.evidence import RunState
from engine.run.side_difference import Pair, difference, exact, one_sentence, parallel_sentences, same_line_item
from engine.run.value_checks import holds
from engine.run.value_pages import value_cells

logger = logging.getLogger(__name__)

HELD_BACK_MARGIN = 0.1
"""How far under the claim line (``generation.min_claim_confidence``) a value answer a check holds back
is put: it is then shown as the closest evidence, with what is missing, not as an answer."""


def value_searches(state: RunState) -> tuple[list[str], list[str]]:
    """One search per input of the computation the question asks for, by the names filings give it:
    each input may sit in another statement than the question's words find. (queries, chunk ids added)"""
    if state.top_k is not None:  # the peer baseline retrieves its fixed top-k only
        return [], []
    formula = parse_formula(_content(state), standard_definition)
    queries: list[str] = []
    added: list[str] = []
    phrases = operands(formula)
    if formula is None and state.parsed.asks_for_value and line_item_names(_content(state)):
        phrases = [_content(state)]  # a line item asked by its analysts' name: search for the names filings use
    phrases += summed_searches(_content(state))  # "the largest liability": the rows "Total liabilities" sums
    phrases += [p for p in [counted_phrase(_content(state))] if p]  # "how many employees": the count's sentence
    logger.debug("value searches for %s", phrases)
    for phrase in phrases:
        names = line_item_names(phrase)
        # the statement titles the question's terms imply lift a statement's page over prose mentions
        own = names if phrase == _content(state) else [phrase]
        query = " ".join(dict.fromkeys([*own, *names, *state.parsed.retrieval.expansions]))
        added += state.search(query, k=state.config.retrieval.top_k, use_dense=False)
        state.value_chunks += [cid for cid in state.last_hits if cid not in state.value_chunks]
        queries.append(query)
    return queries, added


def asks_for_value(state: RunState) -> bool:
    """The question asks for a value, or for arithmetic on values (not a yes/no, which or why question)."""
    content = _content(state)
    if parse_formula(content, standard_definition) is not None or asked_threshold(state.parsed.original_question):
        return True  # arithmetic, or a value compared with a number the question states
    if value_never_answers(content) or _asks_date(content):
        return False
    return state.parsed.asks_for_value or bool(_WHAT_AMOUNT.match(content) and names_reporting_term(content))


_WHEN = re.compile(r"^\s*when\s+(?:was|were|is|are|did|does|do|will|would|has|have|had|can)\b", re.I)
"""A question that asks when ("When was the survey run?"), not one that opens with a clause ("When reading the ferry
log, how far did ...")."""


def _asks_date(content: str) -> bool:
    """A "when" question asking for a date ("When was the survey conducted?"): no number a value reads answers it."""
    return bool(_WHEN.match(content)) and expected_type(content) == "date"


_WHAT_AMOUNT = re.compile(r"^\s*(?:what|how much)\s+(?:is|was|were|are|did)\b", re.I)
"""A question that asks what a line item or a metric was ("What was the adjusted EBITDA for FY2031?"): a
financial line item is an amount, so naming one in a "what was" question asks for its value even without
a word like "amount" or "revenue" (definitions are asked "what does ... mean", or of no line item)."""


def _content(state: RunState) -> str:
    """The question without the answer-format instructions the parse set aside (and without the number a yes/no
    question compares the value with: "Was the margin above 45%?" reads the margin)."""
    text = state.parsed.original_question
    for instruction in state.parsed.instructions:
        text = text.replace(instruction, " ")
    text = " ".join(text.split())
    threshold = asked_threshold(text)
    return value_question(text, threshold) if threshold else text


def _entity_words(state: RunState) -> list[str]:
    """Words that name the documents' issuers ("3M", "AMCOR"): never a line item's name."""
    words: list[str] = []
    for index in state.indexes:
        stem = re.sub(r"\.pdf$", "", index.doc.file_name, flags=re.I)
        words += [w for w in re.split(r"[_\W]+", stem) if len(w) >= 2 and not any(c.isdigit() for c in w)]
    return words


def _pairs(state: RunState) -> list[Pair]:
    """What needs a value of its own: each side (document or named) times each part (aspect); a
    computation the question asks for is one value (its periods are its inputs', not sides)."""
    if parse_formula(_content(state), standard_definition) is not None:
        documents = [side for side in state.parsed.sides if side.doc_id]
        if documents and all(periods_in(side.label) for side in documents):
            return [(None, None)]  # one figure's periods, one document each: its inputs are read across them
        return [(side, None) for side in documents] or [(None, None)]
    sides: list[ComparisonSide | None] = list(state.parsed.sides) or [None]
    parts: list[QuestionPart | None] = list(state.parsed.parts) if state.parsed.sides and state.parsed.parts else [None]
    return [(side, part) for side in sides for part in parts]


def _side_content(state: RunState, side: ComparisonSide | None) -> str:
    """The question as one side named in it asks it: the other sides' names left out, so "FY2021" of
    "the tax rate in FY2022 compared to FY2021" reads the 2021 column, not the 2022 one."""
    content = _content(state)
    if side is None:
        return content
    content = _own_period(content, side, state.parsed.sides)
    for other in state.parsed.sides:
        if other.label != side.label and side.label not in other.label:
            content = re.sub(rf"(?<!\w){re.escape(other.label)}(?!\w)", " ", content)
    return content


def _own_period(content: str, side: ComparisonSide, sides: Sequence[ComparisonSide]) -> str:
    """The question with the periods of the other sides' clauses left out, when each side's clause (from its
    name to the next side's) names one period of its own and none comes before the first side: "Did A's 2030
    sales top B's 2031 sales?" asks A's 2030 and B's 2031, not both years of both."""
    starts = sorted((m.start(), s.label) for s in sides if (m := re.search(rf"(?<!\w){re.escape(s.label)}", content)))
    if len(starts) != len(sides) or len(sides) < 2 or periods_in(content[: starts[0][0]]):
        return content
    if any(periods_in(s.label) for s in sides):
        return content  # sides that are periods ("FY2030 against FY2031") are read by their labels
    bounds = [*(start for start, _ in starts), len(content)]
    clauses = {label: content[bounds[i] : bounds[i + 1]] for i, (_, label) in enumerate(starts)}
    if any(len(periods_in(clause)) != 1 for clause in clauses.values()):
        return content
    own = (clause if label == side.label else without_periods(clause) for label, clause in clauses.items())
    return content[: starts[0][0]] + "".join(own)


def names_another_side_only(cell: Cell, side: ComparisonSide, sides: Sequence[ComparisonSide]) -> bool:
    """Whether a cell's row or sentence (with its column) names another side of the comparison and not ``side``:
    "The Harbour segment's revenue was $9 billion" is no figure of the Inland segment. Words every side's name
    shares ("segment") tell nothing apart."""
    labels = [stems(s.label) for s in sides]
    shared = frozenset.intersection(*map(frozenset, labels)) if labels else frozenset()
    own = stems(side.label) - shared
    others = set().union(*(stems(s.label) for s in sides if s.label != side.label)) - shared - own
    said = stems(f"{cell.label} {cell.column}")
    return bool(own) and bool(said & others) and not said & own


def _pair_question(state: RunState, side: ComparisonSide | None, part: QuestionPart | None) -> tuple[str, list[str]]:
    """The question one pair asks, and its metric terms: the part's words for a part ("endurance of the
    Heron 2"), the question's own otherwise."""
    if part is None:
        keywords = list(state.parsed.keywords)
        if side is not None and (side.doc_id or not periods_in(side.label)):
            # a document's or a named thing's name says whose figure it is, never what the metric is called
            keywords = _without_names(keywords, [s.label for s in state.parsed.sides])
        if side is not None and period_change(state.parsed.original_question):  # each period's value of the metric
            keywords = [k for k in map(without_change_words, keywords) if k]
        return _side_content(state, side), keywords
    subject = f" of the {side.label}" if side is not None and side.doc_id is None else ""
    periods = " ".join(p for p in re.findall(rf"\b(?:FY\s?)?{YEAR}\b", _content(state)))
    return f"What is the {part.text}{subject} {periods}".strip() + "?", list(part.keywords)


def _without_names(keywords: list[str], names: list[str]) -> list[str]:
    """``keywords`` with the documents' side names taken out ("Kestrel Air in 2031" -> "2031"), empty ones dropped."""
    out = []
    for keyword in keywords:
        for name in names:
            keyword = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", " ", keyword, flags=re.I)
        if stems(keyword) or periods_in(keyword):
            out.append(" ".join(keyword.split()))
    return out


def with_value(answer: AnswerWithEvidence, state: RunState) -> AnswerWithEvidence:
    """``answer`` led by the values the question asks for, when the evidence holds them (module doc).

    A question phrased as a value question, or asking for arithmetic, takes the best value read; any
    other (a comparison's aspects, "the wingspan of the Heron 2") only a table row or sentence whose
    label names the metric whole for what is asked."""
    state.value_missing = []
    if state.top_k is not None:  # the peer baseline answers as its peers do: no value reading
        return answer
    explicit = asks_for_value(state)
    if not explicit and state.parsed.intent not in ("single_fact", "comparison"):
        return answer
    compares = state.parsed.intent == "comparison" or len(state.parsed.sides) > 1
    if not explicit and not compares and value_never_answers(_content(state)):
        return answer  # "Were there events that raised net income?" is not answered by the net income row
    if not explicit and asked_form(_content(state))[0] not in (None, "kind"):
        return answer  # "What is gated pooling?" asks what it is (or "why ...?" a cause), not a table cell
    if _asks_date(_content(state)):
        return answer  # "When was the survey conducted?" asks a date: the survey's sample size is no answer
    pairs = _pairs(state)
    gap_in_percent = len(state.parsed.sides) > 1 and asks_relative_gap(state.parsed.original_question)
    found: list[tuple[Pair, ValueAnswer]] = []
    candidates: list[tuple[Pair, ValueAnswer]] = []
    for side, part in pairs:
        question, keywords = _pair_question(state, side, part)
        cells = value_cells(state, side.doc_id if side else None)
        if side is not None and side.doc_id is None:
            cells = [c for c in cells if not names_another_side_only(c, side, state.parsed.sides)]
            labels = [s.label for s in state.parsed.sides]
            others = numbers_of_other_sides(cells, side.label, labels)
            cells = [c for c in cells if (c.chunk_id, c.label, c.position) not in others]
            if not periods_in(side.label):  # a period side is a column of every row
                cells = side_rows(cells, side.label, labels)
        value = answer_from_cells(
            question, keywords, line_item_names, cells, _entity_words(state), asked_as=state.parsed.original_question
        )
        logger.debug("value from %d cells -> %s", len(cells), value)
        if value is not None and side is not None and gap_in_percent and value.cells and is_amount(value.cells[0]):
            value = replace(value, kind_ok=True)  # each side's amount; their gap is the percentage asked
        if value is not None and value.missing:
            state.value_missing += [m for m in value.missing if m not in state.value_missing]
        if value is not None and value.statement:
            candidates.append(((side, part), value))
            if explicit or _strict_ok(value):
                found.append(((side, part), value))
    if compares and len(found) < len(candidates) == len(pairs) > 1 and _alike(candidates):
        found = candidates  # each side's figure of one measure: the same row, or sentences saying the same of each
    if _one_cell_for_all_sides(found):
        found = []  # two things compared cannot both be one figure: it is neither's own (a total, a shared row)
    if not found:
        if state.value_missing:
            note = caveat(K.VALUES_MISSING, "; ".join(state.value_missing))
            return answer.model_copy(update={"caveats": (*answer.caveats, note), "complete_answer_found": False})
        return answer
    threshold = asked_threshold(state.parsed.original_question)
    if threshold and _verdict(threshold, found) is None:
        return answer  # the value read is not of the kind compared ("more than 20% of revenue" is no amount)
    return _merged(answer, state, found, len(pairs))


def _verdict(threshold: Threshold, found: list[tuple[Pair, ValueAnswer]]) -> bool | None:
    """Whether the one value read compares with the question's number as asked; None when it cannot be compared."""
    return meets(threshold, found[0][1].cells[0]) if len(found) == 1 == len(found[0][1].cells) else None


def _alike(found: list[tuple[Pair, ValueAnswer]]) -> bool:
    return same_line_item(found) or parallel_sentences(found) or one_sentence(found)


def _one_cell_for_all_sides(found: list[tuple[Pair, ValueAnswer]]) -> bool:
    """Whether two or more named sides were all read from the very same cell (same row, same column; in a
    sentence, the same number: "33% for 2041, against 27% for 2040" states one for each)."""
    sides = {pair[0].label for pair, _ in found if pair[0] is not None}
    cells = {(c.chunk_id, c.label, c.column, c.position) for _, v in found if len(v.cells) == 1 for c in v.cells[:1]}
    return len(sides) > 1 and len(found) == len(sides) and len(cells) == 1 and all(len(v.cells) == 1 for _, v in found)


def _strict_ok(value: ValueAnswer) -> bool:
    """A value for a question not phrased as one: its label names the metric whole, for what is asked."""
    return value.label_cover >= 0.99 and value.period_ok and not value.missing


def _line(pair: Pair, value: ValueAnswer) -> str:
    side, _ = pair
    if side is None or side.label.lower() in value.statement.lower():
        return value.statement
    return f"{side.label}: {value.statement}"


def _merged(
    answer: AnswerWithEvidence, state: RunState, found: list[tuple[Pair, ValueAnswer]], wanted: int
) -> AnswerWithEvidence:
    lines, citations = [], []
    relative = asks_relative(state.parsed.original_question)
    for part in dict.fromkeys(pair[1] for pair, _ in found):  # each part's sides together, then their difference
        group = [f for f in found if f[0][1] == part]
        if one_sentence(group):  # each side's number, their difference, and the sentence stating both, once
            quote = group[0][1].cells[0].quote
            lines += [f"{p[0].label}: {v.cells[0].display()}" for p, v in group if p[0] is not None]
            lines += [*difference(group, relative), f"“{quote}”"]
            continue
        lines += [_line(pair, value) for pair, value in group] + difference(group, relative)
    threshold = asked_threshold(state.parsed.original_question)
    verdict = _verdict(threshold, found) if threshold else None
    if threshold and verdict is not None:  # "Was the margin above 45%?": Yes or No, then the value read
        lines[0] = f"{'Yes' if verdict else 'No'}: {lines[0]} (asked: {threshold.text})"
    for _, value in found:
        for cell in value.cells:
            citations.append(Citation(chunk_id=cell.chunk_id, doc_id=cell.doc_id, page=cell.page, quote=cell.quote))
    # where else the filing prints the values: cited last, so they never push out the evidence the answer rests on
    also = [
        Citation(chunk_id=c.chunk_id, doc_id=c.doc_id, page=c.page, quote=c.quote) for _, v in found for c in v.also
    ]
    all_exact = all(exact(v) for _, v in found) and len(found) == wanted
    rest = [c for c in answer.citations if all(c.chunk_id != v.chunk_id or c.quote != v.quote for v in citations)]
    # the extractive text stays below the values only where a side or part has no value of its own
    kept = answer.text if answer.answer_found and len(found) < wanted else ""
    text = "\n".join([*lines, *([kept] if kept else [])])
    checks = holds(answer, state.parsed, [v for _, v in found], citations, len(lines) - len(found))
    confidence = _confidence([v for _, v in found], all_exact, wanted)
    if checks.blocked:  # what holds the answer back is also what makes it unsure: below the claim line
        confidence = min(confidence, round(state.config.generation.min_claim_confidence - HELD_BACK_MARGIN, 3))
    counts = counted_things(state.parsed.original_question) is not None
    # the values read state numbers (and a Yes or No where one is asked): the extractive answer's doubt is moot
    moot = {
        caveat(K.TYPE_NOT_STATED, "number"),
        *([caveat(K.TYPE_NOT_STATED, "yes_no")] if _YES_NO.match(text) else []),
    }
    caveats = (*(c for c in checks.caveats if c not in moot), *(c for _, v in found for c in _value_caveats(v, counts)))
    if all_exact or _exact_but_for_a_variant(found, wanted):
        # the values read name the metric asked: the passages' match with the question's words is moot
        caveats = without(caveats, K.UNMATCHED, K.PARTIAL_MATCH)
    return answer.model_copy(update={
        "text": text, "citations": tuple(dict.fromkeys([*citations, *rest, *also])), "answer_found": True, "caveats": caveats,
        "confidence": confidence, "uncovered_sides": checks.uncovered,
        "complete_answer_found": all_exact and not checks.blocked and not state.value_missing,
    })  # fmt: skip


_YES_NO = re.compile(r"^(?:Yes|No): ")
"""A computed change that answers a yes/no question whether an item moved (``computed_text``)."""


def _exact_but_for_a_variant(found: list[tuple[Pair, ValueAnswer]], wanted: int) -> bool:
    """Every value read would be exact but for one doubt: a textbook variant of its metric gives another value
    (``value_answer._beside_other_definitions``). It names the metric asked; which measure is the analyst's call,
    so it is stated, doubted, under the claim line, not declined."""
    values = [v for _, v in found]
    return (
        bool(values)
        and len(values) == wanted
        and all(
            v.doubts and exact(replace(v, doubts=())) and all(d.startswith(VARIANT_DOUBT) for d in v.doubts)
            for v in values
        )
    )


def _value_caveats(value: ValueAnswer, counts: bool) -> list[Caveat]:
    """What keeps a value from being the one asked (``counts``: the question asks how many things)."""
    label = value.unsure or (value.cells[0].label if value.cells else "the value")
    notes = []
    if not value.kind_ok:
        notes.append(caveat(K.VALUE_NOT_COUNT if counts else K.VALUE_NOT_RATIO, label))
    if value.narrower:
        notes.append(caveat(K.VALUE_NARROWER, label))
    if value.doubts:
        notes.append(caveat(K.VALUE_DOUBTFUL, label, "; ".join(value.doubts)))
    if not value.period_ok:
        row = bool(value.cells) and value.cells[0].is_row
        notes.append(caveat(K.VALUE_NO_PERIOD, label if row else ""))
    return notes


def _confidence(found: list[ValueAnswer], all_exact: bool, wanted: int) -> float:
    """High only when every side's value names the metric for the period asked; lower for a partial
    label, an unchecked period, a narrower row, an amount where a ratio is asked, or a missing side."""
    covers = [
        v.label_cover
        * (1.0 if v.period_ok else 0.6)
        * (1.0 if v.kind_ok else 0.4)
        * (0.6 if v.narrower else 1.0)
        * (0.6 if v.doubts else 1.0)  # a doubt of statement sense weighs as a narrower row does
        for v in found
    ]
    share = len(found) / max(1, wanted)
    value = (sum(covers) / len(covers)) * share * (0.9 if all_exact else 0.7)
    return round(min(0.95, max(0.05, value)), 3)
