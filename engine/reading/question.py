"""Offline question understanding: intent, keywords, hints and comparison sides from cue words and shape.

Every rule is general English / document convention; nothing here knows a particular document.
"""

from __future__ import annotations

import re

from engine.contracts import ComparisonSide, Complexity, Intent, ParsedQuestion, QuestionPart, RetrievalSpec
from engine.documents.text import (
    STOPWORDS,
    content_words,
    count_value,
    find_cardinality_cue,
    normalize_space,
    split_reference,
)
from engine.reading.answer_shape import WHERE_QUESTION, searched_topic, where_topic
from engine.reading.changes import asks_difference, without_difference_ask
from engine.reading.focus import enrich, focus
from engine.reading.lexicon import (
    CONNECTORS,
    INNER_CONNECTORS,
    MAX_KEYWORDS,
    PHRASE_BREAKERS,
    QUESTION_WORDS,
    SECTION_KINDS,
)
from engine.reading.periods import without_spans
from engine.reading.question_hints import YEARISH, layout_hint
from engine.reading.question_sides import find_sides, is_comparison, trim_side
from engine.reading.value_asks import asks_for_value
from engine.reading.words import SEGMENT_SPLIT, is_capitalised, is_generic, question_references, split_words

__all__ = ["extract_keywords", "find_sides", "parse_question", "question_references", "trim_side"]

# --------------------------------------------------------------------------------------------
# Keywords
# --------------------------------------------------------------------------------------------


def capitalised_runs(text: str) -> list[str]:
    """Runs of capitalised words ("Label Smoothing", "Bank of America", "Station B") in ``text``."""
    runs: list[str] = []
    for segment in SEGMENT_SPLIT.split(text):
        words = split_words(segment)
        current: list[str] = []
        for i, word in enumerate(words):
            if "@" in word:  # a ranked metric ("Hits@10 of TransE") is a measure of a name, never part of one
                _close_run(current, runs)
                runs += [word] if is_capitalised(word, i) else []
                current = []
                continue
            single_letter = len(word) == 1 and word.isupper() and bool(current)
            if (
                is_capitalised(word, i)
                or single_letter
                or (current and word.lower() in INNER_CONNECTORS)
                or (current and word.lower() == "the" and current[-1].lower() == "of")
            ):
                current.append(word)
            else:
                _close_run(current, runs)
                current = []
        _close_run(current, runs)
    return runs


def _close_run(current: list[str], runs: list[str]) -> None:
    while current and current[-1].lower() in CONNECTORS:
        current.pop()
    if current:
        runs.append(" ".join(current))


def _lower_phrases(text: str) -> list[str]:
    """Runs of 2-3 adjacent lower-case content words ("capital expenditure", "turbidity readings")."""
    phrases: list[str] = []
    for segment in SEGMENT_SPLIT.split(text):
        run: list[str] = []
        for word in [*split_words(segment), ""]:
            usable = word.isalpha() and word.islower() and len(word) >= 3 and not is_generic(word)
            usable = usable and word not in PHRASE_BREAKERS
            if usable:
                run.append(word)
                continue
            if len(run) in (2, 3):
                phrases.append(" ".join(run))
            elif len(run) > 3:
                phrases.extend(" ".join(run[i : i + 2]) for i in range(len(run) - 1))
            run = []
    return phrases


def extract_keywords(question: str) -> list[str]:
    """Content terms of ``question``: quoted phrases, references, named terms, noun phrases, then words."""
    found: list[str] = []
    seen: set[str] = set()

    def add(term: str) -> None:
        term = term.strip(" .'-")
        key = term.lower()
        if term and key not in seen and not is_generic(term):
            seen.add(key)
            found.append(term)

    for quoted in re.findall(r"[\"“']([^\"”']{3,60})[\"”']", question):
        add(normalize_space(quoted))
    references = question_references(question)
    for reference in references:
        add(reference)
    ref_words = {w.lower() for r in references for w in r.split()}
    first = (split_words(question) or [""])[0]
    for run in capitalised_runs(question):
        if run == first and not run.isupper() and not any(c.isdigit() for c in run):
            continue  # a sentence-initial capital ("Write", "Marsilea") is not evidence of a name
        if run.lower() not in ref_words and not set(run.lower().split()) <= ref_words:
            add(run)
    for phrase in _lower_phrases(question):
        add(phrase)
    covered = {w.lower() for term in found for w in split_words(term)} | ref_words
    for position, word in enumerate(split_words(question.replace(",", ""))):
        low = word.lower()
        if low in covered or is_generic(word) or (len(low) < 2 and not low.isdigit()):
            continue
        covered.add(low)
        add(word if is_capitalised(word, 1) and position else low)
    return found[:MAX_KEYWORDS]


# --------------------------------------------------------------------------------------------
# Hints
# --------------------------------------------------------------------------------------------


def section_hint(question: str, references: tuple[str, ...]) -> str | None:
    """The section a question names: "5.4", "Item 7", "Appendix B", or title words ("Risk Factors")."""
    for reference in references:
        kind, label = split_reference(reference)
        if kind == "Section":
            return label
        if kind in SECTION_KINDS:
            return reference
    match = re.search(r"\b(?:in|from|of|under|within)\s+the\s+([A-Za-z][\w&\- ]{1,40}?)\s+(?:section|chapter|part)\b",
                      question, re.I)  # fmt: skip
    if match:
        return match.group(1).strip()
    match = re.search(
        r"\b(?:section|chapter)\s+(?:on|about|titled|called|named)\s+[\"“']?([^?\"”'.,]{2,40})", question, re.I
    )
    return match.group(1).strip() if match else where_topic(question)  # "Which section covers X?": X's section


_RELATIVE = re.compile(r"(?<=\w)\s+(?:that|who|whose|with|having)\s+", re.I)  # a relative clause's start


def expected_count(question: str) -> int | None:
    """A count the question states ("the three types of ...", "name 4 steps"), in its head only: a count
    in a relative clause ("the datasets that have exactly three methods") is a condition on what is
    asked, not how many answers there are."""
    question = without_spans(_RELATIVE.split(question, maxsplit=1)[0])  # "the three months ended" is a period
    cue = find_cardinality_cue(question)
    if cue:
        return cue[0]
    match = re.search(r"\b(?:the|what|which|name|list|give)\s+(?:top\s+)?(two|three|four|five|six|seven|eight|nine|"
                      r"ten|\d{1,2})\s+(?:[a-z\-]+\s+){0,2}?[a-z\-]+s\b", question, re.I)  # fmt: skip
    if match:
        value = count_value(match.group(1))
        if value and 2 <= value <= 20:
            return value
    return None


# --------------------------------------------------------------------------------------------
# Intent and complexity
# --------------------------------------------------------------------------------------------

_WHAT_PLURAL = re.compile(
    r"^(?:which|what)\s+(?:are|were)\s+(?:the\s+|all\s+)?(?:[\w\-'’]+\s+){0,3}?(?P<things>[a-z\-]*[^s\W]s)\b", re.I
)
"""A question asking what some things are ("What are the main risks?"): a list, unless it asks amounts."""
_LISTING = re.compile(
    r"\blist\b|\benumerate\b|\bname (?:all|the|every|each)\b|\ball (?:of )?the\b|\beach of the\b|"
    r"^(?:what|which)\s+(?:(?:main|major|key|principal|primary|different|other)\s+)?(?:kinds?|types?|sorts?|forms?|"
    r"categories)\s+of\b",  # "Which (major) types of ...": an adjective of rank or variety may come first
    re.I,
)
_PLURAL_USE = re.compile(  # a preposition may open it: "Into which classes were the errors sorted?"
    r"^(?:(?:in|into|on|onto|from|to|for|at|by|with|under|among)\s+)?(?:which|what)\s+(?:(?!of\b)[\w\-]+\s+){0,2}?"
    r"([a-z\-]{3,}[^s\W]s)\s+"
    r"(?:does|do|did|are|were|have|has|is|can|could|may|must|should|will)\b",  # "Which tools can the crew use?"
    re.I,
)
_WHERE_PLURAL = re.compile(
    r"^where\s+(?:are|were)\s+(?:the\s+|all\s+)?(?:[\w\-'’]+\s+){0,3}?[a-z\-]*[^s\W]s\b(?!')", re.I
)
"""Where some things are ("Where are the company's distribution centers?"): the places, one per thing, a list; not
where a document shows something ("Where are the results reported?", ``WHERE_QUESTION``)."""
_MULTI_HOP = re.compile(
    r"\bthe\s+[\w\-]+\s+(?:of|for|in|by)\s+the\s+[\w\-]+(?:\s+[\w\-]+)?\s+(?:that|which|who|whose)\b|"
    r"^(?:who|what|which|where|when)\b.*\b(?:the|a|an)\s+[\w\-]+(?:\s+[\w\-]+)?\s+(?:that|which|who|whose|where)\s+\w+|"
    r",?\s+and\s+(?:where|how|when|why|which|who|what)\b|\b\w+'s\s+\w+'s\b",
    re.I,
)
_CORPUS_WIDE = re.compile(
    r"\boverall\b|\bin general\b|\bmain (?:themes?|topics?|ideas?|points?|findings?|contributions?|takeaways?)\b|"
    r"\bkey (?:takeaways?|findings?|themes?|points?)\b|\bsummar(?:ize|ise|y of)\s+(?:the|this)\s+"
    r"(?:document|paper|report|article|filing|book|text)\b|\bacross the (?:document|paper|report)\b",
    re.I,
)
_OPEN = re.compile(
    r"^(?:how|why|explain|describe|discuss|elaborate|outline|summari[sz]e)\b|\bwhat (?:drove|drives|caused|causes|"
    r"explains|factors|is the (?:impact|role|effect|purpose|significance|rationale))\b|\bin what ways?\b",
    re.I,
)
_VAGUE = re.compile(
    r"^(?:tell me (?:more|about (?:this|it|that))|what(?:'s| is) (?:this|it|that)(?: \w+)? about|"
    r"what(?:'s| is) in (?:here|this|it)|anything (?:interesting|important)|summary please|help)\b",
    re.I,
)
_VALUE_HOW = re.compile(r"^how (?:much|many|long|far|old|large|big|often|tall|high)\b", re.I)


def detect_intent(question: str, keywords: list[str], references: tuple[str, ...], sides: list[str]) -> Intent:
    q = question.strip()
    if _VAGUE.search(q) or (not keywords and not _CORPUS_WIDE.search(q)) or len(split_words(q)) <= 2:
        return "vague"
    if is_comparison(q, sides):
        return "comparison"
    if section_hint(q, references) and (any(split_reference(r)[0] in SECTION_KINDS for r in references)
                                        or re.search(r"\b(?:section|chapter)\b", q, re.I)):  # fmt: skip
        return "section_retrieval"
    if _CORPUS_WIDE.search(q) or (re.match(r"(?i)summari[sz]e\b", q) and len(keywords) <= 1):
        return "open_corpus_wide"
    plural_use = _PLURAL_USE.search(q) and not asks_for_value(q)
    # "What were the capital expenditures in 2019?" asks for amounts of a period, not for a list of things (its
    # plural names an amount); "What were the parts of the fleet's running costs in 2031?" asks for a list
    plural = _WHAT_PLURAL.search(q)
    what_plural = plural and not (asks_for_value(plural.group("things")) and YEARISH.search(q))
    places = _WHERE_PLURAL.search(q) and not WHERE_QUESTION.match(q)
    if what_plural or _LISTING.search(q) or plural_use or expected_count(q) or places:
        return "listing"
    if _MULTI_HOP.search(q):
        return "multi_hop"
    if _OPEN.search(q) and not _VALUE_HOW.search(q):
        return "open_scoped"
    return "single_fact"


def clause_count(question: str) -> int:
    joins = r";|\?\s+\S|,?\s+and\s+(?:where|how|when|why|which|who|what|is|are|does|did)\b|\bthen\b"
    return 1 + len(re.findall(joins, question, re.I))


def complexity_of(intent: Intent, question: str, references: tuple[str, ...], sides: list[str]) -> Complexity:
    clauses = clause_count(question)
    if intent in ("multi_hop", "open_corpus_wide") or clauses >= 3 or len(sides) > 2:
        return "complex"
    if intent == "listing" and (clauses > 1 or references):
        return "complex"
    if intent in ("comparison", "listing", "open_scoped") or clauses > 1 or len(references) > 1:
        return "moderate"
    if references or layout_hint(question, references):
        return "moderate"
    return "simple"


_CLAUSE_SPLIT = re.compile(
    r"\s*;\s*|\?\s+|,?\s+and\s+(?=(?:where|how|when|why|which|who|what|is|are|does|did)\b)", re.I
)


def clauses(question: str) -> list[str]:
    """The parts of a multi-part question ("X, and where Y" -> ["X", "where Y"])."""
    parts = [normalize_space(p).strip(" ,.?") for p in _CLAUSE_SPLIT.split(question)]
    return [p for p in parts if len(content_words(p)) >= 1]


_DEFINITION = re.compile(r"\b(?:is|are)\s+(?:defined|calculated|computed|measured)\s+as\b|^definitions?:", re.I)
"""A sentence that defines what is asked ("X is defined as: A / B") says how to compute the answer; it
is not a part to answer."""


def question_parts(question: str) -> tuple[QuestionPart, ...]:
    """The parts of a multi-part question with their key terms (none for a one-part question)."""
    parts = [part for part in clauses(question) if not _DEFINITION.search(part) and not asks_difference(part)]
    if len(parts) < 2:
        return ()
    return tuple(QuestionPart(text=part, keywords=tuple(extract_keywords(part))) for part in parts)


_ASPECTS = re.compile(
    r"\b(?:in|on|for|regarding|in terms of|when it comes to)\s+((?:the\s+)?[\w\s,-]+?)\s*[?.]?$", re.I
)


def aspect_parts(question: str, sides: list[str]) -> tuple[QuestionPart, ...]:
    """The aspects a comparison names after its sides, one part each: "How does A compare with B in
    endurance and payload?" -> endurance; payload (a single aspect, or a side, is no part of its own)."""
    m = _ASPECTS.search(question)
    if not m:
        return ()
    items = [x.strip() for x in re.split(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+", m.group(1)) if x.strip()]
    items = [re.sub(r"^the\s+", "", x, flags=re.I) for x in items if not any(s.lower() in x.lower() for s in sides)]
    if len(items) < 2 or any(len(x.split()) > 4 for x in items):
        return ()
    return tuple(QuestionPart(text=x, keywords=tuple(extract_keywords(x)) or (x,)) for x in items)


# --------------------------------------------------------------------------------------------
# The whole parse
# --------------------------------------------------------------------------------------------


def _strip_question(question: str) -> str:
    words = split_words(question)
    while words and (words[0].lower() in QUESTION_WORDS or words[0].lower() in STOPWORDS):
        words.pop(0)
    return " ".join(words)


def _anchors(keywords: list[str], references: tuple[str, ...]) -> tuple[str, ...]:
    specific = [k for k in keywords if " " in k or any(c.isdigit() for c in k) or k[:1].isupper()]
    picked = list(dict.fromkeys([*references, *specific]))
    if len(picked) < 2:
        rest = sorted((k for k in keywords if k not in picked), key=len, reverse=True)
        picked += rest[: 3 - len(picked)]
    return tuple(picked[:5])


def _side(label: str, shared: list[str]) -> ComparisonSide:
    words = [label, *shared[:4]]
    return ComparisonSide(label=label, query=" ".join(words), keywords=tuple(dict.fromkeys(words)))


def parse_question(question: str) -> ParsedQuestion:
    """Turn ``question`` into retrieval instructions using cue words and shape only.

    Answer-format instructions ("Round to two decimals.", "Answer in USD millions.") are set aside
    first (:func:`engine.reading.focus.focus`): their words are not evidence to look for.
    """
    original = normalize_space(question)
    content = focus(original)
    q = content.content
    references = question_references(q)
    # "Which section explains X?" is searched for X; "..., and how far apart are they?" adds no words to find
    keywords = extract_keywords(searched_topic(q) or without_difference_ask(q))
    sides = find_sides(q)
    intent = detect_intent(q, keywords, references, sides)
    side_models: tuple[ComparisonSide, ...] = ()
    if intent == "comparison" and len(sides) >= 2:
        side_words = {w.lower() for s in sides for w in s.split()}
        shared = [k for k in keywords if not set(k.lower().split()) & side_words]
        side_models = tuple(_side(label, shared) for label in dict.fromkeys(sides))
        labels = [s.lower() for s in sides]
        inner = [k for k in keywords if any(k.lower() in label and k.lower() != label for label in labels)]
        keywords = list(dict.fromkeys([*sides, *(k for k in keywords if k not in inner)]))[:MAX_KEYWORDS]
    main_query = " ".join(dict.fromkeys(w for k in keywords for w in k.split())) or _strip_question(q) or q
    stripped = _strip_question(q).rstrip("?")
    rewrites = tuple(r for r in dict.fromkeys([stripped]) if r and r.lower() != main_query.lower())
    parsed = ParsedQuestion(
        original_question=original,
        intent=intent,
        complexity=complexity_of(intent, q, references, sides),
        keywords=tuple(keywords),
        retrieval=RetrievalSpec(
            main_query=main_query,
            rewrites=rewrites,
            anchor_keywords=_anchors(keywords, references),
            section_hint=section_hint(q, references),
            layout_hint=layout_hint(q, references),
        ),
        sides=side_models,
        expected_count=expected_count(q),
        references=references,
        asks_for_value=asks_for_value(q),
        parts=question_parts(q) or (aspect_parts(q, sides) if side_models else ()),
        instructions=content.instructions,
    )
    return enrich(parsed)
