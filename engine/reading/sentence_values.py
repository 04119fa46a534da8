"""Numbers stated in prose, and every value of a page: its table cells and its stated numbers.

A sentence that states a number ("capital spending was $1.6 billion in 2018") yields a ``Cell`` with the
sentence as its label; ``cells_in`` reads a page's tables (``table_values``) and its sentences. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from itertools import pairwise

from engine.contracts import EvidenceItem
from engine.documents.layout import ROW_SEPARATOR
from engine.documents.text import SPELLED_NUMBER, SPELLED_NUMBERS, reference_spans, split_sentences, stems
from engine.reading.list_counts import item_counts
from engine.reading.measures import UNITS_AFTER_NUMBER
from engine.reading.number_lists import listed_measure, respectively
from engine.reading.periods import Period, periods_in
from engine.reading.table_values import NUMBER, Cell, is_amount, parse_number, table_cells

_COUNT_NOUN = re.compile(r"\s?((?:[a-z][a-z\-]+\s|[A-Z][A-Za-z]*\d[\w\-]*\s){0,2}(?:[a-z][a-z\-]+s|[A-Z]{2,}s))\b")
"""The plural noun (with up to two modifiers) a bare number counts: "64 survey flights", "12 stations", "8 parallel
attention layers"; a model designation may be one of the modifiers and an acronym the noun ("eight K80 GPUs")."""


def counted_words(text: str) -> list[str]:
    """What each number of ``text`` measures or counts: the unit printed after it ("83,700 employees"), else the
    plural noun right after it, one modifier allowed ("12 regional offices")."""
    words = []
    for m in NUMBER.finditer(text):
        counted = m.group("measure") or (noun.group(1) if (noun := _COUNT_NOUN.match(text, m.end())) else "")
        if counted:
            words.append(counted)
    return words


def _measured(number: re.Match[str], references: Sequence[tuple[int, int]]) -> bool:
    """A decimal number ("a score of 28.4", "a rate of 0.1") is a measured value, not a label ("Item 7", "3
    segments"); one inside a structural reference ("Section 3.5", "Table 2.1") is a label."""
    return (
        "." in number.group("num")
        and not _in_reference(number, references)
        and not _HEADING_NUMBER.match(number.string, number.start())
    )


_HEADING_NUMBER = re.compile(r"(?<![^\n])\d+(?:\.\d+)+\.?\s+[A-Z]")
"""A section number opening a line, before its title ("5.1 Results on TimeQA"): a heading's label, not a value."""


def _in_reference(number: re.Match[str], references: Sequence[tuple[int, int]]) -> bool:
    return any(start <= number.start("num") < end for start, end in references)


def sentence_cells(item: EvidenceItem) -> list[Cell]:
    """Numbers stated in the prose of ``item``: each with its sentence as the label."""
    prose = "\n".join(line for line in item.text.split("\n") if ROW_SEPARATOR not in line)
    found: list[Cell] = []
    for sentence in split_sentences(prose):
        found += _own_periods(sentence, respectively(sentence, listed_measure(sentence, _stated(item, sentence))))
    return found


def _own_periods(sentence: str, cells: list[Cell]) -> list[Cell]:
    """ "a margin of 33% for 2041, against 27% for 2040": each number is of the one period its sentence ties it
    to, when every figure of one kind (the same unit and scale) in the sentence is tied to another period: each
    followed by a period of its own before the next such figure, or each in a clause naming one period of its
    own ("We ended 2041 with 6.2 million members, up from 3.5 million at the end of 2040"). A figure of
    another kind ("up 8% from 2040" beside amounts) keeps every period the sentence names."""
    groups: dict[tuple[str, str], list[Cell]] = {}
    for cell in cells:
        groups.setdefault((cell.unit, cell.scale), []).append(cell)
    owned: dict[int, tuple[Period, ...]] = {}
    for group in groups.values():
        if len(group) >= 2 and all(len(c.periods) >= 2 for c in group):
            ordered = sorted(group, key=lambda c: c.position)
            own = _periods_after(sentence, ordered) or _periods_by_clause(sentence, ordered)
            owned.update({id(c): p for c, p in zip(ordered, own, strict=False)})
    return [replace(c, periods=owned[id(c)]) if id(c) in owned else c for c in cells]


_PERIOD_CLAUSE = re.compile(r";\s*|,\s+(?![\d'])|\s+(?:while|whereas)\s+", re.I)
"""Where a sentence's clauses meet, for the period each clause names: at any comma (one before a year continues a
date: "December 31, 2041"), not only where it turns to another measure (``_CLAUSE_BREAK``)."""


def _periods_after(sentence: str, ordered: list[Cell]) -> list[tuple[Period, ...]]:
    """Each figure's one period printed after it and before the next figure; [] unless each has one, all distinct."""
    ends = [c.position for c in ordered[1:]] + [len(sentence)]
    own = [periods_in(sentence[c.position : end]) for c, end in zip(ordered, ends, strict=True)]
    return own if all(len(p) == 1 for p in own) and len({p[0] for p in own}) == len(own) else []


def _periods_by_clause(sentence: str, ordered: list[Cell]) -> list[tuple[Period, ...]]:
    """Each figure's one period named in its own clause; [] unless each clause names one, all distinct."""
    bounds = [0, *(m.end() for m in _PERIOD_CLAUSE.finditer(sentence)), len(sentence) + 1]
    clauses = [next(i for i in range(len(bounds) - 1) if bounds[i] <= c.position < bounds[i + 1]) for c in ordered]
    if len(set(clauses)) < len(clauses):
        return []
    own = [periods_in(sentence[bounds[i] : bounds[i + 1]]) for i in clauses]
    return own if all(len(p) == 1 for p in own) and len({p[0] for p in own}) == len(own) else []


def _stated(item: EvidenceItem, sentence: str) -> list[Cell]:
    """The numbers ``sentence`` states (see ``sentence_cells``), each with the periods the sentence names."""
    found: list[Cell] = []
    periods = periods_in(sentence)
    references = reference_spans(sentence)
    sizes: list[int] = []
    for m in NUMBER.finditer(sentence):
        raw = m.group(0).strip()
        counted = None
        if _in_reference(m, references):
            continue  # "Table 2", "Section 3.5": a label, never a value
        if _glued(sentence, m.start("num")) and not (m.group("cur") or m.group("lead")):
            continue  # part of a name ("SetB2.0", "CO2") or a note's marker ("in discovery.120"), not a value
        kilo = _thousands(sentence, m)
        if kilo is not None:
            counted = _COUNT_NOUN.match(sentence, m.end() + 1) if kilo else None
        elif not is_amount(raw) or not (
            m.group("cur")
            or m.group("lead")
            or m.group("pct")
            or m.group("word")
            or m.group("measure")
            or "," in raw
            or _measured(m, references)
        ):
            counted = _COUNT_NOUN.match(sentence, m.end()) if is_amount(raw) else None
            if counted is None:
                continue  # a bare small number ("Item 7", "3 segments") is not a stated amount
        parsed = parse_number(raw)
        if parsed is None:
            continue
        value, unit, word, text = parsed
        if kilo is not None:
            word, text = "thousand", f"{text}k"
        if value < 0 and _restated(sentence, m.start(), -value):
            value, text = -value, text.strip("()")
        low = range_low(sentence, m.start("num"))
        if low and value < 0:  # "10–15 minutes": the dash joins the range's ends, it is no minus sign
            value, text = -value, text.lstrip("-–—− ")
        if _SAMPLE_SIZE.search(sentence[: m.start()]):
            sizes.append(m.start())
        found.append(
            Cell(
                chunk_id=item.chunk_id, doc_id=item.doc_id, page=item.page, label=sentence, column="",
                raw=text, value=value, scale=word, unit=unit, periods=periods, quote=sentence, is_row=False,
                measure=counted.group(1) if counted else m.group("measure") or "",
                context=" ".join(item.section_path), position=m.start(), bare=counted is not None,
                bound=f"{low} to" if low else "",
            )
        )  # fmt: skip
    found += _spelled(item, sentence, periods)
    return [c for c in found if c.position not in sizes] if len(sizes) < len(found) else found


def _glued(sentence: str, start: int) -> bool:
    """Digits glued to the letters before them, or to a word's closing full stop (a superscript reference)."""
    before = sentence[max(0, start - 2) : start]
    return bool(before) and (before[-1].isalpha() or (len(before) == 2 and before[0].isalpha() and before[1] == "."))


_KILO = re.compile(r"[kK](?![\w.,])")


def _thousands(sentence: str, number: re.Match[str]) -> bool | None:
    """Whether a number written in thousands with a "k" counts things ("35k queries": True) or is money ("$50k":
    False); None for any other number. One digit before a "K" is a name ("4K videos", a "5K run"), not a count."""
    if number.group("word") or number.group("pct") or not _KILO.match(sentence, number.end()):
        return None
    if re.fullmatch(r"\d", number.group("num")):
        return None
    if _COUNT_NOUN.match(sentence, number.end() + 1):
        return True
    return False if number.group("cur") or number.group("lead") else None


_SAMPLE_SIZE = re.compile(r"(?<![A-Za-z])[nN]\s*=\s*$")
"""A sample's size as statistics annotates it ("(n=1,526)", "N = 240"): the count of observations behind a
figure the sentence states, not that figure. When the sentence states another number, the size is dropped
("The error margin for members (n=812) is 3.4 points" states 3.4); alone, it stays (a count of the sample)."""


_SPELLED_BEFORE = re.compile(rf"\b(?P<word>{SPELLED_NUMBER})\s*$", re.I)


def _restated(sentence: str, start: int, value: float) -> bool:
    """A number in parentheses right after the same number spelled out ("six (6) presets", "thirty (30)
    days") restates it, as contracts and manuals write; it is no negative amount."""
    before = _SPELLED_BEFORE.search(sentence[:start])
    return before is not None and SPELLED_NUMBERS.get(before.group("word").lower()) == value


_RANGE_LOW = re.compile(rf"(?:\b(?P<word>{SPELLED_NUMBER})|(?<![\d.,])(?P<num>\d+(?:\.\d+)?))\s*(?:to|-|–|—)\s*$", re.I)
"""The low end of a range written before its high end ("one to two weeks", "3-5 days", "10 to 15 minutes")."""


def range_low(sentence: str, start: int) -> str | None:
    """The low end, in digits, of a range whose high end starts at ``start`` ("one to two weeks" -> "1"), else
    None: such a number is a range's end, and is stated with its start."""
    found = _RANGE_LOW.search(sentence[:start]) if start else None
    if found is None:
        return None
    return found.group("num") or str(SPELLED_NUMBERS[found.group("word").lower()])


_SPELLED_MEASURE = re.compile(
    rf"\b(?P<word>{SPELLED_NUMBER})[\s-](?P<measure>"
    + "|".join(re.escape(unit) for unit in sorted(UNITS_AFTER_NUMBER, key=len, reverse=True))
    + r")(?![\w/])",
    re.I,
)
"""A number written as a word before a unit of measure ("within two hours", "a five-year term"): prose spells
out small numbers, and the unit says what it measures."""


_SPELLED_COUNT = re.compile(rf"\b(?P<word>{SPELLED_NUMBER})(?=\s)", re.I)
_NOT_COUNTS = frozenset(("one", "hundred", "thousand", "dozen"))
"""Spelled numbers that count nothing on their own: "one" is no plural's count ("one of the datasets"), and the
others are scales of a number written before them."""


def _spelled(item: EvidenceItem, sentence: str, periods: tuple[Period, ...]) -> list[Cell]:
    """The spelled numbers ``sentence`` states with a unit of measure ("within two hours"), and those counting the
    plural noun after them ("across seven coastal reefs": prose spells out small counts), as cells like its
    digits'; a count is bare, read only for a question counting its noun."""
    found = [(m, m.group("measure"), False) for m in _SPELLED_MEASURE.finditer(sentence)]
    measured = {m.start() for m, _, _ in found}
    for m in _SPELLED_COUNT.finditer(sentence):
        noun = _COUNT_NOUN.match(sentence, m.end())
        if m.start() not in measured and noun and m.group("word").lower() not in _NOT_COUNTS:
            found.append((m, noun.group(1), True))
    return [
        Cell(chunk_id=item.chunk_id, doc_id=item.doc_id, page=item.page, label=sentence, column="",
             raw=m.group("word"), value=float(SPELLED_NUMBERS[m.group("word").lower()]), scale="", unit="",
             periods=periods, quote=sentence, is_row=False, measure=measure,
             context=" ".join(item.section_path), position=m.start(), bare=bare,
             bound=f"{low} to" if (low := range_low(sentence, m.start())) else "")
        for m, measure, bare in found
    ]  # fmt: skip


def cells_in(pages: Sequence[Sequence[EvidenceItem]]) -> list[Cell]:
    """Every table cell and stated number of the given pages (each a page's chunks in reading order). A list's
    items are of the one period their lead names ("In 2041, the yard invested $2.6 billion, as follows:" over
    "• $2.3 billion in the docks"), where they name none of their own."""
    cells: list[Cell] = []
    for items in pages:
        cells += table_cells(items)
        lead: tuple[Period, ...] = ()
        lead_text = ""
        for item in items:
            found = sentence_cells(item)
            if item.kind == "list_item" and not found:
                found = item_counts(item, lead_text)
            if item.kind == "list_item":
                found = [c if c.periods or not lead else replace(c, periods=lead) for c in found]
                found = [replace(c, lead=lead_text) for c in found]
            else:
                lead_text = _lead_sentence(item.text)
                lead = _lead_period(lead_text)
            cells += found
    return cells


def _lead_sentence(text: str) -> str:
    """The last sentence of a passage when it leads a list (it ends in a colon), else ""."""
    sentences = split_sentences(text)
    last = sentences[-1].rstrip() if sentences else ""
    return last if last.endswith(":") else ""


def _lead_period(lead: str) -> tuple[Period, ...]:
    """The one period a list's lead names, else ()."""
    periods = periods_in(lead) if lead else ()
    return periods if len(periods) == 1 else ()


_CLAUSE_BREAK = re.compile(r",\s*(?:while|whereas|but|compared with|against)\b|;\s*", re.I)
"""Where a sentence turns to another measure: "Nearly half describe themselves as moderate, while 24% are
conservatives"; "a wingspan of 1.9 metres; the Heron 3's is 2.4 metres"."""
OTHER_CLAUSE = -1.0
"""The nearness of a number in a clause that names nothing of the metric when another clause of its sentence
does: it measures something else, and is not read as the metric at all."""


NEAR_CHARS = 25
"""How close to a number a word of the metric must be, before it or in its own phrase after it, to be near it."""


def nearness(cell: Cell, wanted: set[str]) -> float:
    """For a number in a sentence (``wanted``: the metric's stems): 0.2 when it follows one of the metric's words
    closely in its own clause ("a wingspan of 1.9 metres"); ``OTHER_CLAUSE`` when its own clause names none of them
    and another clause does; else -0.2 (the sentence's other numbers measure something else)."""
    bounds = [0, *(m.end() for m in _CLAUSE_BREAK.finditer(cell.label)), len(cell.label)]
    start, end = next(((a, b) for a, b in pairwise(bounds) if a <= cell.position < b), (0, len(cell.label)))
    for m in re.finditer(r"[A-Za-z][A-Za-z\-]*", cell.label[start:end]):
        at = start + m.end()
        if at <= cell.position and cell.position - at <= NEAR_CHARS and stems(m.group(0)) & wanted:
            return 0.2
    if _complement_of(cell.label[start : cell.position], wanted):
        return 0.2
    if (_own_phrase(cell, NEAR_CHARS) or set()) & wanted:
        return 0.2  # "27% on the reef set": the number's own phrase names the metric's qualifier
    clauses = [cell.label[a:b] for a, b in pairwise(bounds)]
    own_named = bool(stems(cell.label[start:end]) & wanted)
    if len(clauses) > 1 and cell.position >= 0 and not own_named and any(stems(c) & wanted for c in clauses):
        return OTHER_CLAUSE
    return -0.2


_COPULA = re.compile(
    r"\b(?:is|was|are|were|equals|stood at|stands at)\s+(?:(?:about|approximately|approx\.|roughly|nearly|around|"
    r"plus or minus|an estimated)\s*)?[±~]?\s*$",
    re.I,
)
"""A verb that gives its subject a value, and the hedges between it and the number ("The fare is about 4.50")."""


def _complement_of(before: str, wanted: set[str]) -> bool:
    """The number completes "<subject> is ..." and the subject names the metric: "The error margin for pilots
    (n=812) is plus or minus 3.4 points" states the margin, however far its words sit from the number."""
    verb = _COPULA.search(before)
    return verb is not None and bool(stems(before[: verb.start()]) & wanted)


_OWN_PHRASE = re.compile(
    r"[\s\d.,%$€£¥()]*(?:(?:million|billion|thousand|points?|percent|pp)\s+)?"
    r"(?P<phrase>(?:for|on|in|at|among|across|with|from|under|of|per|during)\s+[^\d;]*)",
    re.I,
)
"""The phrase a number's own preposition opens, up to the next number: "0.63 for the first task (..." ->
"for the first task (". Sentences that state several numbers tell each one's thing this way ("71% on the reef
set and 64% on the open-water set")."""


def own_words(cell: Cell) -> set[str]:
    """The stems of the phrase that says what a prose number is of (``_OWN_PHRASE``), or none: "and the
    Heron 3 reached ..." after a number names the next number's thing, not this one's. In a sentence of
    coordinated clauses, the words of the number's own clause too ("a survey of 412 pilots in Oslo, and a
    survey of 380 pilots in Bergen": Bergen is 380's)."""
    if cell.is_row or cell.position < 0:
        return set()
    phrase = _own_phrase(cell)
    own = phrase if phrase is not None else _first_word(_after_number(cell))
    return own | _own_clause_words(cell.label, cell.position)


def _own_phrase(cell: Cell, chars: int = 0) -> set[str] | None:
    """The stems of the phrase a prose number's own preposition opens (``_OWN_PHRASE``; its first ``chars``
    characters when given), None when none does."""
    found = _OWN_PHRASE.match(_after_number(cell))
    if found is None:
        return None
    phrase = found.group("phrase")
    return stems(phrase[:chars].rsplit(" ", 1)[0] if chars and len(phrase) > chars else phrase)


def _after_number(cell: Cell) -> str:
    """The text of a prose number's sentence after the number (and its unit)."""
    rest = cell.label[max(cell.position, 0) :]
    number = NUMBER.match(rest)
    return rest[number.end() if number else 0 :]


def _first_word(after: str) -> set[str]:
    """The stem of the first word after a number that is no stop word, when no preposition follows it: what the
    number does or is ("40% favored ..., while 54% were opposed": favor, oppose)."""
    for word in re.findall(r"[A-Za-z][\w\-]*", after[:60]):
        found = stems(word)
        if found:
            return found
    return set()


_COORDINATED = re.compile(r",\s*and\s|;\s")
"""Where a sentence passes to a coordinated clause of its own ("..., and a survey of 380 pilots ..."). A contrast
("40% favored it, while 54% were opposed") keeps its topic: each number is told by its own first word."""


def _own_clause_words(sentence: str, position: int) -> set[str]:
    """The stems of the coordinated clause (``_COORDINATED``) that holds ``position``; none for a one-clause sentence."""
    bounds = [0, *(m.end() for m in _COORDINATED.finditer(sentence)), len(sentence)]
    if len(bounds) == 2:
        return set()
    start, end = next(((a, b) for a, b in pairwise(bounds) if a <= position < b), (0, len(sentence)))
    return stems(sentence[start:end])
