"""The verdict of a comparison: which side the question's comparative picks, or whether the sides agree.

The reader states each side's passage on its own line ("Acme: founded in 1931 ..." / "Globex: founded in
1952 ..."). A question that compares ("Which was founded first, Acme or Globex?", "Were both founded in
Ohio?") asks for more than the two passages: the answer names the side it picks, or says yes or no, and
why, from the values those passages state. This module reads that verdict from the passages alone, and
gives none when a side's passage states no value of the kind compared: a guess would read as a finding.

Pure: question text and the side passages in, one line of text (or None) out.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Literal

from engine.contracts import ParsedQuestion
from engine.documents.text import NUMBER_WORDS, split_sentences, stems
from engine.reading.answer_type import expected_type
from engine.reading.passages import Unit
from engine.reading.polarity import stated_polarity
from engine.reading.table_values import SCALE_FACTOR, table_scale

Direction = Literal["least", "most"]

EARLIER = re.compile(r"\b(?:earlier|earliest|first|older|oldest|sooner|before)\b", re.I)
"""Comparatives that pick the side with the earlier date: "which was founded first", "who is older" (born
earlier), "which came out earlier"."""
LATER = re.compile(r"\b(?:later|latest|last|younger|youngest|newer|newest|more recent|most recent)\b", re.I)
"""Comparatives that pick the side with the later date ("who is younger" is born later)."""
MORE = re.compile(
    r"\b(?:more|most|larger|largest|bigger|biggest|greater|greatest|higher|highest|longer|longest|taller|tallest"
    r"|wider|widest|heavier|heaviest)\b",
    re.I,
)
"""Comparatives that pick the side with the larger value."""
FEWER = re.compile(
    r"\b(?:fewer|fewest|less|least|smaller|smallest|lower|lowest|shorter|shortest|narrower|lighter)\b", re.I
)
"""Comparatives that pick the side with the smaller value."""
ENDED = re.compile(r"\b(?:died|dies|death|ended|closed|dissolved|disbanded)\b", re.I)
"""A comparison of ends ("who died first"): in a span "(1890 - 1959)" the second year is the end."""
SAME = re.compile(r"\b(?:the\s+)?same\s+(?P<what>[a-z]+)", re.I)
"""A yes/no question asking whether both sides share a value ("formed in the same city", "the same year")."""
BOTH = re.compile(r"\bboth\b", re.I)
"""A yes/no question asking whether a property holds of both sides ("Are both companies based in Ohio?")."""

DATED_YEAR = re.compile(r"\b(1[0-9]{3}|20[0-9]{2})\b")
"""A year in a dated statement ("born in 1870", "formed in 2009"). Wider than the reporting-period year of
``engine.reading.periods`` (1900-2099): a comparison of births or foundings reaches back centuries."""
_MONTH = (
    r"(?:January|February|March|April|May|June|July|August|September|October|November|December"
    r"|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\.?"
)
_DAY_OF_MONTH = re.compile(rf"{_MONTH}\s+\d{{1,2}}\b|\b\d{{1,2}}\s+{_MONTH}", re.I)
"""A day of a date ("January 14", "14 January") is no amount of anything."""
_SPAN = re.compile(r"\b(1[0-9]{3}|20[0-9]{2})\b[^()\d]{0,25}?\s[-\u2013\u2014]\s[^()]{0,25}?\b(1[0-9]{3}|20[0-9]{2})\b")
"""A life or a run written as a span ("(May 7, 1890 - February 20, 1959)"): its start and end years."""
_COMPARED_NOUN = re.compile(
    r"\b(?:more|most|fewer|fewest|less|least|larger|largest|bigger|biggest|greater|greatest|higher|highest"
    r"|lower|lowest|smaller|smallest)\s+(?P<noun>[a-z]+(?:\s+[a-z]+)?)",
    re.I,
)
"""The thing a comparative counts ("more species", "fewer individual members"): an amount must be of it."""
_PLACE_AFTER_IN = re.compile(r"\bin\s+((?:[A-Z][\w\-.']*)(?:,?\s+[A-Z][\w\-.']*){0,3})")
"""A place as prose writes it after "in" ("formed in Buffalo, New York"): capitalised words."""
TIME_UNITS = frozenset({"year", "decade", "century", "date", "day", "month"})
"""After "same", nouns that make the shared value a date (compared by year)."""


def with_verdict(parsed: ParsedQuestion, chosen: Sequence[tuple[str, Unit]], text: str) -> str:
    """``text`` (the answer's side lines) led by the comparison's verdict when its passages settle it; a yes/no
    question of one thing, by the yes or no its first passage states (``polarity``)."""
    if not parsed.sides and chosen and expected_type(parsed.original_question) == "yes_no":
        stated = stated_polarity(parsed.original_question, chosen[0][1].text)
        return f"{stated}.\n{text}" if stated else text
    labels = [side.label for side in parsed.sides]
    quoted = {label: " ".join(u.text for lab, u in chosen if lab == label) for label in labels}
    verdict = side_verdict(parsed.original_question, quoted)
    return f"{verdict}\n{text}" if verdict else text


def side_verdict(question: str, sides: Mapping[str, str]) -> str | None:
    """A first line for a two-sided comparison answer, or None when the passages do not settle it.

    ``sides`` maps each side's label to the text the answer quotes for it."""
    if len(sides) != 2 or not all(sides.values()):
        return None
    if expected_type(question) == "yes_no":
        return _yes_no(question, sides)
    direction, dated = _ordering(question)
    if direction is None:
        return None
    return _pick(question, sides, direction, dated)


def _ordering(question: str) -> tuple[Direction | None, bool]:
    """Which end the comparative picks and whether dates are compared (else amounts)."""
    if EARLIER.search(question):
        return "least", True
    if LATER.search(question):
        return "most", True
    if MORE.search(question):
        return "most", False
    if FEWER.search(question):
        return "least", False
    return None, False


def _pick(question: str, sides: Mapping[str, str], direction: Direction, dated: bool) -> str | None:
    noun = _compared_noun(question)
    ended = bool(ENDED.search(question))
    if not dated:
        return _stated_order(sides, direction) or _pick_amount(sides, direction, noun)
    values = {label: event_year(text, ended) for label, text in sides.items()}
    if any(v is None for v in values.values()):
        return None
    (a, va), (b, vb) = values.items()
    if va == vb:
        return f"Neither: both passages state {_shown(va)}."
    chosen = a if (va < vb) == (direction == "least") else b  # type: ignore[operator]  # None excluded above
    other = b if chosen == a else a
    return f"{chosen} ({_shown(values[chosen])}, against {_shown(values[other])} for {other})."


_THAN = re.compile(
    r"\b(?P<word>more|higher|greater|larger|bigger|lower|fewer|less|smaller)\b[^.;]{0,80}?\bthan\s+"
    r"(?:(?:among|in|for|at|by|with|of|the|those|that)\s+)*(?P<after>[^.;]*)",
    re.I,
)
"""A sentence that states the comparison itself: "support was higher among A than among B"."""
_AFTER_WORDS = 6
"""The side named right after "than" is set within this many words ("than among harbour pilots (82% vs ...)")."""


def _stated_order(sides: Mapping[str, str], direction: Direction) -> str | None:
    """The verdict a passage states outright: a sentence naming both sides, one before a comparative and "than",
    the other right after it ("higher among A than among B" puts A above B). Read before any amount: the sentence's
    first figure may be either side's."""
    labels = list(sides)
    if len(labels) != 2:
        return None
    for sentence in split_sentences(" ".join(sides.values())):
        if not all(stems(label) <= stems(sentence) for label in labels):
            continue
        for m in _THAN.finditer(sentence):
            greater = bool(MORE.fullmatch(m.group("word")))
            after = stems(" ".join(m.group("after").split()[:_AFTER_WORDS]))
            lesser = [lab for lab in labels if stems(lab) <= after and not stems(lab) <= stems(sentence[: m.start()])]
            if len(lesser) != 1:
                continue
            low, high = (lesser[0], next(lab for lab in labels if lab != lesser[0]))
            if not greater:
                low, high = high, low
            chosen = high if direction == "most" else low
            return f"{chosen} (the passage states it: “{sentence.strip()}”)."
    return None


def _pick_amount(sides: Mapping[str, str], direction: Direction, noun: set[str] | None) -> str | None:
    """The side whose first amount is at the ``direction`` end, compared by value: amounts in two scales ("$1.8
    billion" against "1,577" under "(Millions)") by their scaled value; None when only one side's scale is known
    (1,577 of what cannot be set against a billion)."""
    found = {label: _first_amount(text, label, noun) for label, text in sides.items()}
    if any(v is None for v in found.values()):
        return None
    (a, (va, sa)), (b, (vb, sb)) = found.items()  # type: ignore[misc]  # None excluded above
    if bool(sa) != bool(sb):
        return None
    scaled = {a: va * SCALE_FACTOR.get(sa, 1.0), b: vb * SCALE_FACTOR.get(sb, 1.0)}
    shown = {a: f"{_shown(va)} {sa}".strip(), b: f"{_shown(vb)} {sb}".strip()}
    if scaled[a] == scaled[b]:
        return f"Neither: both passages state {shown[a]}."
    chosen = a if (scaled[a] < scaled[b]) == (direction == "least") else b
    other = b if chosen == a else a
    return f"{chosen} ({shown[chosen]}, against {shown[other]} for {other})."


def _yes_no(question: str, sides: Mapping[str, str]) -> str | None:
    same = SAME.search(question)
    if same:
        return _same(same.group("what").lower(), sides)
    if BOTH.search(question):
        return _both(question, sides)
    return None


def _same(what: str, sides: Mapping[str, str]) -> str | None:
    """Whether the sides share the value named after "same": a year for a time noun, else a place."""
    if what in TIME_UNITS:
        years = {label: event_year(text) for label, text in sides.items()}
        if any(y is None for y in years.values()):
            return None
        (a, ya), (b, yb) = years.items()
        return f"{'Yes' if ya == yb else 'No'}: {ya} for {a}, {yb} for {b}."
    places = {label: first_place(text) for label, text in sides.items()}
    if any(p is None for p in places.values()):
        return None
    (a, pa), (b, pb) = places.items()
    shared = _words(pa or "") & _words(pb or "")
    return f"{'Yes' if shared else 'No'}: {pa} for {a}, {pb} for {b}."


def _both(question: str, sides: Mapping[str, str]) -> str | None:
    """Whether what the question asks of both sides is named in each side's passage. The property is the
    question's terms that name neither side; with none left there is nothing to check."""
    label_terms = set().union(*(stems(label) for label in sides))
    asked = stems(question) - label_terms - {"both"}
    if not asked:
        return None
    placed = _both_in_place(question, sides)
    if placed:
        return placed
    held = {label: asked <= stems(text) for label, text in sides.items()}
    if all(held.values()):
        return f"Yes: both passages say {', '.join(sorted(asked))}."
    missing = [label for label, ok in held.items() if not ok]
    unsaid = sorted(set().union(*(asked - stems(sides[label]) for label in missing)))
    return f"Not shown for both: the passage on {' and '.join(missing)} does not say {', '.join(unsaid)}."


def _both_in_place(question: str, sides: Mapping[str, str]) -> str | None:
    """For "Are both X and Y (located|based) in <Place>?": "No" when a side's passage places it elsewhere (its
    first place after "in" does not name the asked one), "Yes" when each passage names the place. None when the
    question asks no place or a passage places its side nowhere: then the words are compared as for any property."""
    asked = first_place(question)
    if asked is None or any(_words(asked) <= _words(label) for label in sides):
        return None
    wanted = _words(asked)
    elsewhere = {label: first_place(text) for label, text in sides.items() if not wanted <= _words(text)}
    if not elsewhere:
        return f"Yes: both passages place them in {asked}."
    if any(place is None for place in elsewhere.values()):
        return None
    shown = "; ".join(f"{label} is in {place}" for label, place in elsewhere.items())
    return f"No: {shown}, not {asked}."


def event_year(text: str, ended: bool = False) -> int | None:
    """The year of a passage's dated event: its first year, or for an end asked of a span, the span's end."""
    if ended:
        span = _SPAN.search(text)
        return int(span.group(2)) if span else None
    match = DATED_YEAR.search(text)
    return int(match.group(1)) if match else None


def _compared_noun(question: str) -> set[str]:
    match = _COMPARED_NOUN.search(question)
    return stems(match.group("noun")) if match else set()


def first_amount(text: str, label: str = "", noun: set[str] | None = None) -> float | None:
    """The first amount a passage states, a spelled one ("a single species") included, ignoring years, days
    of a date and the numbers inside the side's own name. With ``noun`` (the counted thing's stems), only an
    amount followed within three words by that thing counts."""
    found = _first_amount(text, label, noun)
    return found[0] if found else None


def _first_amount(text: str, label: str = "", noun: set[str] | None = None) -> tuple[float, str] | None:
    """``first_amount`` and its scale: the word after it ("1.8 billion"), else the one the passage's table states
    ("(Millions)"), else "" (a percentage has none)."""
    body = _DAY_OF_MONTH.sub(" ", text.replace(label, " ") if label else text)
    spelled = "|".join(w for w, n in NUMBER_WORDS.items() if n)
    pattern = re.compile(rf"(?<![\w.])(\d{{1,3}}(?:,\d{{3}})+|\d+(?:\.\d+)?|{spelled})(?![\w.])", re.I)
    for match in pattern.finditer(body):
        token = match.group(1)
        if DATED_YEAR.fullmatch(token):
            continue
        if noun and not noun & stems(" ".join(body[match.end() :].split()[:3])):
            continue
        word = token.lower()
        if word in NUMBER_WORDS:
            return float(NUMBER_WORDS[word]), ""
        return float(token.replace(",", "")), _scale_of(body[match.end() :], text)
    return None


_SCALE_AFTER = re.compile(r"^\s?(thousand|million|billion|trillion|bn|mn)\b", re.I)
"""A scale word right after an amount ("$1.8 billion"): two sides in different scales compare by their value."""
_PERCENT_AFTER = re.compile(r"^\s?(?:%|percent\b|per cent\b)", re.I)


def _scale_of(after: str, passage: str) -> str:
    """The scale word after an amount, else the scale the passage's table states ("(Millions)"); "" for a
    percentage or when neither says."""
    if _PERCENT_AFTER.match(after):
        return ""
    word = _SCALE_AFTER.match(after)
    return (
        {"bn": "billion", "mn": "million"}.get(word.group(1).lower(), word.group(1).lower())
        if word
        else table_scale(passage)
    )


def first_place(text: str) -> str | None:
    """The first place a passage names after "in" ("in Buffalo, New York")."""
    for match in _PLACE_AFTER_IN.finditer(text):
        words = match.group(1).rstrip(".,")
        if not DATED_YEAR.fullmatch(words) and not re.match(
            r"(?:January|February|March|April|May|June|July|August"
            r"|September|October|November|December)\b",
            words,
        ):
            return words
    return None


def _words(text: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[A-Za-z]{3,}", text)}


def _shown(value: float | int | None) -> str:
    if isinstance(value, float) and value.is_integer():
        return f"{int(value):,}" if value >= 10000 else str(int(value))
    return str(value)


__all__ = ["event_year", "first_amount", "first_place", "side_verdict", "with_verdict"]
