"""The sides of a comparison question ("A vs B", "between A and B", "Which ..., A or B?")."""

from __future__ import annotations

import re

from engine.documents.text import STOPWORDS, normalize_space
from engine.reading.doc_sides import PERIOD
from engine.reading.entities import owner_names
from engine.reading.lexicon import (
    COMPARATIVE,
    CONNECTORS,
    GENERIC,
    INNER_CONNECTORS,
    QUESTION_WORDS,
    SIDE_STOP_WORDS,
)
from engine.reading.separators import (
    last_either_or,
    options_after_colon,
    pair_after,
    pair_from_start,
    triple_after,
    until_first,
    without_repeated_preposition,
)
from engine.reading.words import split_words, starts_name

_SIDE_STOP = STOPWORDS | QUESTION_WORDS | GENERIC | SIDE_STOP_WORDS


def trim_side(text: str) -> str:
    words = split_words(text)
    while words and words[0].lower() in _SIDE_STOP and not starts_name(words):
        words.pop(0)
    while words and words[-1].lower() in _SIDE_STOP:
        words.pop()
    return " ".join(words)


def _phrase_before(text: str) -> str:
    """The noun phrase that ends ``text``: a capitalised run (with connectors) or the trailing content words."""
    words = split_words(text)
    if not words:
        return ""
    picked: list[str] = []
    capital = words[-1][0].isupper() or any(c.isdigit() for c in words[-1])
    for word in reversed(words):
        low = word.lower()
        if capital and (word[0].isupper() or word[0].isdigit() or low in CONNECTORS):
            if low in QUESTION_WORDS or (low in STOPWORDS and word[0].isupper() and low not in CONNECTORS):
                break
            picked.insert(0, word)
        elif not capital and low not in _SIDE_STOP and len(picked) < 3:
            picked.insert(0, word)
        else:
            break
    return trim_side(" ".join(picked))


def _phrase_after(text: str) -> str:
    """The noun phrase that starts ``text``."""
    words = split_words(text)
    while words and words[0].lower() in ("the", "a", "an", "both"):
        words.pop(0)
    if not words:
        return ""
    picked: list[str] = []
    capital = words[0][0].isupper() or words[0][0].isdigit()
    for word in words:
        low = word.lower()
        if (capital and (word[0].isupper() or word[0].isdigit() or low in INNER_CONNECTORS | {"the"})) or (
            not capital and low not in _SIDE_STOP and len(picked) < 3
        ):
            picked.append(word)
        else:
            break
    return trim_side(" ".join(picked))


def _split_list(text: str) -> list[str]:
    """The things a "compare ..." lists: split at commas and "and"/"or" first, so a thing named with "with" or "to"
    stays whole ("X with tides and X without tides"); at "with", "to" or "versus" only when those do not split it
    ("Compare X with Y")."""
    parts = [p for p in (trim_side(x) for x in re.split(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+", text)) if p]
    if len(parts) >= 2:
        return parts
    parts = re.split(r"\s+(?:vs\.?|versus|with|to)\s+", text)
    return [p for p in (trim_side(x) for x in parts) if p]


_PASSIVE_END = re.compile(r"\s+(?:were|was|are|is|been)\s+[a-z]+(?:ed|en|ld|wn|ne|nt|d|t)$", re.I)
"""A passive verb ending the phrase before "versus" ("... were held", "... was spent"): what it says of the thing
compared, not the thing."""


def find_sides(question: str) -> list[str]:
    """Labels of the things a comparison question compares (empty when it names none). Linear in the
    question's length: every shape is matched by ``separators`` (no lazy group is retried from each start)."""
    q = normalize_space(question).rstrip("?. ")
    pair = pair_from_start(q, r"\s+(?:vs\.?|versus)\s+")
    if pair:
        left = _PASSIVE_END.sub("", pair[0])  # "how many board meetings were held versus ...": the meetings
        return [s for s in (_phrase_before(left), _phrase_after(pair[1])) if s]
    pair = pair_after(q, re.search(r"\bbetween\s+", q, re.I), r"\s+and\s+")
    if pair:
        return [s for s in (_phrase_after(pair[0]) or trim_side(pair[0]), _phrase_after(pair[1])) if s]
    pair = period_change(q) or period_pair(q)  # "How did Acme's capex change from 2030 to 2031?"
    if pair:
        return list(pair)
    pair = _compared_with(q)  # "How does the Heron 2 compare with the Heron 3 in endurance?"
    if not pair:
        pair = triple_after(q, re.search(r"\b(?:do|did|does)\s+", q, re.I), r"\s+and\s+", r"\s+(?:differ|compare)\b")
    if pair and (shared := _shared_head(pair[0], pair[1])):
        return shared
    if pair:
        left, right = _without_common_tail([trim_side(x) for x in _without_lone_owner(pair[0], pair[1])])
        sides = [_named_after_of(left) or _phrase_after(left) or trim_side(left),
                 _named_after_of(right) or _phrase_after(right)]  # fmt: skip
        if all(sides):
            return _same_kind(sides, pair[0])
    pair = than_pair(q)  # "Was Acme's capex higher than Zenith's?"
    if pair:
        return list(pair)
    match = re.search(r"\b(?:compare|contrast)\s+(.+)", q, re.I)
    if match:
        parts = _split_list(re.split(r"\s+(?:in terms of|regarding|on|for)\s+", match.group(1))[0])
        if len(parts) == 2 and (paired := _with_and_without(parts[0], parts[1])):
            return paired
        if len(parts) == 2 and (shared := _shared_head(parts[0], parts[1])):
            return shared
        if len(parts) >= 2:
            sides = [_named_after_of(p) or _phrase_after(p) or p for p in parts][:4]
            return _same_kind(sides, parts[0]) if len(sides) == 2 else sides
    pair = pair_after(q, re.search(r"\b(?:does|do|did|is|are)\s+", q, re.I), r"\s+(?:differ|different)\s+from\s+")
    if pair:
        return [s for s in (_phrase_after(pair[0]), _phrase_after(pair[1])) if s]
    options = options_after_colon(q)  # "Which was larger in 2041: marketing, sales and service costs or capex?"
    if options and all(sides := [trim_side(o) for o in options]):
        return sides
    if re.search(r"\bor\b", q) and not re.search(r"\bor not\b", q, re.I):
        sentence = next((p for p in re.split(r"(?<=[?.])\s+", q) if " or " in p), q).rstrip("?. ")
        pair = last_either_or(sentence)
        if pair and "," in sentence and len(pair[0].split()) <= 6 and len(pair[1].split()) <= 6:
            sides = [trim_side(pair[0]), trim_side(pair[1])]
            if all(sides):
                return sides
        clause = sentence.rsplit(",", 1)[-1] if "," in sentence else sentence
        left, _, right = clause.partition(" or ")
        right = without_repeated_preposition(left, right)  # "sales in Ohio or in Iowa": Iowa
        sides = [_phrase_before(left), _phrase_after(right)]
        if all(sides):
            return sides
    if re.match(r"(?i)(are|were|is|was|do|did|does|have|has|had)\b", q) and " and " in q:
        head = re.sub(r"(?i)^(are|were|is|was|do|did|does|have|has|had)\s+(both\s+)?", "", q)
        left, _, right = head.partition(" and ")
        sides = [_phrase_after(left) or trim_side(left), _phrase_after(right)]
        if all(sides):
            return sides
    match = re.search(r"(?i)^(?:is|are|was|were)\s+(.+?)\s+the same\s+\w+\s+as\s+(.+)", q)
    if match:
        return [s for s in (_phrase_after(match.group(1)), _phrase_after(match.group(2))) if s]
    return list(_parallel_pair(q) or ())


_PARALLEL = re.compile(r"\s+and\s+(?P<prep>on|in|for|at|of|from|by|with|under)\s+", re.I)


def _parallel_pair(q: str) -> tuple[str, str] | None:
    """Two named things each behind the same preposition ("on the Heron 2 and on the Heron 3", "for Acme
    and for Zenith"): the question asks the same of both, side by side. Both must be named (a capital or a
    digit): "on revenue and on margin" are parts of one question, not sides."""
    for m in _PARALLEL.finditer(q):
        head = q[: m.start()]
        opening = list(re.finditer(rf"\b{m.group('prep')}\s+", head, re.I))
        if not opening:
            continue
        left = _phrase_after(head[opening[-1].end() :])
        right = _phrase_after(q[m.end() :])
        if left and right and all(_named(side) for side in (left, right)):
            return left, right
    return None


_THAN = re.compile(r"\s+than\s+", re.I)
_ER_WORD = re.compile(r"[a-z]{3,}er$", re.I)
"""A comparative adjective right before "than" ("lighter than", "faster than")."""
_AUXILIARY_SUBJECT = re.compile(r"^(?:did|does|do|was|were|is|are|has|have|had)\s+(?P<rest>.+)", re.I)


def than_pair(q: str) -> tuple[str, str] | None:
    """The two named things a comparative compares ("How much higher was Acme's capex than Zenith's?", "Did
    Acme spend more on research than Zenith?"): the named owner before the comparative (its possessive, else the
    question's subject) and the named thing after "than". Both must be named (a capital or a digit): "more
    revenue than expected" compares nothing."""
    than = _THAN.search(q)
    if than is None or not (COMPARATIVE.search(q[: than.start()]) or _ER_WORD.search(q[: than.start()])):
        return None
    right = _phrase_after(q[than.end() :])
    right = re.sub(r"['’]s?$", "", right).strip()
    owners = owner_names(q[: than.start()])  # whose figure it compares ("Dana Lund's pay")
    if owners:
        left = trim_side(owners[-1])
    elif (subject := _AUXILIARY_SUBJECT.match(q)) is not None:
        left = _phrase_after(subject.group("rest"))
    else:
        return None
    if not (left and right and _named(left) and _named(right)) or left.lower() == right.lower():
        return None
    return left, right


def _named(phrase: str) -> bool:
    return any(word[:1].isupper() or any(c.isdigit() for c in word) for word in phrase.split())


_ASPECT_OF = re.compile(
    r"^(?:the\s+)?(?:(?:FY\s?)?\d{4}\s+)?(?:[a-z][\w&\-]*\s+){1,4}of\s+(?P<name>(?:the\s+)?[A-Z0-9].*)$"
)
"""A compared part that names what is compared, then whose it is ("the net sales of Acme in 2031", "2031 sales of
Acme's Harbour unit": the year is the aspect's, not a side)."""


def _named_after_of(part: str) -> str:
    """The named thing of "the <aspect> of <Name> ...": the side is Acme, not "net sales" (the aspect both
    sides share)."""
    m = _ASPECT_OF.match(part)
    return _phrase_after(m.group("name")) if m else ""


_MODIFIER_OF = re.compile(r"^(?:the\s+)?(?:[a-z][\w&\-]*\s+){1,4}of\s+(?:the\s+)?(?P<modifier>[a-z][\w\-]*)$")


def _shared_head(left: str, right: str) -> list[str] | None:
    """Two modifiers of one head noun ("the training cost of the base and big models", "the costs of the
    standard and premium plans"): the sides are "base models" and "big models", not the aspect and one side."""
    m = _MODIFIER_OF.match(left.strip())
    words = trim_side(right).split()
    if m is None or len(words) < 2 or not words[0][:1].islower() or m.group("modifier").lower() in _SIDE_STOP:
        return None
    return [f"{m.group('modifier')} {' '.join(words[1:])}", " ".join(words)]


_WITH_OR_WITHOUT = re.compile(r"^(?:the\s+)?(?P<head>.+?)\s+(?P<prep>with|without)\s+(?P<what>.+)$", re.I)


def _with_and_without(left: str, right: str) -> list[str] | None:
    """One thing with and without something ("the fuel use of the ferry with sails and the ferry without sails"):
    the sides are the two whole phrases, each with its "with"/"without" part, not their first nouns."""
    m = _WITH_OR_WITHOUT.match(right.strip())
    if m is None:
        return None
    other = "without" if m.group("prep").lower() == "with" else "with"
    mirrored = f"{m.group('head')} {other} {m.group('what')}"
    if not left.lower().endswith(mirrored.lower()):
        return None
    return [mirrored, f"{m.group('head')} {m.group('prep')} {m.group('what')}"]


_OWNER = re.compile(r"^(?:the\s+)?[A-Z0-9][\w&.\-]*['’]s\s+(?=\S)")
"""A possessive owner opening a compared phrase ("Acme's US sales growth")."""


def _without_lone_owner(left: str, right: str) -> tuple[str, str]:
    """A possessive owner only one side names is whose both sides are, not part of one side: "Acme's US sales
    growth compared to international sales growth" compares US with international growth, both Acme's."""
    owner_left, owner_right = _OWNER.match(left.strip()), _OWNER.match(right.strip())
    if owner_left and not owner_right and not _named(right):
        return left.strip()[owner_left.end() :], right
    return left, right


def _without_common_tail(sides: list[str]) -> list[str]:
    """Sides that end in the same words name the aspect twice ("US sales growth" / "international sales
    growth"): the things compared are what differs ("US" / "international")."""
    words = [side.split() for side in sides]
    tail = 0
    while all(len(w) > tail + 1 for w in words) and len({w[-1 - tail].lower() for w in words}) == 1:
        tail += 1
    return [" ".join(w[: len(w) - tail]) for w in words] if tail else sides


def _same_kind(sides: list[str], left_text: str) -> list[str]:
    """Compared sides are of one kind: when B is a period ("... in FY2032 compared with FY2031"), A is the
    period the left phrase names, not its subject ("Boeing"). Periods are read as documents' sides are
    (``doc_sides.PERIOD``)."""
    if PERIOD.fullmatch(sides[1]) and not PERIOD.search(sides[0]):
        periods = PERIOD.findall(left_text)
        if periods:
            return [periods[-1], sides[1]]
    return sides


def _compared_with(q: str) -> tuple[str, str] | None:
    """``<verb> A compare(s|d) with|to|against B [in|on|for ... aspect]``: A and B."""
    pair = pair_after(q, re.search(r"\b(?:does|do|did|is|are|would|will)\s+", q, re.I),
                      r"\s+compare[sd]?\s+(?:with|to|against)\s+")  # fmt: skip
    if pair is None:
        return None
    start = len(q) - len(pair[1])
    return pair[0], until_first(q, start, r"\s+(?:in|on|for|regarding|in terms of|when it comes to)\s+")


_AUXILIARY = re.compile(r"\b(?:did|does|do|has|have|had)\b", re.I)
_CHANGE = re.compile(
    r"\b(?:chang|grow|grew|rise|rose|risen|fall|fell|fallen|increas|decreas|declin|drop|mov|evolv|shift)\w*"
    r"|\b(?:go|goes|gone|went)\s+(?:up|down)\b",  # "did it go up or down from 2030 to 2031?"
    re.I,
)
"""A verb of change over time, asked of what a value did ("How did capex change from ..."): "the change in
capex from ... to ..." as a noun asks for one computed amount, which the formulas read."""


def without_change_words(phrase: str) -> str:
    """``phrase`` without its verbs of change ("net sales change" -> "net sales"): in a change over time, what
    changed is the metric; the verb is the frame, which no row or sentence of either period must hold."""
    return " ".join(w for w in phrase.split() if not _CHANGE.fullmatch(w))


_SIZE_ASKED = re.compile(r"\b(?:what|which)\s+(?:percentage|percent|share|rate)\b|\bhow\s+much\b|\bby\s+what\b", re.I)
"""A question that asks the size of the change ("by what percentage did ... increase") asks one computed value."""


def period_change(q: str) -> tuple[str, str] | None:
    """The two periods of "from <period> to <period>" ("change from 2030 to 2031", "from fiscal 2030 to fiscal
    2031"): a change over time compares the value of each period, so each is a side, read and stated, and the
    difference between them is the answer. Only periods: "from raw material to product" is no comparison.
    Each "from" reads a bounded window, so the search stays linear in the question's length. A verb of change
    must come before it: "the average of PP&E from 2030 to 2031" spans a period for one computation."""
    auxiliary = _AUXILIARY.search(q)
    verb = _CHANGE.search(q, auxiliary.end()) if auxiliary else None
    if verb is None or _SIZE_ASKED.search(q):
        return None
    for m in re.finditer(r"\bfrom\s+", q[verb.end() :], re.I):
        m_start = verb.end() + m.end()
        left, sep, right = q[m_start : m_start + 80].partition(" to ")
        start = PERIOD.fullmatch(left.strip())
        end = PERIOD.match(right.strip())
        if sep and start and end:
            return normalize_space(start.group(0)), normalize_space(end.group(0))
    return None


_PERIOD_PAIR = re.compile(
    rf"\b(?:in|for|during|of)\s+(?P<a>{PERIOD.pattern})\s*,?\s+(?:and|or|vs\.?|versus)\s+"
    rf"(?:(?:in|for|during|of)\s+)?(?:the\s+)?(?P<b>{PERIOD.pattern})",
    re.I,
)


def period_pair(q: str) -> tuple[str, str] | None:
    """Two periods asked side by side ("expenses in 2030 and 2031", "higher in fiscal 2031 or in fiscal 2030"):
    each period is a side, read and stated; the words around them ("research and development expenses") are
    what is read for each, never a side of their own."""
    match = _PERIOD_PAIR.search(q)
    if match is None:
        return None
    return normalize_space(match.group("a")), normalize_space(match.group("b"))


_ARTEFACT = r"(?!\s+(?:tables?|charts?|figures?|graphs?|matri(?:x|ces)|sections?|appendix)\b)"
"""A "comparison" that names a table or chart ("the fleet comparison table") is where to read, not an ask to compare."""
_COMPARISON_CUES = re.compile(
    rf"\bvs\.?\b|\bversus\b|\bcompar(?:e|ed|ing|ison){_ARTEFACT}\b|\bcontrast\b|\bdiffer(?:s|ed|ence|ences|ent)?\b|"
    r"\bsame\b|\bboth\b|\beither\b|\bneither\b",
    re.I,
)
_ASKS_COMPARISON = re.compile(rf"\bcompar(?:e|ison){_ARTEFACT}\b|\bvs\.?\b|\bversus\b", re.I)


def _between_and(question: str) -> bool:
    """Whether a line holds "between ... and" (``\bbetween\b.+\band\b`` without its quadratic backtracking)."""
    for line in question.splitlines():  # ".+" does not cross a line break
        between = re.search(r"\bbetween\b", line, re.I)
        if between and _GERUND.search(line[: between.start()]):
            continue  # "round-tripping between YAML and JSON": an activity that joins the two, not a comparison
        if between and re.search(r"\band\b", line[between.end() + 1 :], re.I):
            return True
    return False


_GERUND = re.compile(r"\b[a-z][a-z-]*[^aeiou\W]ing\s*$", re.I)
"""An activity named right before "between" ("switching between", "round-tripping between"); not "during"."""


def is_comparison(question: str, sides: list[str]) -> bool:
    if len(sides) < 2:
        return bool(_ASKS_COMPARISON.search(question))
    if _COMPARISON_CUES.search(question) or _between_and(question) or _parallel_pair(question):
        return True
    if than_pair(normalize_space(question).rstrip("?. ")):
        return True
    if period_change(question) or period_pair(question):
        return True
    return bool(re.search(r"\bor\b", question) and (COMPARATIVE.search(question) or
                re.match(r"(?i)(which|who|whose|is|are|was|were|does|did|do)\b", question)))  # fmt: skip
