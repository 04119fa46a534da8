"""Shared vocabulary of the offline question rules: generic words, connectors, word splitting."""

from __future__ import annotations

import re

from engine.bricks.text import STOPWORDS, find_references

MAX_KEYWORDS = 10

GENERIC = frozenset(
    [
        "compare",
        "compared",
        "comparing",
        "comparison",
        "versus",
        "vs",
        "difference",
        "differences",
        "differ",
        "differs",
        "differed",
        "contrast",
        "overall",
        "general",
        "summarize",
        "summarise",
        "summary",
        "main",
        "theme",
        "themes",
        "enumerate",
        "name",
        "named",
        "brief",
        "briefly",
        "exactly",
        "respectively",
        "approximately",
        "primarily",
        "information",
        "details",
        "detail",
        "relying",
        "rely",
        "response",
        "assume",
        "analyst",
        "report",
        "reported",
        "reports",
        "show",
        "shows",
        "shown",
        "say",
        "says",
        "said",
        "state",
        "states",
        "stated",
        "discuss",
        "discussed",
        "discusses",
        "present",
        "presented",
        "presents",
        "find",
        "found",
        "contain",
        "contains",
        "include",
        "includes",
        "included",
        "mean",
        "means",
        "happen",
        "happened",
        "does",
        "did",
        "like",
        "think",
        "know",
        "best",
        "equity",
        "public",
        "whereas",
        "better",
        "worse",
        "there",
        "drove",
        "drive",
        "drives",
        "driven",
        "achieve",
        "achieved",
        "achieves",
        "explored",
        "explore",
        "explores",
        "considered",
        "consider",
        "applied",
        "apply",
        "applies",
        "described",
        "perform",
        "performs",
        "performed",
        "obtain",
        "obtained",
        "work",
        "works",
        "usd",
        "millions",
        "billions",
        "thousands",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "twelve",
        "several",
        "various",
        "respective",
        "more",
        "less",
        "fewer",
        "higher",
        "lower",
        "earlier",
        "later",
        "larger",
        "bigger",
        "smaller",
        "older",
        "younger",
        "greater",
        "longer",
        "shorter",
        "first",
        "faster",
        "slower",
        "most",
        "least",
        "highest",
        "lowest",
        "largest",
        "smallest",
        "oldest",
        "youngest",
        "write",
        "written",
    ]
)
"""Words that say what to do with the answer rather than what to look for."""

QUESTION_WORDS = frozenset(
    [
        "what",
        "which",
        "who",
        "whom",
        "whose",
        "when",
        "where",
        "why",
        "how",
        "is",
        "are",
        "was",
        "were",
        "do",
        "does",
        "did",
        "can",
        "could",
    ]
)
CONNECTORS = frozenset({"of", "de", "del", "da", "von", "van", "the", "la", "le", "du", "and", "in", "on", "for"})
INNER_CONNECTORS = frozenset({"of", "de", "del", "da", "von", "van", "la", "le", "du"})
WORD = re.compile(r"[A-Za-z0-9$%][A-Za-z0-9.\-&'/$%]*[A-Za-z0-9%]|[A-Za-z0-9]")
COMPARATIVE = re.compile(
    r"\b(more|less|fewer|higher|lower|earlier|later|larger|bigger|smaller|older|younger|greater|longer|shorter|"
    r"first|faster|slower|better|worse|most|least|highest|lowest|largest|smallest|oldest|youngest|cheaper|heavier)\b",
    re.I,
)
SEGMENT_SPLIT = re.compile(r"[,;:?!()\[\]\"“”/+*=]+")
SECTION_KINDS = ("Section", "Item", "Appendix", "Chapter", "Schedule", "Exhibit", "Note")


PHRASE_BREAKERS = frozenset(
    [
        "give",
        "gives",
        "gave",
        "take",
        "takes",
        "took",
        "integrate",
        "integrates",
        "propose",
        "proposes",
        "corresponds",
        "correspond",
        "appear",
        "appears",
        "need",
        "needs",
        "needed",
        "set",
        "sets",
        "demonstrate",
        "demonstrates",
        "demonstrating",
        "viewing",
        "displayed",
        "stay",
        "provide",
        "provides",
        "become",
        "becomes",
        "became",
        "remain",
        "remains",
        "lead",
        "leads",
        "led",
        "make",
        "makes",
        "affect",
        "affects",
        "compare",
        "relate",
        "relates",
    ]
)
"""Common verbs that end a lower-case noun phrase ("temperature gives" is not a term)."""
REF_WORD = re.compile(r"\b(figures?|fig\.|tables?|sections?|appendix|chapters?|items?|exhibits?)\s*(?=\d)", re.I)


def split_words(text: str) -> list[str]:
    return [re.sub(r"['’]s$", "", w) for w in WORD.findall(text)]


def question_references(question: str) -> tuple[str, ...]:
    """References in a question, also when typed in lower case ("in figure 3")."""
    return find_references(REF_WORD.sub(lambda m: m.group(1)[0].upper() + m.group(1)[1:].lower() + " ", question))


def is_generic(word: str) -> bool:
    low = word.lower()
    return low in STOPWORDS or low in GENERIC or low in QUESTION_WORDS


def is_capitalised(word: str, index: int) -> bool:
    if any(ch.isdigit() for ch in word) and any(ch.isalpha() for ch in word):
        return True  # FY2018, 3M, 10-K
    if not word[0].isupper() or is_generic(word):
        return False
    return not (index == 0 and word.lower() in STOPWORDS)
