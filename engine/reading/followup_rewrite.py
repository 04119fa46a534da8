"""Offline rules that rewrite a follow-up question into a full question, using the previous turn.

The common short forms are resolved; anything else is returned unchanged (a full question needs no
rewriting). Every rule is about the form of the follow-up, never about a subject:

- "And what about X?" / "How about X?" / "And for X?" : X takes the place of the previous question's
  matching part: a year replaces its year; a name sharing a word with one of its names replaces that
  name; another name replaces its subject ("... of the Heron 2" -> "... of X"); a plain noun replaces
  the thing asked for ("the wingspan of" -> "the X of").
- "And in 2022?" : the previous question with its year replaced (or the year added).
- "Are there any others?" / "Anything else?" : the previous question asked for further items ("What other
  kinds of ...", "Who else ...").
- "Why?" / "Why is that?" : asks for the reason of the previous answer.
- A short follow-up with "it", "its", "they" ... and no name of its own: the pronoun becomes the
  previous question's subject.
"""

from __future__ import annotations

import re

from engine.contracts import FollowUpRewrite
from engine.documents.text import STOPWORDS
from engine.reading.periods import YEAR as PERIODS_YEAR

YEAR = re.compile(rf"\b((?:FY|fiscal(?:\s+year)?\s*)?)({PERIODS_YEAR})\b", re.I)
"""A year, with an optional fiscal prefix ("FY2022", "fiscal 2022")."""

BARE_PERIOD = re.compile(
    rf"(?:and\s+)?(?:in|for|during)?\s*(?:FY|fiscal(?:\s+year)?\s*)?(?P<year>{PERIODS_YEAR})\s*\??", re.I
)
"""A follow-up that is only a period: "2019?", "In 2019?", "FY2020?"."""

WHAT_ABOUT = re.compile(
    r"^(?:and\s+|also\s+)?(?:do\s+)?(?:the\s+)?same\s+(?:for|in|with)\s+|"
    r"^(?:and|but|so|ok(?:ay)?|also)?[\s,]*"
    r"(?:what|how)\s+about\s+|^(?:and|also)\s+(?:for|in|with|at|on)?\s*|^(?:same|the\s+same)\s+for\s+|^for\s+",
    re.I,
)
"""Leads of a follow-up that names only the new part: "and what about", "how about", "and (for)", "same for",
"for"; "(and) the same for" comes first, so its lead is not read as a bare "and"."""

OTHERS = re.compile(
    r"^(?:and\s+)?(?:(?:are|is)\s+there\s+(?:any(?:thing)?\s+)?(?:others?|more|else|other\s+ones?|additional\s+ones?)"
    r"|any(?:thing)?\s+(?:others?|more|else)|what\s+else|who\s+else|which\s+others?|anything\s+else|more|others)"
    r"\s*\??$",
    re.I,
)
"""Asks for further items of the previous answer ("are there any others?", "anything else?", "what else?")."""

WHY = re.compile(r"^(?:and\s+|but\s+)?(?:why|how\s+come|for\s+what\s+reason)(?:\s+(?:is|was)\s+(?:that|it|this)"
                 r"|\s+so|\s+not)?\s*\??$", re.I)  # fmt: skip
"""A bare request for the reason ("why?", "why is that?", "how come?", "why not?")."""

PRONOUN = re.compile(r"\b(it|its|they|them|their|this one|that one)\b", re.I)
"""Pronouns that point back at the previous question's subject."""

SUBJECT_SLOTS = re.compile(
    r"^(?P<head>(?:what|which|how\s+(?:much|many|long|big|high|large|old))\s+(?:is|was|are|were)\s+)"
    r"(?P<attr>(?:the\s+|a\s+|an\s+)?[^?]+?)\s+(?P<prep>of|for|in|at|on|by|from)\s+(?P<subject>[^?]+?)\s*\??$",
    re.I,
)
"""'<what|which|how much> <is|was|are|were> <the thing asked for> <of|for|in ...> <subject>?': the two slots
a follow-up may replace (only the copula form: its slots are unambiguous)."""
REFERENCE = re.compile(r"^(?:table|figure|fig\.|section|appendix|chapter|item|exhibit|note|page|part)\b", re.I)
"""A document reference ("Table 3"): a place in the document, never the subject a follow-up swaps."""
DETERMINER = re.compile(r"^(?:the|a|an|this|that|these|those)\s+", re.I)
NUMBER_WORD = r"(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
COUNT_AFTER_WH = re.compile(rf"^((?:what|which)\s+){NUMBER_WORD}\s+", re.I)
"""A count right after "what/which" ("What three kinds ..."): dropped when asking for the others."""

MAX_FOLLOW_UP_WORDS = 8
"""Follow-up forms are short; a longer question is taken as a full question."""
MAX_PRONOUN_FOLLOW_UP_WORDS = 14
"""A follow-up that points back with a pronoun may be a whole question of its own ("What were its research
and development costs in 2018?"): up to this many words it is resolved against the previous subject."""
MAX_WHY_SENTENCE = 220
"""Longest previous-answer sentence quoted in a rewritten "why" question."""


def _words(text: str) -> list[str]:
    return re.findall(r"[A-Za-z0-9][A-Za-z0-9&'.-]*", text)


def _content(text: str) -> set[str]:
    return {w.lower() for w in _words(text) if w.lower() not in STOPWORDS}


def _is_name(word: str) -> bool:
    return word[:1].isupper() or any(ch.isdigit() for ch in word)


def _names(question: str) -> list[tuple[int, int]]:
    """Spans of capitalised or numbered word runs ("Heron 3", "3M", "the Americas"), each with a determiner
    right before it; the sentence's first word, document references and bare years are not names."""
    spans = []
    for match in re.finditer(r"(?:[A-Z0-9][\w&'.-]*)(?:\s+(?:[A-Z0-9][\w&'.-]*))*", question):
        start, end = match.span()
        words = match.group(0).split()
        if start == 0 and words[0].lower() in STOPWORDS | {"what", "which", "who", "how", "when", "where"}:
            start += len(words[0])
            while start < end and question[start] == " ":
                start += 1
            if start >= end:
                continue
        text = question[start:end]
        if REFERENCE.match(text) or YEAR.fullmatch(text):
            continue
        determiner = re.search(r"\b(?:the|a|an)\s+$", question[:start], re.I)
        spans.append((determiner.start() if determiner else start, end))
    return spans


def _strip(question: str) -> str:
    return question.strip().rstrip("?.! ").strip()


def _with_year(previous: str, year: str) -> str:
    if YEAR.search(previous):
        return YEAR.sub(lambda m: m.group(1) + year, previous, count=1)
    return f"{_strip(previous)} in {year}?"


def _replace_span(text: str, span: tuple[int, int], new: str) -> str:
    """``text`` with ``span`` replaced by ``new``, minus the words of ``new`` that the text already has right
    after the span ("the Orion line" -> "the Vega line" replaces "the Orion", keeps one "line")."""
    following = [w.lower() for w in _words(text[span[1] :])]
    if re.search(r"['\u2019]s$", text[span[0] : span[1]]) and not re.search(r"['\u2019]s$", new):
        new += "'s"  # "Acme's revenue" -> "Globex's revenue": the possessive stays
    words = new.split()
    for k in range(min(len(words) - 1, len(following)), 0, -1):
        if [w.lower().strip(".,") for w in words[-k:]] == following[:k]:
            new = " ".join(words[:-k])
            break
    return text[: span[0]] + new + text[span[1] :]


def _what_about(previous: str, target: str) -> str:
    """The previous question with ``target`` in the place of its matching part."""
    possessive = bool(re.match(r"(?:its|their)\s+", target.strip(), re.I))
    target = re.sub(r"^(?:its|their)\s+", "", target.strip().rstrip("?.! ").strip(), flags=re.I)
    years = YEAR.findall(target)
    rest = YEAR.sub("", target).strip(" ,")
    rest = re.sub(r"^(?:in|for|during)\s*$", "", rest, flags=re.I).strip()
    question = previous.strip()
    if years:
        question = _with_year(question, years[0][1])
    if not rest:
        return question
    bare = DETERMINER.sub("", rest)
    shared = [s for s in _names(question) if _content(question[s[0] : s[1]]) & _content(bare)]
    if shared:
        return _replace_span(question, shared[0], rest)
    slots = SUBJECT_SLOTS.match(question)
    if any(_is_name(w) for w in _words(rest)):
        names = _names(question)
        if names:
            return _replace_span(question, names[-1], rest)
        if slots:
            return _replace_span(question, slots.span("subject"), rest)
    elif slots and DETERMINER.match(rest):  # "the smaller drone": a described subject
        return _replace_span(question, slots.span("subject"), rest)
    elif slots:  # "payload": the thing asked for
        subject = _subject(question) if possessive and _is_period(slots.group("subject")) else None
        if subject and subject in slots.group("attr"):  # "its debt" after "Acme's revenue in 2019"
            return _replace_span(question, slots.span("attr"), f"{subject}'s {bare}")
        determiner = re.match(r"(?:the|a|an)\s+", slots.group("attr"), re.I)
        return _replace_span(question, slots.span("attr"), (determiner.group(0) if determiner else "") + bare)
    return f"{_strip(question)}: what about {rest}?"


def _others(previous: str) -> str:
    """ "What three kinds of X ...?" -> "What other kinds of X ...?"; "Who ...?" -> "Who else ...?"."""
    question = COUNT_AFTER_WH.sub(r"\1", _strip(previous))
    if re.match(r"(?:what|which)\s+(?!other\b|else\b|is\b|are\b|was\b|were\b|do\b|does\b|did\b)\w", question, re.I):
        return re.sub(r"^(\w+)\s+", r"\1 other ", question, count=1) + "?"
    if re.match(r"who\s+(?!else\b)", question, re.I):
        return re.sub(r"^(\w+)\s+", r"\1 else ", question, count=1) + "?"
    return f"{question}, other than those already found?"


def _why(previous: str, previous_answer: str) -> str:
    sentence = re.split(r"(?<=[.!?])\s+|\n", previous_answer.strip(), maxsplit=1)[0].strip().rstrip(".")
    sentence = re.sub(r"\s*\([^)]*\)\s*$", "", sentence)
    if 0 < len(sentence) <= MAX_WHY_SENTENCE:
        if sentence.split()[0].lower() in STOPWORDS:  # "The ...", "It ...": never a name
            sentence = sentence[:1].lower() + sentence[1:]
        return f"Why is it that {sentence}?"
    return f"What is the reason behind this: {_strip(previous)}?"


def _is_period(text: str) -> bool:
    """A year or fiscal year ("2018", "FY2018", "fiscal 2018"): when a question happened, never what it is about."""
    return bool(YEAR.fullmatch(DETERMINER.sub("", text.strip()))) or bool(re.fullmatch(r"(?:19|20)\d{2}s?", text))


def _subject(previous: str) -> str | None:
    """What the previous question was about: its subject slot unless that is a period, else its last name
    (a possessive "Acme's" names the subject "Acme")."""
    slots = SUBJECT_SLOTS.match(previous.strip())
    if slots and not _is_period(slots.group("subject")):  # "Initech in 2020": the period is not the subject
        return re.sub(r"\s+(?:in|for|during|as\s+of|at\s+the\s+end\s+of)\s+\S*\d{4}\S*$", "", slots.group("subject"))
    names = [previous[a:b] for a, b in _names(previous)]
    names = [re.sub(r"['\u2019]s$", "", n) for n in names if not _is_period(n)]
    return names[-1] if names else None


def _pronouns(question: str, previous: str) -> str | None:
    words = _words(question)
    names = [w for w in words[1:] if _is_name(w) and not _is_period(w)]  # a year is not a new subject
    if len(words) > MAX_PRONOUN_FOLLOW_UP_WORDS or names or not PRONOUN.search(question):
        return None
    subject = _subject(previous)
    if not subject:
        return None

    def swap(match: re.Match[str]) -> str:
        word = match.group(1).lower()
        return f"{subject}'s" if word in ("its", "their") else subject

    return PRONOUN.sub(swap, question, count=1)


def rewrite_follow_up(question: str, previous_question: str, previous_answer: str = "") -> FollowUpRewrite:
    """A follow-up turned into a full question with the previous turn's question (and its answer, for "why";
    empty when the previous turn found none)."""
    text = " ".join(question.split())
    if not text:
        raise ValueError("an empty follow-up cannot be rewritten")
    if not previous_question.strip():
        return FollowUpRewrite(question=text, rule="unchanged")
    if len(_words(text)) > MAX_FOLLOW_UP_WORDS:
        resolved = _pronouns(text, previous_question)  # a longer question that points back with "its"
        return FollowUpRewrite(question=resolved or text, rule="pronoun" if resolved else "unchanged")
    if WHY.match(text):
        return FollowUpRewrite(question=_why(previous_question, previous_answer), rule="why")
    if OTHERS.match(text):
        return FollowUpRewrite(question=_others(previous_question), rule="others")
    lead = WHAT_ABOUT.match(text)
    if lead and text[lead.end() :].strip(" ?"):
        return FollowUpRewrite(question=_what_about(previous_question, text[lead.end() :]), rule="what_about")
    period = BARE_PERIOD.fullmatch(text)
    if period:
        return FollowUpRewrite(question=_with_year(previous_question, period.group("year")), rule="period")
    resolved = _pronouns(text, previous_question)
    if resolved:
        return FollowUpRewrite(question=resolved, rule="pronoun")
    return FollowUpRewrite(question=text, rule="unchanged")
