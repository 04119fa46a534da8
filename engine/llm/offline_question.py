"""Offline question understanding: intent, keywords, hints and comparison sides from cue words and shape.

Every rule is general English / document convention; nothing here knows a particular document.
"""

from __future__ import annotations

import re

from engine.bricks.text import (
    STOPWORDS,
    count_value,
    find_cardinality_cue,
    find_references,
    normalize_space,
    split_reference,
)
from engine.contracts import Complexity, ComparisonSide, Intent, LayoutHint, ParsedQuestion, RetrievalSpec

MAX_KEYWORDS = 10

GENERIC = frozenset(
    """
    compare compared comparing comparison versus vs difference differences differ differs differed contrast
    overall general summarize summarise summary main theme themes enumerate name named brief briefly exactly
    respectively approximately primarily information details detail relying rely response assume analyst
    report reported reports show shows shown say says said state states stated discuss discussed discusses
    present presented presents find found contain contains include includes included mean means
    happen happened does did like think know best equity public whereas better worse there
    drove drive drives driven achieve achieved achieves explored explore explores considered consider
    applied apply applies described perform performs performed obtain obtained work works usd millions
    billions thousands two three four five six seven eight nine ten twelve several various respective
    more less fewer higher lower earlier later larger bigger smaller older younger greater longer shorter
    first faster slower most least highest lowest largest smallest oldest youngest write written
    """.split()
)
"""Words that say what to do with the answer rather than what to look for."""

QUESTION_WORDS = frozenset("what which who whom whose when where why how is are was were do does did can could".split())
_CONNECTORS = frozenset({"of", "de", "del", "da", "von", "van", "the", "la", "le", "du", "and", "in", "on", "for"})
_INNER_CONNECTORS = frozenset({"of", "de", "del", "da", "von", "van", "la", "le", "du"})
_WORD = re.compile(r"[A-Za-z0-9$%][A-Za-z0-9.\-&'/$%]*[A-Za-z0-9%]|[A-Za-z0-9]")
_COMPARATIVE = re.compile(
    r"\b(more|less|fewer|higher|lower|earlier|later|larger|bigger|smaller|older|younger|greater|longer|shorter|"
    r"first|faster|slower|better|worse|most|least|highest|lowest|largest|smallest|oldest|youngest|cheaper|heavier)\b",
    re.I,
)
_SEGMENT_SPLIT = re.compile(r"[,;:?!()\"“”]+")
_SECTION_KINDS = ("Section", "Item", "Appendix", "Chapter", "Schedule", "Exhibit", "Note")


_PHRASE_BREAKERS = frozenset(
    """
    give gives gave take takes took integrate integrates propose proposes corresponds correspond appear appears
    need needs needed set sets demonstrate demonstrates demonstrating viewing displayed stay provide provides
    become becomes became remain remains lead leads led make makes affect affects compare relate relates
    """.split()
)
"""Common verbs that end a lower-case noun phrase ("temperature gives" is not a term)."""
_REF_WORD = re.compile(r"\b(figures?|fig\.|tables?|sections?|appendix|chapters?|items?|exhibits?)\s*(?=\d)", re.I)


def _words(text: str) -> list[str]:
    return [re.sub(r"['’]s$", "", w) for w in _WORD.findall(text)]


def question_references(question: str) -> tuple[str, ...]:
    """References in a question, also when typed in lower case ("in figure 3")."""
    return find_references(_REF_WORD.sub(lambda m: m.group(1)[0].upper() + m.group(1)[1:].lower() + " ", question))


def _is_generic(word: str) -> bool:
    low = word.lower()
    return low in STOPWORDS or low in GENERIC or low in QUESTION_WORDS


def _is_capitalised(word: str, index: int) -> bool:
    if any(ch.isdigit() for ch in word) and any(ch.isalpha() for ch in word):
        return True  # FY2018, 3M, 10-K
    if not word[0].isupper() or _is_generic(word):
        return False
    return not (index == 0 and word.lower() in STOPWORDS)


# --------------------------------------------------------------------------------------------
# Keywords
# --------------------------------------------------------------------------------------------


def capitalised_runs(text: str) -> list[str]:
    """Runs of capitalised words ("Label Smoothing", "Bank of America", "Station B") in ``text``."""
    runs: list[str] = []
    for segment in _SEGMENT_SPLIT.split(text):
        words = _words(segment)
        current: list[str] = []
        for i, word in enumerate(words):
            single_letter = len(word) == 1 and word.isupper() and bool(current)
            if _is_capitalised(word, i) or single_letter:
                current.append(word)
            elif current and word.lower() in _INNER_CONNECTORS:
                current.append(word)
            elif current and word.lower() == "the" and current[-1].lower() == "of":
                current.append(word)
            else:
                _close_run(current, runs)
                current = []
        _close_run(current, runs)
    return runs


def _close_run(current: list[str], runs: list[str]) -> None:
    while current and current[-1].lower() in _CONNECTORS:
        current.pop()
    if current:
        runs.append(" ".join(current))


def _lower_phrases(text: str) -> list[str]:
    """Runs of 2-3 adjacent lower-case content words ("capital expenditure", "turbidity readings")."""
    phrases: list[str] = []
    for segment in _SEGMENT_SPLIT.split(text):
        run: list[str] = []
        for word in [*_words(segment), ""]:
            usable = word.isalpha() and word.islower() and len(word) >= 3 and not _is_generic(word)
            usable = usable and word not in _PHRASE_BREAKERS
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
        if term and key not in seen and not _is_generic(term):
            seen.add(key)
            found.append(term)

    for quoted in re.findall(r"[\"“']([^\"”']{3,60})[\"”']", question):
        add(normalize_space(quoted))
    references = question_references(question)
    for reference in references:
        add(reference)
    ref_words = {w.lower() for r in references for w in r.split()}
    first = (_words(question) or [""])[0]
    for run in capitalised_runs(question):
        if run == first and not run.isupper() and not any(c.isdigit() for c in run):
            continue  # a sentence-initial capital ("Write", "Marsilea") is not evidence of a name
        if run.lower() not in ref_words and not set(run.lower().split()) <= ref_words:
            add(run)
    for phrase in _lower_phrases(question):
        add(phrase)
    covered = {w.lower() for term in found for w in _words(term)} | ref_words
    for position, word in enumerate(_words(question.replace(",", ""))):
        low = word.lower()
        if low in covered or _is_generic(word) or (len(low) < 2 and not low.isdigit()):
            continue
        covered.add(low)
        add(word if _is_capitalised(word, 1) and position else low)
    return found[:MAX_KEYWORDS]


# --------------------------------------------------------------------------------------------
# Hints
# --------------------------------------------------------------------------------------------

_TABLE_CUES = re.compile(
    r"\btables?\b|\btabulated\b|\bbalance sheets?\b|\bcash flows?\b|\bincome statements?\b|"
    r"\bstatements? of (?:operations|income|cash|financial|comprehensive)|\bfinancial statements?\b|"
    r"\bin (?:usd|eur|gbp|us\$|\$) ?(?:millions?|billions?|thousands?)\b|\(in (?:millions|billions|thousands)\)|"
    r"\bbreakdown\b|\bper (?:segment|quarter|station|region|country)\b|"
    r"\bwhere (?:do|does|did|is|are|were|was)\b.*\b(?:show|shown|report|reported|present|presented|list|listed)\b",
    re.I,
)
_MEASURE_CUES = re.compile(r"\bhow much\b|\bwhat (?:is|was|were|are) the (?:percentage|share|ratio|rate)\b|"
                           r"\bwhat percentage\b|\bpercent(?:age)?\b", re.I)  # fmt: skip
_FIGURE_CUES = re.compile(r"\bfig(?:ure)?s?\b|\bcharts?\b|\bgraphs?\b|\bplots?\b|\bdiagrams?\b|\billustrat", re.I)
_VALUE_CUES = re.compile(
    r"\bhow (?:much|many|long|far|old|large|big|often|tall|high)\b|\b(?:amount|number|percentage|percent|share|"
    r"ratio|rate|total|sum|average|mean|median|cost|price|revenue|count|score|accuracy|size|year|"
    r"margin|capex|expenditure|income|profit|loss|dividend|yield)\b|%|\$|\bin (?:usd|eur|gbp)\b|\bmillions?\b|"
    r"\bbillions?\b|^when\b|\bwhat (?:year|date)\b",
    re.I,
)
_YEARISH = re.compile(r"\b(?:FY|Q[1-4])?\s?(?:19|20)\d\d\b")


def layout_hint(question: str, references: tuple[str, ...]) -> LayoutHint | None:
    """``table`` or ``figure`` when the question points at one (explicit references win)."""
    kinds = [split_reference(r)[0] for r in references]
    if "Table" in kinds:
        return "table"
    if "Figure" in kinds:
        return "figure"
    if _TABLE_CUES.search(question):
        return "table"
    if _FIGURE_CUES.search(question):
        return "figure"
    if _MEASURE_CUES.search(question) and (_YEARISH.search(question) or re.search(r"\$|usd|million|billion", question, re.I)):
        return "table"
    return None


def section_hint(question: str, references: tuple[str, ...]) -> str | None:
    """The section a question names: "5.4", "Item 7", "Appendix B", or title words ("Risk Factors")."""
    for reference in references:
        kind, label = split_reference(reference)
        if kind == "Section":
            return label
        if kind in _SECTION_KINDS:
            return reference
    match = re.search(r"\b(?:in|from|of|under|within)\s+the\s+([A-Za-z][\w&\- ]{1,40}?)\s+(?:section|chapter|part)\b",
                      question, re.I)  # fmt: skip
    if match:
        return match.group(1).strip()
    match = re.search(r"\b(?:section|chapter)\s+(?:on|about|titled|called|named)\s+[\"“']?([^?\"”'.,]{2,40})", question, re.I)
    return match.group(1).strip() if match else None


def expected_count(question: str) -> int | None:
    """A count the question states ("the three types of ...", "name 4 steps")."""
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


def asks_for_value(question: str) -> bool:
    return bool(_VALUE_CUES.search(question))


# --------------------------------------------------------------------------------------------
# Sides of a comparison
# --------------------------------------------------------------------------------------------

_SIDE_STOP = STOPWORDS | QUESTION_WORDS | GENERIC | {"same", "both", "either", "neither", "different", "similar"}


def _trim_side(text: str) -> str:
    words = _words(text)
    while words and words[0].lower() in _SIDE_STOP:
        words.pop(0)
    while words and words[-1].lower() in _SIDE_STOP:
        words.pop()
    return " ".join(words)


def _phrase_before(text: str) -> str:
    """The noun phrase that ends ``text``: a capitalised run (with connectors) or the trailing content words."""
    words = _words(text)
    if not words:
        return ""
    picked: list[str] = []
    capital = words[-1][0].isupper() or any(c.isdigit() for c in words[-1])
    for word in reversed(words):
        low = word.lower()
        if capital and (word[0].isupper() or word[0].isdigit() or low in _CONNECTORS):
            if low in QUESTION_WORDS or (low in STOPWORDS and word[0].isupper() and low not in _CONNECTORS):
                break
            picked.insert(0, word)
        elif not capital and low not in _SIDE_STOP and len(picked) < 3:
            picked.insert(0, word)
        else:
            break
    return _trim_side(" ".join(picked))


def _phrase_after(text: str) -> str:
    """The noun phrase that starts ``text``."""
    words = _words(text)
    while words and words[0].lower() in ("the", "a", "an", "both"):
        words.pop(0)
    if not words:
        return ""
    picked: list[str] = []
    capital = words[0][0].isupper() or words[0][0].isdigit()
    for word in words:
        low = word.lower()
        if capital and (word[0].isupper() or word[0].isdigit() or low in _INNER_CONNECTORS | {"the"}):
            picked.append(word)
        elif not capital and low not in _SIDE_STOP and len(picked) < 3:
            picked.append(word)
        else:
            break
    return _trim_side(" ".join(picked))


def _split_list(text: str) -> list[str]:
    parts = re.split(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|vs\.?|versus|with|to)\s+", text)
    return [p for p in (_trim_side(x) for x in parts) if p]


def find_sides(question: str) -> list[str]:
    """Labels of the things a comparison question compares (empty when it names none)."""
    q = normalize_space(question).rstrip("?. ")
    match = re.search(r"(.+?)\s+(?:vs\.?|versus)\s+(.+)", q, re.I)
    if match:
        return [s for s in (_phrase_before(match.group(1)), _phrase_after(match.group(2))) if s]
    match = re.search(r"\bbetween\s+(.+?)\s+and\s+(.+)", q, re.I)
    if match:
        return [s for s in (_phrase_after(match.group(1)) or _trim_side(match.group(1)), _phrase_after(match.group(2))) if s]
    match = re.search(r"\b(?:compare|contrast)\s+(.+)", q, re.I)
    if match:
        parts = _split_list(re.split(r"\s+(?:in terms of|regarding|on|for)\s+", match.group(1))[0])
        if len(parts) >= 2:
            return [_phrase_after(p) or p for p in parts][:4]
    match = re.search(r"\b(?:does|do|did|is|are)\s+(.+?)\s+(?:differ|different)\s+from\s+(.+)", q, re.I)
    if match:
        return [s for s in (_phrase_after(match.group(1)), _phrase_after(match.group(2))) if s]
    if re.search(r"\bor\b", q) and not re.search(r"\bor not\b", q, re.I):
        sentence = next((p for p in re.split(r"(?<=[?.])\s+", q) if " or " in p), q).rstrip("?. ")
        match = re.search(r"(?:^|[,?:]\s*)([^,?:]+?),?\s+or\s+([^,?]+)$", sentence)
        if match and "," in sentence and len(match.group(1).split()) <= 6 and len(match.group(2).split()) <= 6:
            sides = [_trim_side(match.group(1)), _trim_side(match.group(2))]
            if all(sides):
                return sides
        clause = sentence.rsplit(",", 1)[-1] if "," in sentence else sentence
        left, _, right = clause.partition(" or ")
        sides = [_phrase_before(left), _phrase_after(right)]
        if all(sides):
            return sides
    match = re.search(r"\b(?:the same|as)\b.*", q)
    if re.match(r"(?i)(are|were|is|was|do|did|does|have|has|had)\b", q) and " and " in q:
        head = re.sub(r"(?i)^(are|were|is|was|do|did|does|have|has|had)\s+(both\s+)?", "", q)
        left, _, right = head.partition(" and ")
        sides = [_phrase_after(left) or _trim_side(left), _phrase_after(right)]
        if all(sides):
            return sides
    match = re.search(r"(?i)^(?:is|are|was|were)\s+(.+?)\s+the same\s+\w+\s+as\s+(.+)", q)
    if match:
        return [s for s in (_phrase_after(match.group(1)), _phrase_after(match.group(2))) if s]
    return []


_COMPARISON_CUES = re.compile(
    r"\bvs\.?\b|\bversus\b|\bcompar(?:e|ed|ing|ison)\b|\bcontrast\b|\bdiffer(?:s|ed|ence|ences|ent)?\b|"
    r"\bbetween\b.+\band\b|\bsame\b|\bboth\b|\beither\b|\bneither\b",
    re.I,
)


def is_comparison(question: str, sides: list[str]) -> bool:
    if len(sides) < 2:
        return bool(re.search(r"\bcompar(?:e|ison)\b|\bvs\.?\b|\bversus\b", question, re.I))
    if _COMPARISON_CUES.search(question):
        return True
    return bool(re.search(r"\bor\b", question) and (_COMPARATIVE.search(question) or
                re.match(r"(?i)(which|who|whose|is|are|was|were|does|did|do)\b", question)))  # fmt: skip


# --------------------------------------------------------------------------------------------
# Intent and complexity
# --------------------------------------------------------------------------------------------

_LISTING = re.compile(
    r"^(?:which|what)\s+(?:are|were)\s+(?:the\s+|all\s+)?(?:[\w\-]+\s+){0,3}?[a-z\-]*[^s\W]s\b|"
    r"\blist\b|\benumerate\b|\bname (?:all|the|every|each)\b|\ball (?:of )?the\b|\beach of the\b|"
    r"^(?:what|which)\s+(?:kinds?|types?|sorts?|forms?|categories)\s+of\b",
    re.I,
)
_PLURAL_USE = re.compile(
    r"^(?:which|what)\s+(?:(?!of\b)[\w\-]+\s+){0,2}?([a-z\-]{3,}[^s\W]s)\s+(?:does|do|did|are|were|have|has|is)\b", re.I
)
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
    if _VAGUE.search(q) or (not keywords and not _CORPUS_WIDE.search(q)) or len(_words(q)) <= 2:
        return "vague"
    if is_comparison(q, sides):
        return "comparison"
    if section_hint(q, references) and (any(split_reference(r)[0] in _SECTION_KINDS for r in references)
                                        or re.search(r"\b(?:section|chapter)\b", q, re.I)):  # fmt: skip
        return "section_retrieval"
    if _CORPUS_WIDE.search(q) or (re.match(r"(?i)summari[sz]e\b", q) and len(keywords) <= 1):
        return "open_corpus_wide"
    plural_use = _PLURAL_USE.search(q) and not asks_for_value(q)
    if _LISTING.search(q) or plural_use or expected_count(q):
        return "listing"
    if _MULTI_HOP.search(q):
        return "multi_hop"
    if _OPEN.search(q) and not _VALUE_HOW.search(q):
        return "open_scoped"
    return "single_fact"


def clause_count(question: str) -> int:
    joins = re.findall(r";|\?\s+\S|,?\s+and\s+(?:where|how|when|why|which|who|what|is|are|does|did)\b|\bthen\b", question, re.I)
    return 1 + len(joins)


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


# --------------------------------------------------------------------------------------------
# The whole parse
# --------------------------------------------------------------------------------------------


def _strip_question(question: str) -> str:
    words = _words(question)
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
    """Turn ``question`` into retrieval instructions using cue words and shape only."""
    q = normalize_space(question)
    references = question_references(q)
    keywords = extract_keywords(q)
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
    return ParsedQuestion(
        original_question=q,
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
    )
