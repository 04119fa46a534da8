"""Words one side of a comparison lends the search of another (relevance feedback across documents).

Two documents compared on the same aspect describe it in related words, but not the question's: the
OpenAPI 3.1.0 specification says a file upload uses a "multipart" media type, the 2.0 specification
speaks of "multipart/form-data" parameters and never says "upload". When one side's passages answer
and the other side has no passage yet, the words that the answering passages use often, and that the
other document uses on few of its pages, are a query for the missing side. Pure: the caller gives the
texts.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

from engine.documents.text import STOPWORDS, stems

_WORD = re.compile(r"[A-Za-z][A-Za-z\-/]{3,}")
"""Words of four letters or more: shorter ones are mostly function words and abbreviations."""

MAX_SHARE = 0.2
"""A word on more than this share of the other document's pages is that document's common vocabulary
(its subject, its boilerplate) and does not point at one passage."""


def borrowed_words(answering: Sequence[str], other_pages: Sequence[str], known: set[str], limit: int = 5) -> list[str]:
    """Up to ``limit`` words of the ``answering`` passages for a search of the other document.

    A word qualifies when the other document uses it on at least one page but on at most ``MAX_SHARE``
    of them, and its stem is not ``known`` (the question's own terms and the sides' names, which the
    side's search already holds). Ranked by how often the answering passages use it, weighted by how
    rare it is among the other document's pages.
    """
    page_stems = [stems(text) for text in other_pages]
    if not page_stems:
        return []
    counts: Counter[str] = Counter()
    surface: dict[str, str] = {}
    for text in answering:
        for word in _WORD.findall(text):
            low = word.lower().strip("-/")
            if low in STOPWORDS:
                continue
            key = frozenset(stems(low))
            if len(key) != 1 or key & known:
                continue
            stem = next(iter(key))
            counts[stem] += 1
            surface.setdefault(stem, low)
    ranked: list[tuple[float, str]] = []
    for stem, count in counts.items():
        pages = sum(1 for s in page_stems if stem in s)
        if pages == 0 or pages > MAX_SHARE * len(page_stems):
            continue
        ranked.append((count * math.log((len(page_stems) + 1) / pages), stem))
    ranked.sort(key=lambda pair: (-pair[0], pair[1]))
    return [surface[stem] for _, stem in ranked[:limit]]
