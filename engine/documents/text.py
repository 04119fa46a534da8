"""Small text helpers shared by the bricks: tokens, stop words, references and cardinality cues.

Pure functions, no I/O. Everything here is general English/document convention, never tuned to a
particular document.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence

YEAR = r"(?:19|20)\d\d"
"""A year as documents print it ("2041"): the one year pattern of the parser and the readers (``reading.periods``)."""

STOPWORD_ENTRIES: tuple[tuple[str, str], ...] = (
    ("a an the this that these those", "articles and demonstratives"),
    ("i me my we our ours you your yours he him his she her hers it its itself they them their theirs", "pronouns"),
    ("who whom whose what which when where why how whether", "interrogatives and relatives"),
    ("am is are was were be been being do does did doing done have has had having", "auxiliaries"),
    ("can could may might must shall should will would", "modals"),
    ("and but or nor so than then if because while until once as", "conjunctions"),
    ("about above according across after again against along among amongst at before below between by during for "
     "from further in into of off on out over per through to under up upon via with within without", "prepositions"),
    ("all any both each few many more most much no not only other own same some such too very just now here there "
     "also", "quantifiers and adverbs"),
    ("one ones s t don", "counting words and fragments of contractions (don't, it's)"),
    ("get got give made make provide provided use used using mention mentioned tell show describe explain list "
     "please", "verbs of asking, not terms to look for"),
    ("answer question document paper report based following", "words about the question or the document itself"),
    ("amount value values type types kind kinds way ways", "placeholders for what is asked ('the amount of X')"),
)  # fmt: skip
"""English words that carry no search meaning, grouped, each group with its reason."""

STOPWORDS = frozenset(word for forms, _ in STOPWORD_ENTRIES for word in forms.split())
"""Words that carry no retrieval signal. Domain words (table, section) are kept on purpose."""

_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9.\-_/%$]*[A-Za-z0-9%]|[A-Za-z0-9]")

SPELLED_NUMBERS: dict[str, int] = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30,
    "forty": 40, "fifty": 50, "hundred": 100, "thousand": 1000, "dozen": 12,
}  # fmt: skip
"""Numbers prose writes as words ("five modules", "a five-year agreement")."""
SPELLED_NUMBER = "|".join(sorted(SPELLED_NUMBERS, key=len, reverse=True))
"""A regular-expression alternation of the spelled numbers, longest first."""
NUMBER_WORDS: dict[str, int] = {**SPELLED_NUMBERS, "single": 1, "pair": 2, "couple": 2, "both": 2, "several": 0}
"""Words that state how many things there are (the spelled numbers, and "single", "pair", "both")."""


def tokenize(text: str) -> list[str]:
    """Lower-case word tokens; keeps numbers like ``3.5``, ``10-k`` and ``$1,200`` whole (commas dropped).

    ASCII text is lowered once before matching (the same tokens: a token is ASCII and lowering ASCII text
    changes no boundary); other text token by token (lowering some letters, "İ", would add characters)."""
    text = text.replace(",", "")
    if text.isascii():
        return _TOKEN.findall(text.lower())
    return [t.lower() for t in _TOKEN.findall(text)]


def content_words(text: str) -> list[str]:
    """Tokens that are not stop words and not one-letter noise, in order, without duplicates."""
    seen: dict[str, None] = {}
    for token in tokenize(text):
        if token in STOPWORDS or (len(token) < 2 and not token.isdigit()):
            continue
        seen.setdefault(token, None)
    return list(seen)


def normalize_query(query: str) -> str:
    """Case- and whitespace-insensitive form of a query, used for cache keys and repeat detection."""
    return " ".join(query.lower().split())


def normalize_space(text: str) -> str:
    """Collapse all whitespace runs to one space."""
    return " ".join(text.split())


def estimate_tokens(text: str) -> int:
    """A cheap token estimate (about four characters a token), never below one for non-empty text."""
    return 0 if not text else max(1, (len(text) + 3) // 4)


# --------------------------------------------------------------------------------------------
# References ("see Table 3", "Section 4.2", "Appendix B", "Item 7", "Note 12")
# --------------------------------------------------------------------------------------------

REFERENCE_KINDS = ("Table", "Figure", "Section", "Appendix", "Item", "Note", "Exhibit", "Chapter", "Schedule")
_KIND_ALIASES = {
    "tab": "Table", "tbl": "Table", "fig": "Figure", "figs": "Figure", "sec": "Section", "§": "Section",
    "app": "Appendix", "annex": "Appendix", "chap": "Chapter", "ch": "Chapter", "ex": "Exhibit",
}  # fmt: skip
_REFERENCE = re.compile(
    r"(?<![A-Za-z])(?P<kind>Tables?|Tab\.|Figures?|Figs?\.|Sections?|Sec\.|§|Appendix|Appendices|Annex|"
    r"Items?|Notes?|Exhibits?|Ex\.|Chapters?|Chap\.|Schedules?)\s*"
    r"(?P<label>(?:[0-9]+[A-Z]?(?:[.\-\u2013][0-9]+)*)|(?:[A-Z](?:[.\-\u2013][0-9]+)*)(?![a-z]))",
)
_RANGE = re.compile(r"[\-\u2013]")
"""Chapter-numbered labels ("Table 6-2", "Figure A-1") join their numbers with a hyphen or an en dash;
after a plural kind ("Tables 1-3") the same sign spans a range, and only the first is named."""


DOT_LEADERS = re.compile(r"\.{4,}|(?:\.\s){4,}|…{2,}")
"""Dot leaders ("Mission ........ 4"): a table-of-contents line names a section, it is not the section."""


_LOWER_REFERENCE = re.compile(
    r"(?<![A-Za-z])(?:tables?|tab\.|figures?|figs?\.|sections?|sec\.|chapters?|chap\.|appendix)\s*"
    r"[0-9]+[A-Z]?(?:[.\-\u2013][0-9]+)*"
)
"""A part of the document named in lower case in running text ("residual dropout (section 5.4)"): its number
labels, never measures. Items, notes and exhibits are left out: "notes 4.5% due 2030" names debt."""


def reference_spans(text: str) -> list[tuple[int, int]]:
    """Where ``text`` names a structural reference ("Table 3.2", "Section 4.2", "see section 5.4"): (start, end)
    of each."""
    spans = [m.span() for m in _REFERENCE.finditer(text)]
    return sorted({*spans, *(m.span() for m in _LOWER_REFERENCE.finditer(text))})


def canonical_kind(raw: str) -> str:
    """``"Figs."`` -> ``"Figure"``, ``"tables"`` -> ``"Table"``."""
    word = raw.strip().rstrip(".").lower()
    if word in _KIND_ALIASES:
        return _KIND_ALIASES[word]
    for kind in REFERENCE_KINDS:
        if word == kind.lower() or word == kind.lower() + "s" or (kind == "Appendix" and word == "appendices"):
            return kind
    return raw.strip().title()


def find_references(text: str) -> tuple[str, ...]:
    """Structural references named in ``text``, canonical ("Table 3", "Section 4.2"), in order, unique.

    A reference must be followed by a label: a number ("3", "4.2", "7A") or a capital letter ("B").
    Single capitals are only accepted for appendices, exhibits and schedules, where letters are the
    convention, so "Table A" style prose does not flood the results.
    """
    found: dict[str, None] = {}
    for match in _REFERENCE.finditer(text):
        kind = canonical_kind(match.group("kind"))
        label = match.group("label").rstrip(".").replace("\u2013", "-")
        if match.group("kind").rstrip(".").lower().endswith("s"):
            label = _RANGE.split(label)[0]
        if label[0].isalpha() and kind not in ("Appendix", "Exhibit", "Schedule", "Section"):
            continue
        if kind == "Section" and label[0].isalpha():
            continue
        found.setdefault(f"{kind} {label}", None)
    return tuple(found)


def without_references(text: str) -> str:
    """``text`` with its structural references blanked ("Table 6-2 lists ..." -> " lists ..."): a
    reference's number labels a table or section, it is no value the text states."""
    return _REFERENCE.sub(" ", text)


def split_reference(reference: str) -> tuple[str, str]:
    """``"Table 3"`` -> ``("Table", "3")``."""
    kind, _, label = reference.partition(" ")
    return kind, label


def named_tables(references: Sequence[str]) -> list[str]:
    """The references that name a table ("Table 3", "Table 1-1")."""
    return [r for r in references if split_reference(r)[0] == "Table"]


# --------------------------------------------------------------------------------------------
# Cardinality cues ("we employ three types of regularization", "the following 4 steps")
# --------------------------------------------------------------------------------------------

_COUNT_WORD = r"(?P<count>\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
_CUE_NOUNS = (
    r"types?|kinds?|forms?|ways?|methods?|techniques?|approaches?|steps?|stages?|phases?|parts?|"
    r"components?|categories|category|classes|class|factors?|reasons?|elements?|aspects?|"
    r"strateg(?:y|ies)|mechanisms?|principles?|levels?|modes?|options?|groups?|segments?|"
    r"sources?|tasks?|criteria|dimensions?|layers?|variants?|versions?|items?|regions?|areas?|"
    r"main|major|key|primary|distinct|different|basic|important|following"
)
_CARDINALITY = re.compile(
    rf"\b{_COUNT_WORD}\s+(?:(?:main|major|key|primary|distinct|different|basic|important|principal|"
    rf"separate|broad|general|additional|such)\s+)*(?P<noun>{_CUE_NOUNS})\b",
    re.IGNORECASE,
)


def count_value(word: str) -> int | None:
    """``"three"`` -> 3, ``"4"`` -> 4; None for words that state no exact number."""
    word = word.lower()
    if word.isdigit():
        return int(word)
    value = NUMBER_WORDS.get(word)
    return value or None


COUNT_THEN = rf"\b(?P<count>\d{{1,2}}|{SPELLED_NUMBER})\s+(?:[\w\-]+\s+){{0,2}}?"
"""A count and at most two words after it, before the noun it counts ("seven reportable segments", "five weekly
checks"): each reader appends the noun it looks for."""


def enumeration_count(word: str) -> int | None:
    """The value of a count word that counts an enumeration ("three" -> 3); None for a larger number, which is a
    quantity ("64 flights"), or for one thing."""
    value = count_value(word)
    return value if value is not None and 2 <= value <= 20 else None


def find_cardinality_cue(text: str) -> tuple[int, str] | None:
    """The first stated count of a kind of thing, with the sentence that states it.

    Returns ``(3, "We employ three types of regularization during training.")`` or None.
    Counts above 20 are ignored (they are quantities, not enumerations).
    """
    for match in _CARDINALITY.finditer(text):
        value = enumeration_count(match.group("count"))
        if value is not None:
            return value, _sentence_around(text, match.start(), match.end())
    return None


def _sentence_around(text: str, start: int, end: int) -> str:
    left = max(text.rfind(". ", 0, start), text.rfind("\n", 0, start))
    right_candidates = [i for i in (text.find(". ", end), text.find("\n", end)) if i != -1]
    right = min(right_candidates) + 1 if right_candidates else len(text)
    return normalize_space(text[left + 1 : right])


def split_sentences(text: str) -> list[str]:
    """Sentences of a paragraph (rule-based: ends at . ! ? followed by a capital, a digit, an opening
    bracket or quote, or markup such as ``![`` or ``**``: text that starts that way is a sentence of its own)."""
    parts = re.split(r"(?<=[.!?])\s+(?=[A-Z0-9(\[{<!*#\"'])", normalize_space(text))
    sentences: list[str] = []
    for part in parts:
        if sentences and _ABBREVIATION_END.search(sentences[-1]):
            sentences[-1] = f"{sentences[-1]} {part}"  # "including U.S. Representatives": one sentence
        elif part:
            sentences.append(part)
    return sentences


_ABBREVIATION_END = re.compile(
    r"(?:^|[\s(])(?:(?:[A-Z]\.){2,4}|[A-Z]\.|(?:Mr|Mrs|Ms|Dr|Prof|St|Jr|Sr|No|Nos|Inc|Corp|Co|Ltd|Fig|Figs|Eq|Sec|"
    r"Art|Vol|vs|v|e\.g|i\.e|cf|al|approx|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\.)$"
)
"""A part that ends in an abbreviation's point ("the U.S.", "W.", "Dr.", "No.", "et al.", "e.g."), after which a capital
does not start a new sentence."""


ABBREVIATED_CELL = re.compile(r"(?:\S+\s+)?[A-Z][A-Za-z]{0,4}\.(?:\s+(?:\S+\s+)?[A-Z][A-Za-z]{0,4}\.)*")
"""A table cell (used with ``fullmatch``) whose stops close abbreviations, not a sentence: a word or two each time,
the last a capitalised word cut to five letters or fewer ("Acc.", "JD Acc.", "Avg. Acc.", "JD Acc. JDS Acc." run
together). A sentence's last word is not written so ("It was done.", "Sales rose in Texas.")."""


def overlap_ratio(terms: Iterable[str], text: str) -> float:
    """Share of ``terms`` (lower-case words or phrases) that occur in ``text``."""
    terms = [t.lower() for t in terms if t]
    if not terms:
        return 1.0
    low = text.lower()
    return sum(1 for t in terms if t in low) / len(terms)


DOUBLED_CONSONANT = re.compile(r"([b-dghj-km-npqrtv-y])\1$")
"""A doubled final consonant other than f, l, s and z, which base forms end in ("staff", "fall", "press", "buzz")."""
_IRREGULAR = {
    form: base
    for base, forms in (
        # past forms of common verbs that suffix stripping cannot reach ("cash paid" for "how much did it pay");
        # words with another common sense are left out ("left", "won" the currency, "saw", "lead" the metal, "found")
        ("pay", "paid"), ("spend", "spent"), ("sell", "sold"), ("buy", "bought"), ("make", "made"),
        ("hold", "held"), ("grow", "grew grown"), ("rise", "rose risen"), ("fall", "fell fallen"), ("lose", "lost"),
        ("take", "took taken"), ("give", "gave given"), ("bring", "brought"), ("build", "built"), ("keep", "kept"),
        ("begin", "began begun"), ("choose", "chose chosen"), ("write", "wrote written"), ("send", "sent"),
        ("drive", "drove driven"), ("tell", "told"), ("think", "thought"), ("teach", "taught"), ("seek", "sought"),
    )
    for form in forms.split()
}  # fmt: skip


@functools.lru_cache(maxsize=1 << 17)
def stem(word: str) -> str:
    """A light stem: lower-case, common plural and verb endings stripped ("readings" -> "read"), and the past
    forms of common irregular verbs taken to their base ("paid" -> "pay").
    Cached: a document's vocabulary is small and every passage score stems the same words again."""
    w = word.lower()
    if w in _IRREGULAR:
        w = _IRREGULAR[w]
    for group in ((("ies", "y"), ("s", "")), (("ied", "y"), ("ing", ""), ("ed", ""))):
        for suffix, repl in group:
            if w.endswith(suffix) and len(w) - len(suffix) >= 3 and not w.endswith(("ss", "us", "is")):
                w = w[: len(w) - len(suffix)] + repl
                if suffix in ("ing", "ed") and DOUBLED_CONSONANT.search(w) and len(w) >= 4:
                    w = w[:-1]  # "tripping", "planned": the consonant doubled before the ending ("trip", "plan")
                break
    if len(w) == 4 and w.endswith("ed") and w[0] in "aeiou":
        w = w[:-1]  # a short verb whose -ed follows its own e ("aged", "used", "owed"): one stem with "age", "use"
    # a verb's silent e goes with -ing and -ed ("descaling", "descaled"): without it on the base form too
    # ("descale"), all three are one stem
    return w[:-1] if len(w) >= 4 and w.endswith("e") and not w.endswith(("ee", "ie", "ye")) else w


_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9\-]*")


@functools.lru_cache(maxsize=1 << 17)
def _content_stem(word: str) -> str | None:
    """The stem of a word, None for a stop word."""
    return None if word.lower() in STOPWORDS else stem(word)


def stems(text: str) -> set[str]:
    """Stems of the words of ``text`` (stop words dropped): a new set the caller may change."""
    return set(frozen_stems(text))


def frozen_stems(text: str) -> frozenset[str]:
    """The stems of :func:`stems` as a frozen set (no copy), for a caller that only reads them."""
    return _short_stems(text) if len(text) <= _KEPT_TEXT_CHARS else _long_stems(text)


_KEPT_TEXT_CHARS = 240
"""Texts this short (row labels, column headers, questions) have their stems kept by the thousand: every value
question reads every table row's label again. Of longer texts (passages, whole chunks) only the last thousand are
kept: one question's passes and readers score the same evidence again, and the kept texts stay few."""


@functools.lru_cache(maxsize=1 << 15)
def _short_stems(text: str) -> frozenset[str]:
    return _stem_set(text)


@functools.lru_cache(maxsize=1024)
def _long_stems(text: str) -> frozenset[str]:
    return _stem_set(text)


def _stem_set(text: str) -> frozenset[str]:
    found = {_content_stem(w) for w in _WORD.findall(text)}
    found.discard(None)
    return frozenset(found)  # type: ignore[arg-type]  # None was discarded


_SUBJECT_PATTERNS = (
    re.compile(
        r"^(?:what|which)\s+(?:are\s+|were\s+)?(?:the\s+|all\s+(?:of\s+)?(?:the\s+)?)?"
        r"(?:(?:two|three|four|five|six|seven|eight|nine|ten|\d{1,2})\s+)?"
        r"(?:(?:kinds?|types?|sorts?|forms?|categories)\s+of\s+)?"
        r"(?:[A-Z][\w&\-]*['’]s\s+)?"  # whose: "What are Acme's reportable segments?"
        r"(?P<subject>(?:[a-z][a-z\-]+\s+){0,2}[a-z][a-z\-]+s)\b",
        re.I,
    ),
    re.compile(
        r"\b(?:list|enumerate|name)\s+(?:all\s+|every\s+|each\s+)?(?:of\s+)?(?:the\s+)?"
        r"(?P<subject>(?:[a-z][a-z\-]+\s+){0,2}[a-z][a-z\-]+s)\b",
        re.I,
    ),
)


def listing_subject(question: str) -> str | None:
    """The plural noun phrase a listing question asks for ("regularization techniques", "countries")."""
    for pattern in _SUBJECT_PATTERNS:
        match = pattern.search(question)
        if match:
            words = [w for w in match.group("subject").split() if w.lower() not in STOPWORDS]
            if words:
                return " ".join(words)
    return None
