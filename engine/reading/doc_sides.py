"""Which document each side of a cross-document question is about.

With several documents selected, a comparison has one side per document. The question usually names
each side by something that identifies its document: a year or period ("2018" / "2022", "fiscal
2015"), a version ("2.0" / "3.1.0"), a kind of filing ("10-K" / "earnings release") or a name
("HONOR Watch GS Pro" / "HUAWEI WATCH D"). ``map_sides`` finds those phrases in the question and
gives each to the document that holds it most distinctly: its file name, its title page (where
filings state "For the fiscal year ended December 31, 2018") and how often the rest of it uses the
phrase compared with the other documents. A document the question names by nothing gets its file
name as its side's label. Pure: the caller reads the documents.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from engine.documents.text import STOPWORDS, normalize_space
from engine.reading.periods import YEAR

TITLE_CHARS = 3000
"""How much of the first pages counts as the title page."""
NAME_SPELLING_CHARS = 200_000
"""How much of a document is read for the usual spelling of its name (a bound on the work, not a threshold)."""

_DOC_KINDS = re.compile(
    r"\b(?:10-K|10-Q|8-K|20-F|annual report|quarterly report|(?:earnings|results|press) release|proxy statement)\b",
    re.I,
)
"""Kinds of filings and reports, by the names their own cover pages use."""
_VERSION = re.compile(r"\b(?:v(?:ersion)?\s?)?(\d+\.\d+(?:\.\d+)?)\b(?!\s?(?:%|percent|billion|million))", re.I)
PERIOD = re.compile(
    rf"\b(?:(?:fiscal(?: year)?|FY)\s?'?{YEAR}|Q[1-4]\s?'?{YEAR}|{YEAR}\s?Q[1-4]|{YEAR})\b",
    re.I,
)
"""A period that names a side: a fiscal year, a quarter or a year ("fiscal 2022", "FY2021", "Q4 2023")."""
_NAME = re.compile(
    r"\b([A-Z][\w&\-]*[A-Z0-9][\w&\-]*|[A-Z][a-z]+[A-Z][\w\-]*)(?:\s+(?:[A-Z][\w&\-]*|\d+(?:\.\d+)*[A-Za-z]?\b))*"
)
"""Runs of capitalised words that carry an inner capital or a digit: product and system names."""
COVER_LINE = re.compile(
    r"securities and exchange commission|\bwashington,? d\.?c\.?|^\s*form\s+(?:10-?[kq]|8-?k|20-?f)\b|"
    r"\bannual report pursuant\b|\bquarterly report pursuant\b|\btable of contents\b|^\s*united states\s*$",
    re.I,
)
"""The boilerplate lines of a filing's cover page ("UNITED STATES SECURITIES AND EXCHANGE COMMISSION",
"FORM 10-K"): every filing's first heading, so none names a document."""
_FILE_WORD_NOISE = re.compile(
    r"^(?:\d+|10-?[kq]|8-?k|20-?f|q[1-4]|fy|earnings|release|annual|report|dated|v\d.*)$", re.I
)
"""File-name words that name a kind of report, a period or a version (read by the patterns above), not whose
document it is."""
_ACRONYM = re.compile(r"[A-Z]{2,5}s?|Q[1-4]|H[12]")
"""A lone short acronym ("EPS", "GAAP", "API") or a quarter is what is asked about, not a document's name."""


@dataclass(frozen=True)
class DocIdentity:
    """What names a document: its file name, its title page and its whole text (lower case)."""

    doc_id: str
    file_name: str
    title_text: str
    full_text: str
    title: str = ""
    """The document's own title (its first heading), for labels."""
    name: str = ""
    """Whose document it is, as its first pages spell the file name's own words ("Acme Corp"), for labels."""

    @property
    def short_name(self) -> str:
        """A side's label when the question names the document by nothing: its own title when that names whose
        it is too ("Alpha Field Notes" for "alpha_notes.pdf"), else whose it is (a company or product: a filing's
        first heading is a cover line or "For immediate release"), else its title or file name; never a
        cover-page line every filing opens with."""
        titled = self.title and not COVER_LINE.search(self.title)
        if self.name and not (titled and set(self.name.lower().split()) <= set(self.title.lower().split())):
            return self.name
        if titled:
            return self.title
        stem = re.sub(r"\.pdf$", "", self.file_name, flags=re.I)
        return normalize_space(re.sub(r"[_]+", " ", stem))


@dataclass(frozen=True)
class DocSide:
    """One side of a cross-document question: the document and the question's name for it."""

    doc_id: str
    label: str
    phrases: tuple[str, ...]
    """The question's phrases that pointed at this document (empty: labelled by file name)."""


def identity(doc_id: str, file_name: str, page_texts: Sequence[str], title: str = "") -> DocIdentity:
    """The identity of a document from its pages' text (and its first heading, when it has one)."""
    full = "\n".join(page_texts)
    name = entity_name(file_name, full[:TITLE_CHARS], full[:NAME_SPELLING_CHARS])
    return DocIdentity(doc_id, file_name, full[:TITLE_CHARS].lower(), full.lower(), normalize_space(title)[:80], name)


def entity_name(file_name: str, first_pages: str, text: str = "") -> str:
    """Whose document it is: the file name's own words (not its period, version or kind of report) as the
    first pages spell them ("JOHNSON_JOHNSON_2022_10K.pdf" -> "Johnson & Johnson", "BESTBUY_2023.pdf" ->
    "Best Buy"); "" when the first pages do not carry them. A file name alone is a poor label ("AMCOR 2023
    10K") and a first heading is often a cover line, but the name a file and its title page share is the
    company's or product's. A cover page sets names in capitals ("BEST BUY"): the running ``text`` gives the
    name's usual spelling ("Best Buy")."""
    words = [w for w in re.split(r"[\s\-]+", _name_tokens(file_name)) if _own_word(w)]
    for n in range(len(words), 0, -1):
        joined = r"\W{1,5}".join(_spelling(w) for w in words[:n])
        found = [m.group(0) for m in re.finditer(rf"(?<!\w){joined}(?!\w)", first_pages, re.I)]
        if found and (n > 1 or len(words[0]) >= 2):
            spelled = [f for f in found if _capitalised(f)]  # the usual spelling, not one stray line's
            if not spelled:
                spelled = [m.group(0) for m in re.finditer(rf"(?<!\w){joined}(?!\w)", text, re.I)]
                spelled = [f for f in spelled if _capitalised(f)]
            name = max(spelled, key=spelled.count) if spelled else found[0]
            return normalize_space(name if _capitalised(name) else _unshouted(name))
    return ""


def _capitalised(name: str) -> bool:
    """Written as a name is in running text: each word opens with a capital or a digit, and the long ones are
    not all capitals ("Best Buy", "3M", not "BEST BUY" or "Best BUY")."""
    words = name.split()
    return all(w[0].isupper() or w[0].isdigit() or not w[0].isalpha() for w in words) and not any(
        len(w) >= 4 and w.isupper() for w in words
    )


def _unshouted(name: str) -> str:
    """A name set in capitals as a label reads it: long words capitalised ("JOHNSON & JOHNSON" -> "Johnson &
    Johnson"), short ones kept as acronyms ("CVS HEALTH" -> "CVS Health")."""
    return " ".join(w.title() if len(w) >= 4 and w.isalpha() else w for w in name.split())


def _own_word(word: str) -> bool:
    """A file-name word that can be part of a name: letters, not a period, version or kind of report."""
    return bool(re.search(r"[a-z]", word)) and not _FILE_WORD_NOISE.match(word) and not re.search(r"\d{4}", word)


def _spelling(word: str) -> str:
    """A pattern for a file-name word as text spells it: a long run of letters may have been written with
    spaces removed ("bestbuy" is "Best Buy")."""
    if len(word) >= 5 and word.isalpha():
        return r"\s?".join(re.escape(c) for c in word)
    return re.escape(word)


def candidate_phrases(question: str) -> list[str]:
    """Phrases of ``question`` that could name one document: kinds, versions, periods and names."""
    found: dict[str, None] = {}
    for pattern in (_DOC_KINDS, _VERSION, PERIOD):
        for m in pattern.finditer(question):
            found.setdefault(normalize_space(m.group(0)), None)
    for m in _NAME.finditer(question):
        phrase = normalize_space(m.group(0))
        words = phrase.split()
        while words and (words[-1].lower() in STOPWORDS or PERIOD.fullmatch(words[-1]) or words[-1].isdigit()):
            words.pop()
        name = " ".join(words)
        if words and not _DOC_KINDS.fullmatch(name) and not _ACRONYM.fullmatch(name) and not PERIOD.search(name):
            found.setdefault(name, None)
    return list(found)


_PLAIN_NAME = re.compile(r"(?<=[\w,;:(\-–—]\s)([A-Z][a-z]+(?:\s+[A-Z][a-z]+)*)(?:['’]s)?\b")
"""Capitalised words inside a sentence ("... or Square in 2020"): a company or product called by a plain word."""


def plain_names(question: str) -> list[str]:
    """Runs of capitalised plain words inside the question (never its first word): a name the document uses
    throughout may be one its file does not carry ("Square" for a file named after its later name). Each is
    given to a document only when that document is where the name is used (``phrase_scores``)."""
    found: dict[str, None] = {}
    for m in _PLAIN_NAME.finditer(question):
        words = [w for w in m.group(1).split() if w.lower() not in STOPWORDS]
        if words:
            found.setdefault(" ".join(words), None)
    return list(found)


def file_name_words(question: str, docs: Sequence[DocIdentity]) -> list[str]:
    """The question's words that name one document by its file name ("3M" of "3M_2018_10K.pdf", "Amcor" of
    "AMCOR_2023_10K.pdf"): a company's or product's name, as users name the document they ask about. A word
    every selected file name shares names none of them."""
    names = [_name_tokens(d.file_name) for d in docs]
    found: dict[str, None] = {}
    for m in re.finditer(r"(?<![\w.])([A-Za-z0-9][\w&\-]*[A-Za-z0-9])(?:['’]s)?(?![\w])", question):
        word = m.group(1)
        low = word.lower()
        if low in STOPWORDS or _FILE_WORD_NOISE.match(low) or not (word[0].isupper() or word[0].isdigit()):
            continue
        holders = sum(1 for name in names if f" {low} " in name)
        if holders == 1:
            found.setdefault(word, None)
    return list(found)


def names_in_question(question: str, docs: Sequence[DocIdentity]) -> list[str]:
    """The documents' own names (``DocIdentity.name``) as the question spells them ("best buy's" names "Best
    Buy"): a name of ordinary capitalised words is no product code the name patterns see, yet names its
    document."""
    found: dict[str, None] = {}
    for doc in docs:
        words = doc.name.split()
        if not words:
            continue
        pattern = r"\W{1,5}".join(re.escape(w) for w in words)
        m = re.search(rf"(?<!\w){pattern}(?!\w)", question, re.I)
        if m:
            found.setdefault(m.group(0), None)
    return list(found)


def _name_tokens(file_name: str) -> str:
    """A file name as words: "3M_2018_10K.pdf" -> " 3m 2018 10k 10-k ", "v2.0" kept."""
    stem = re.sub(r"\.pdf$", "", file_name, flags=re.I).lower()
    spaced = re.sub(r"[_\s]+", " ", stem)
    spaced = re.sub(r"\b(10|20|8)-?([kqf])\b", r"\1-\2 \1\2", spaced)
    spaced = re.sub(r"\bv(\d)", r"v \1", spaced)  # "v2.0" -> "v 2.0"
    return f" {spaced} "


def _forms(phrase: str) -> list[str]:
    """Lower-case spellings of a phrase to look for ("fiscal 2015" is also "2015"; "v2.0" also "2.0")."""
    low = phrase.lower()
    forms = [low]
    version = _VERSION.fullmatch(phrase)
    if version:
        forms.append(version.group(1))
    year = re.search(YEAR, low)
    if year and PERIOD.fullmatch(phrase):
        forms.append(year.group(0))
    words = low.split()
    if is_name(phrase):  # "HUAWEI WATCH D" is also "WATCH D": a product's name without its maker's
        forms += [" ".join(words[i:]) for i in range(1, len(words) - 1 if len(words) > 2 else 1)]
    return list(dict.fromkeys(forms))


def is_name(phrase: str) -> bool:
    return not (_DOC_KINDS.fullmatch(phrase) or _VERSION.fullmatch(phrase) or PERIOD.fullmatch(phrase))


def _contains(text: str, form: str) -> bool:
    return re.search(rf"(?<![\w.]){re.escape(form)}(?![\w]|\.\d)", text) is not None


def _count(text: str, form: str) -> int:
    return len(re.findall(rf"(?<![\w.]){re.escape(form)}(?![\w]|\.\d)", text))


_KINDS = {
    "annual": r"\b(?:10-?k|annual report)\b",
    "quarterly": r"\b(?:10-?q|quarterly report)\b",
    "release": r"\b(?:(?:earnings|results|press) release|earnings)\b",
    "current": r"\b8-?k\b",
    "foreign": r"\b20-?f\b",
    "proxy": r"\bproxy statement\b",
}
"""Kinds of reports by the names people and files give them: a question's "results release" is the document
whose file says EARNINGS; its "10-K" the one whose cover page says "annual report"."""


def report_kind(text: str) -> str:
    """The kind of report ``text`` names first ("" for none)."""
    found = [(m.start(), kind) for kind, pattern in _KINDS.items() if (m := re.search(pattern, text, re.I))]
    return min(found)[1] if found else ""


def doc_kind(doc: DocIdentity) -> str:
    """A document's kind of report: by its file name, else by what its title page names first."""
    return report_kind(_name_tokens(doc.file_name)) or report_kind(doc.title_text)


def phrase_scores(phrase: str, docs: Sequence[DocIdentity]) -> list[float]:
    """How strongly each document is named by ``phrase``: file name (3), title page (2), and its
    share of the phrase's occurrences across the documents (up to 1).

    A name (not a period, version or kind of report) must also be the document's own: most of its
    occurrences are there, and no other document's title page uses it; "EPS" or a dataset both
    papers use is what is compared, not a side.
    """
    forms = _forms(phrase)
    kind = report_kind(phrase) if _DOC_KINDS.fullmatch(phrase) else ""
    counts = [max(_count(d.full_text, f) for f in forms) for d in docs]
    total = sum(counts)
    titled = [any(_contains(d.title_text, f) for f in forms) for d in docs]
    scores = []
    for n, (doc, count) in enumerate(zip(docs, counts, strict=True)):
        in_name = any(_contains(_name_tokens(doc.file_name), f) for f in forms)
        in_name = in_name or (bool(kind) and kind == doc_kind(doc))  # "results release" names the EARNINGS file
        share = count / total if total else 0.0
        score = 3.0 * in_name + 2.0 * titled[n] + share
        if is_name(phrase) and not in_name and (share < 0.6 or sum(titled) > 1):
            score = 0.0
        scores.append(score)
    return scores


def map_sides(question: str, docs: Sequence[DocIdentity]) -> list[DocSide]:
    """One side per document, each labelled by the question's phrases that name it."""
    if len(docs) < 2:
        return []
    assigned: dict[str, list[tuple[str, float]]] = {d.doc_id: [] for d in docs}
    named = [*candidate_phrases(question), *file_name_words(question, docs), *names_in_question(question, docs)]
    plain = [p for p in plain_names(question) if p not in named]
    phrases = list(dict.fromkeys([*named, *plain]))
    for phrase in phrases:
        if is_name(phrase) and _embedded_marker(phrase):
            continue  # "OpenAPI 2.0" goes where "2.0" goes (below)
        scores = phrase_scores(phrase, docs)
        ranked = sorted(range(len(docs)), key=lambda i: -scores[i])
        best, second = scores[ranked[0]], scores[ranked[1]]
        if phrase in plain and not any(_contains(docs[ranked[0]].title_text, f) for f in _forms(phrase)):
            continue  # a plain word names a document its title page names so ("Pelican, Inc."), not a topic
        if best >= 0.75 and best >= 1.5 * second + 0.2:
            assigned[docs[ranked[0]].doc_id].append((phrase, best))
    for phrase in phrases:  # a name with a version or period in it follows that marker
        marker = _embedded_marker(phrase) if is_name(phrase) else None
        for _doc_id, found in assigned.items():
            if marker and any(p == marker for p, _ in found):
                found.append((phrase, 10.0))
    return [
        DocSide(doc_id=d.doc_id, label=_label(assigned[d.doc_id]) or unnamed_label(d, docs),
                phrases=tuple(p for p, _ in assigned[d.doc_id]))
        for d in docs
    ]  # fmt: skip


def unnamed_label(doc: DocIdentity, docs: Sequence[DocIdentity]) -> str:
    """The label of a side the question names by nothing: whose document it is, with the rest of its file name
    (its period or kind of report) when another selected document is the same company's ("Acme 2031Q4
    earnings" beside "Acme 2031 10K"), so the two sides read apart."""
    shared = doc.name and any(d.doc_id != doc.doc_id and d.name.lower() == doc.name.lower() for d in docs)
    if not shared:
        return doc.short_name
    stem = re.sub(r"\.pdf$", "", doc.file_name, flags=re.I)
    rest = [w for w in re.split(r"[_\s]+", stem) if w and not _own_word(w.lower())]
    return normalize_space(" ".join([doc.name, *rest]))


def _embedded_marker(phrase: str) -> str | None:
    """The version or period inside a name ("2.0" in "OpenAPI 2.0"), else None."""
    for pattern in (_VERSION, PERIOD):
        m = pattern.search(phrase)
        if m and m.group(0) != phrase:
            return normalize_space(m.group(0))
    return None


def _label(found: list[tuple[str, float]]) -> str:
    """The best-supported name ("HONOR Watch GS Pro", "OpenAPI 2.0"); else the kind of report with its
    version or period ("10-K 2021", "fiscal 2015")."""
    names = sorted((p for p in found if is_name(p[0])), key=lambda p: -p[1])
    if names:
        return names[0][0]
    kinds = [p for p, _ in found if _DOC_KINDS.fullmatch(p)]
    marks = [p for p, _ in sorted(found, key=lambda p: -p[1]) if not _DOC_KINDS.fullmatch(p)]
    return " ".join([*kinds[:1], *marks[:1]])


_COLLECTIVE = re.compile(
    r"\b(?:(?P<dual>the two|both(?: the)?|two)\s+(?P<plural>(?:[a-z][\w\-]*\s+)?[a-z][\w\-]*[a-rt-z]s)"
    r"|(?P<single>each|either)\s+(?P<noun>[a-z][\w\-]*[a-rt-z]))\b",
    re.I,
)
"""The phrase a comparison uses for its sides together: "the two versions", "both watch manuals", "each
system". A plural after "two"/"both" (a verb after "both" is not plural: "both break"), a singular after
"each"/"either" ("each reports" is a verb)."""


def collective_noun(question: str) -> str:
    """The words a comparison uses for all its sides at once ("versions" in "between the two versions"),
    lower case; "" when it has none. Within one side's document they name the document itself, not what
    a passage must speak of."""
    for m in _COLLECTIVE.finditer(question):
        phrase = m.group("plural") or m.group("noun")
        words = [w for w in phrase.lower().split() if w not in STOPWORDS]
        if words:
            return " ".join(words)
    return ""


def aspect_of(question: str, sides: Sequence[DocSide], names: bool = False) -> str:
    """The question without the periods, versions and kinds of report that name its sides (and their
    names too, with ``names``): what is compared."""
    text = question
    for side in sides:
        for phrase in side.phrases:
            if is_name(phrase) and not names:
                continue
            text = re.sub(rf"(?<![\w.]){re.escape(phrase)}(?![\w]|\.\d)", " ", text)
    return normalize_space(text)
