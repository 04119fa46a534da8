"""Answer matching: a gold answer (a number, a short string or a list of them) found in an answer's text."""

from __future__ import annotations

import ast
import math
import re
from collections.abc import Sequence

from engine.documents.text import stems, without_references
from engine.reading.periods import without_periods

NUMERIC_TOLERANCE = 0.01
"""Relative tolerance of a numeric answer match."""
MAX_SHORT_WORDS = 12
"""Gold strings with more words than this are not scored for answer match (free-form answers)."""

_SCALES = {"thousand": 1e3, "k": 1e3, "million": 1e6, "mn": 1e6, "m": 1e6, "billion": 1e9, "bn": 1e9, "b": 1e9,
           "trillion": 1e12, "tn": 1e12}  # fmt: skip
_CURRENCY = re.compile(r"[$€£¥₹]|\b(?:usd|eur|gbp|us\$)\b", re.I)
_NUMBER = re.compile(
    r"(?<![\w.])(?P<neg>[-−–(])?\s?(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"
    r"\s?(?P<unit>%|percent\b|per cent\b|thousand\b|million\b|billion\b|trillion\b|mn\b|bn\b|tn\b|[kmb]\b)?",
    re.I,
)
_PAGE_MARK = re.compile(r"\bpp?\.\s*\d+(?:\s*[-\u2013]\s*\d+)?", re.I)
"""A page marker ("p. 15"): like a reference's label ("Figure 5"), a number that locates, never one that answers."""
MAX_SENTENCE_WORDS = 30
"""A gold sentence longer than this is an explanation: the numbers in it are not all part of the answer."""
MAX_KEY_NUMBERS = 3
"""A gold sentence stating more numbers than this is a table in words, not one value."""
SENTENCE_WORD_SHARE = 1 / 3
"""A sentence gold's values count as stated only in an answer holding this share of its other words: "spaCy
2.0" is not stated by an answer that says "2.0" of something else."""
_DAY = re.compile(r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}\b", re.I)
"""A date's day ("August 30"): it says when, not what."""
_GLUED = re.compile(r"\b[A-Za-z]+-\d+\b|\b\d+-[A-Za-z]+\b")
"""Digits joined to a word by a hyphen name something ("COVID-19", "10-K"); they state no value."""
_PUNCT = re.compile(r"[^\w%.\s]|(?<!\d)\.|\.(?!\d)")


# ------------------------------------------------------------------------------------------
# Answer normalisation and matching
# ------------------------------------------------------------------------------------------


def normalize_answer(text: str) -> str:
    """Lower case, no currency symbols, no thousands separators, "percent" as "%", single spaces."""
    text = text.lower().replace("−", "-").replace("–", "-").replace("—", "-")
    text = _CURRENCY.sub(" ", text)
    text = re.sub(r"(?<=\d),(?=\d{3}\b)", "", text)
    text = re.sub(r"\s*(?:per cent|percent)\b", "%", text)
    text = re.sub(r"(\d+\.\d*?)0+\b", r"\1", text)  # trailing zeros: 1577.00 -> 1577.
    text = re.sub(r"(\d)\.(?!\d)", r"\1", text)
    text = _PUNCT.sub(" ", text)
    text = re.sub(r"(?<=\d)(?=[a-z])", " ", text)  # 3cm -> 3 cm
    return " ".join(text.split())


def _value(match: re.Match[str]) -> tuple[float, float]:
    """(mantissa, scaled value) of a number match."""
    number = float(match.group("num").replace(",", ""))
    if match.group("neg") in ("-", "−", "–", "("):
        number = -number
    unit = (match.group("unit") or "").lower()
    return number, number * _SCALES.get(unit, 1.0)


def numbers_in(text: str) -> list[tuple[float, float]]:
    """Every number in ``text`` as (mantissa, value with its scale word applied)."""
    return [_value(m) for m in _NUMBER.finditer(text.replace("−", "-"))]


def _fractions_of_percents(text: str) -> list[float]:
    """Every percentage in ``text`` as a fraction ("10.9%" -> 0.109): a gold ratio written as a decimal ("0.109")
    is the same value as an answer's percentage, and the other way round."""
    found = _NUMBER.finditer(text.replace("−", "-"))
    return [_value(m)[0] / 100 for m in found if (m.group("unit") or "").lower() in ("%", "percent", "per cent")]


def gold_number(gold: str) -> tuple[float, float] | None:
    """The value of a gold answer that is a single number (with currency, unit or %), else None."""
    stripped = _CURRENCY.sub(" ", gold).strip().rstrip(".")
    match = _NUMBER.fullmatch(stripped) or _NUMBER.fullmatch(stripped.replace(" ", ""))
    return _value(match) if match else None


_MEASURES = (
    # the spellings of one unit of measure: a gold "52 minutes" is stated as "52 min" as often
    ("min", "mins", "minute", "minutes"), ("h", "hr", "hrs", "hour", "hours"), ("s", "sec", "secs", "second", "seconds"),
    ("kg", "kilogram", "kilograms", "kilogramme", "kilogrammes"), ("g", "gram", "grams"),
    ("km", "kilometre", "kilometres", "kilometer", "kilometers"), ("m", "metre", "metres", "meter", "meters"),
    ("cm", "centimetre", "centimetres", "centimeter", "centimeters"),
    ("mm", "millimetre", "millimetres", "millimeter", "millimeters"),
    ("day", "days"), ("week", "weeks"), ("month", "months"), ("year", "years", "yr", "yrs"),
)  # fmt: skip
_MEASURE_FAMILY = {form: family for family in _MEASURES for form in family}
_GOLD_MEASURE = re.compile(r"^\s*(?P<num>\d[\d,]*(?:\.\d+)?)\s?(?P<unit>[a-z]+)\.?\s*$", re.I)


def sentence_numbers(gold: str) -> list[tuple[float, float]]:
    """The values a short gold sentence states ("JnJ sold its inventory 2.7 times in FY2022." -> 2.7): its
    numbers other than periods, dates' days, reference labels and names with digits. Empty for a gold that
    is one number or a list, a long explanation, or a sentence stating more than ``MAX_KEY_NUMBERS``."""
    if gold_number(gold) is not None or _list_items(gold) is not None or len(gold.split()) > MAX_SENTENCE_WORDS:
        return []
    text = _GLUED.sub(" ", _DAY.sub(" ", without_periods(without_references(gold))))
    found = numbers_in(text)
    return found if len(found) <= MAX_KEY_NUMBERS else []


def _shares_words(gold: str, answer: str, question: str = "") -> bool:
    """The answer holds at least ``SENTENCE_WORD_SHARE`` of the gold sentence's words (stems; no numbers,
    no periods); words the question names count as held (an answer need not repeat its subject)."""
    words = {w for w in stems(without_periods(gold)) if not any(ch.isdigit() for ch in w)}
    return not words or len(words & (stems(answer) | stems(question))) >= SENTENCE_WORD_SHARE * len(words)


def _measure_match(gold: str, answer: str) -> bool | None:
    """For a gold number with a unit of measure ("52 minutes"): whether the answer states the number in
    any spelling of that unit ("52 min"); None when the gold is not such a number."""
    m = _GOLD_MEASURE.match(gold)
    family = _MEASURE_FAMILY.get(m.group("unit").lower()) if m else None
    if m is None or family is None:
        return None
    value = float(m.group("num").replace(",", ""))
    forms = "|".join(sorted(family, key=len, reverse=True))
    stated = re.finditer(rf"(?<![\w.])(\d[\d,]*(?:\.\d+)?)\s?(?:{forms})\b", answer, re.I)
    return any(_close(float(x.group(1).replace(",", "")), value) for x in stated)


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=NUMERIC_TOLERANCE, abs_tol=1e-9)


def _number_match(gold: tuple[float, float], answer: str, gold_text: str = "") -> bool:
    g_raw, g_scaled = gold
    if any(_close(abs(raw), abs(g_raw)) or _close(abs(scaled), abs(g_scaled)) for raw, scaled in numbers_in(answer)):
        return True
    if 0 < abs(g_raw) < 1 and "%" not in gold_text:  # a ratio as a decimal, stated as a percentage
        return any(_close(abs(f), abs(g_raw)) for f in _fractions_of_percents(answer))
    return any(_close(abs(g), abs(raw)) for g in _fractions_of_percents(gold_text) for raw, _ in numbers_in(answer)
               if 0 < abs(raw) < 1)  # fmt: skip


def _string_match(gold: str, answer: str) -> bool:
    g, a = normalize_answer(gold), normalize_answer(answer)
    if not g:
        return False
    return f" {g} " in f" {a} "


def _words_on_one_line(item: str, answer: str) -> bool:
    """Whether one line or numbered item of ``answer`` holds every word of a list's gold item (stems):
    "Sportswear (our lifestyle products)" states the item "Sportswear (lifestyle products)"."""
    words = stems(item)
    lines = re.split(r"\n|\s(?=\d{1,2}\.\s)|;|•", answer)
    return bool(words) and any(words <= stems(line) for line in lines)


def _list_items(gold: str) -> list[str] | None:
    text = gold.strip()
    if not (text.startswith("[") and text.endswith("]")):
        return None
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return None
    if not isinstance(value, list | tuple):
        return None
    return [str(v) for v in value]


def is_scorable(gold: str) -> bool:
    """Whether a gold answer is a number, a short string or a list of those."""
    items = _list_items(gold)
    if items is not None:
        return bool(items) and all(is_scorable(i) for i in items)
    if gold_number(gold) is not None or sentence_numbers(gold):
        return True
    words = normalize_answer(gold).split()
    return 0 < len(words) <= MAX_SHORT_WORDS


def single_match(gold: str, answer: str, question: str = "") -> bool | None:
    """Whether ``answer`` contains the gold answer (None when the gold is not scorable).

    A number matches within 1 % relative (thousands separators, currency, units and % ignored); a
    short sentence stating values matches when the answer states each of them (``sentence_numbers``); a
    short string matches when it appears in the answer after normalisation; a list literal
    ("['a', 'b']") matches when every item does.
    """
    if not is_scorable(gold):
        return None
    items = _list_items(gold)
    if items is not None:
        return all(single_match(item, answer, question) or _words_on_one_line(item, answer) for item in items)
    measured = _measure_match(gold, answer)
    if measured is not None:  # a number with a unit of measure is that measure, in any of its spellings
        return measured or _string_match(gold, answer)
    number = gold_number(gold)
    stated = _PAGE_MARK.sub(" ", without_references(answer))
    if number is not None:
        return _number_match(number, stated, gold) or _string_match(gold, stated)
    values = sentence_numbers(gold)
    if values:  # a sentence is right when it states every value the gold sentence states, about its subject
        said = all(_number_match(v, stated) for v in values) and _shares_words(gold, answer, question)
        return said or _string_match(gold, answer)
    return _string_match(gold, answer)


def answer_match(golds: Sequence[str], answer: str, question: str = "") -> bool | None:
    """Any scorable alternative matches; None when no alternative is scorable."""
    results = [single_match(g, answer, question) for g in golds]
    scored = [r for r in results if r is not None]
    return any(scored) if scored else None


# ------------------------------------------------------------------------------------------
# Evidence pages
# ------------------------------------------------------------------------------------------
