"""Yes or no, from the one passage that states what a yes/no question asks.

"Are the leather straps water resistant?" over "Leather straps are not water resistant." is answered
"No"; over "The straps are water resistant to 50 m." it is answered "Yes". The verdict is read only when the
passage holds nearly all of the question's own words (it speaks of the same thing), and its sign is the
passage's: a negation right before one of those words ("not water resistant", "cannot be worn") makes it
"No". A question that is itself negated ("Isn't it ...?") gets no verdict: its yes and no are ambiguous; nor
does one that compares or measures ("Did sales exceed costs?"): values settle it, not the passage's sign.

Pure: question and passage text in, "Yes", "No" or None out.
"""

from __future__ import annotations

import re
from typing import Literal

from engine.documents.text import stem, stems

MIN_COVER = 0.75
"""Share of the question's own words the passage must hold to speak of what is asked."""
NEGATION_REACH = 4
"""A negation settles the sign when it stands this many words or fewer before a word of the question."""
_NEGATION = re.compile(r"^(?:not|no|never|cannot|neither|nor|without|none)$|n't$", re.I)
_WORD = re.compile(r"[A-Za-z][A-Za-z'’\-]*")


_MEASURED = re.compile(
    r"\b(?:than|exceed\w*|outperform\w*|surpass\w*|beat|more|less|fewer|higher|lower|larger|smaller|greater|"
    r"increas\w*|decreas\w*|grow\w*|grew|ris\w*|rose|fall\w*|fell|declin\w*|improv\w*|drop\w*|change\w*|"
    r"above|below|over|under|at least|at most)\b",
    re.I,
)
"""A question that compares or measures ("did sales exceed costs", "did the margin improve") is settled by values,
not by a passage that merely speaks of the same things."""


def stated_polarity(question: str, passage: str) -> Literal["Yes", "No"] | None:
    """The yes or no ``passage`` states to ``question`` (module doc), or None when it does not settle it."""
    if any(_NEGATION.search(w) for w in _WORD.findall(question)) or _MEASURED.search(question):
        return None
    asked = stems(question)  # the verbs a yes/no question opens with ("are", "can") are stop words: no stems
    words = _WORD.findall(passage)
    held = stems(passage)
    if not asked or len(asked & held) / len(asked) < MIN_COVER:
        return None
    for n, word in enumerate(words):
        if _NEGATION.search(word):
            ahead = {stem(w) for w in words[n + 1 : n + 1 + NEGATION_REACH]}
            if ahead & asked:
                return "No"
    return "Yes"


__all__ = ["MIN_COVER", "stated_polarity"]
