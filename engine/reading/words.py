"""Word splitting and word classes of the offline question rules (the lists are in ``lexicon``)."""

from __future__ import annotations

import re

from engine.documents.text import STOPWORDS, find_references
from engine.reading.lexicon import GENERIC, QUESTION_WORDS
from engine.reading.periods import starts_with_date

WORD = re.compile(r"[A-Za-z0-9$%][A-Za-z0-9.\-&'/$%@]*[A-Za-z0-9%]|[A-Za-z0-9]")
"""A word; "@" inside one keeps a metric cut off at a rank whole ("Recall@50", "P@10"): its rank is part of its name."""
SEGMENT_SPLIT = re.compile(r"[,;:?!()\[\]\"“”/+*=]+")
REF_WORD = re.compile(r"\b(figures?|fig\.|tables?|sections?|appendix|chapters?|items?|exhibits?)\s*(?=\d)", re.I)


def split_words(text: str) -> list[str]:
    """The words of ``text``, possessive 's removed."""
    return [re.sub(r"['’]s$", "", w) for w in WORD.findall(text)]


def question_references(question: str) -> tuple[str, ...]:
    """References in a question, also when typed in lower case ("in figure 3")."""
    return find_references(REF_WORD.sub(lambda m: m.group(1)[0].upper() + m.group(1)[1:].lower() + " ", question))


def is_generic(word: str) -> bool:
    """A stopword, a question word, or a word that says what to do with the answer."""
    low = word.lower()
    return low in STOPWORDS or low in GENERIC or low in QUESTION_WORDS


def is_capitalised(word: str, index: int) -> bool:
    """Whether ``word`` at position ``index`` starts a name ("FY2018", "Heron"), not a sentence."""
    if any(ch.isdigit() for ch in word) and any(ch.isalpha() for ch in word):
        return True  # FY2018, 3M, 10-K
    if not word[0].isupper() or is_generic(word):
        return False
    return not (index == 0 and word.lower() in STOPWORDS)


def starts_name(words: list[str]) -> bool:
    """A capitalised word before another that begins a proper name ("Greater China", "Northern Trust"), where a
    comparative or generic word would otherwise be trimmed; a question word or article never does. A date begins
    with its month ("May 31, 2030"), though "may" is a stop word."""
    if starts_with_date(" ".join(words[:3])):
        return True
    return (
        len(words) > 1 and words[0][:1].isupper() and words[1][:1].isupper()
        and words[0].lower() not in STOPWORDS | QUESTION_WORDS
    )  # fmt: skip
