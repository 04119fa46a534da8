"""The shape of answer a question asks for beyond its terms: a definition, or a reason.

Term overlap ranks passages by what they speak of; it does not tell a passage that *defines* a term
("Gated pooling is a layer that ...") from one that merely uses it ("we add gated pooling to every
block"), nor one that gives a *cause* ("because the gradients vanish") from one that restates the
effect. A question asking "What is gated pooling?" or "Why do the authors freeze the encoder?" is
answered by the first kind. This module reads which shape is asked and how well a sentence has it; the
reader adds the bonus to a sentence's score (``engine.reading.passages.score_units``), and a definition
question is never answered by a table value (``engine.run.value_reader``).

Pure: strings in, a form or a bonus out.
"""

from __future__ import annotations

import re
from typing import Literal

from engine.documents.text import stems
from engine.reading.lexicon import DOCUMENT_KIND

AskedForm = Literal["definition", "reason", "where", "contact", "kind"]

MAX_TERM_WORDS = 6
"""A defined term is a name, not a clause: "What is the effect of doubling the batch size on the loss?"
asks about a relation, and longer "terms" are such clauses."""

_DEFINITION_ASK = re.compile(
    r"^\s*(?:what\s+(?:is|are)\s+(?:an?\s+|the\s+)?(?P<term>[^?,;]+?)"
    r"|what\s+(?:does|do)\s+(?:an?\s+|the\s+)?(?P<meant>[^?,;]+?)\s+(?:mean|stand\s+for|refer\s+to)"
    r"|define\s+(?:an?\s+|the\s+)?(?P<defined>[^?,;.]+?)"
    r"|how\s+(?:does|do|did)\s+[^?,;]+?\s+define\s+(?:an?\s+|the\s+|its\s+|their\s+)?(?P<by_whom>[^?,;.]+?))"
    r"\s*[?.]?\s*$",
    re.I,
)
"""A question asking what a thing is: "What is a sparse mixture?", "What does RTO stand for?", "Define
churn.", "How does the company define net bookings?" The whole question is the ask: "What is X of Y in 2020?" is
handled by the checks below."""
_NOT_A_TERM = re.compile(r"\b(?:of|for|in|on|at|by|between|per|from|to|with|when|if)\b|\d", re.I)
"""A "term" with a preposition or a number is an attribute of something ("the wingspan of the Heron 2",
"the margin in 2021"): a value or a fact, not a definition."""
_PER_UNIT = re.compile(r"\bper\b", re.I)
"""A ratio's name ("net loss per share", "revenue per seat mile"): a term that the verb "define" asks about."""
_PLACE_ASIDE = re.compile(
    rf"\s+(?i:in|within|throughout|according\s+to)\s+(?:(?i:(?:its|their|the|this|that)\s+[^?]*?\b(?:{DOCUMENT_KIND}))"
    r"|[A-Z][\w.-]*\s+v?\d[\d.]*)(?=\s*[?.]?\s*$)"
)
"""Where to read, closing a question ("... in the Kestrel paper?", "... define comparable sales in its fourth-quarter
results release?", "... in OpenAPI 3.2.1?"): the document, not part of the term. A lower-case word before a number
("in fiscal 2041") is a period, not a versioned name, so that branch is case-sensitive."""
_QUOTED = re.compile(r"[‘'“\"]([^‘’'“”\"?]{2,60})[’'”\"]")
_QUOTES = re.compile(r"[‘’'“”\"]")
_MEAN_BY_THAT = re.compile(r"\bmean\s+by\s+(?:that|this|it)\b", re.I)
"""A question quoting its term and asking what the document means by it."""
_REASON_ASK = re.compile(
    r"^\s*(?:why\b|how\s+come\b|what\s+(?:is|are|was|were)\s+the\s+(?:main\s+)?(?:reasons?|causes?|motivations?)\b)",
    re.I,
)
"""A question asking for a cause or a motivation."""

_DEFINING_VERB = re.compile(
    r"\b(?:is|are|refers?\s+to|means?|denotes?|consists?\s+of|stands?\s+for|is\s+defined\s+as|are\s+defined\s+as)\b",
    re.I,
)
"""The verbs with which prose defines a term that is their subject ("X is a ...", "X refers to ...")."""
_CAUSAL = re.compile(
    r"\b(?:because|since|due\s+to|owing\s+to|as\s+a\s+result|so\s+that|in\s+order\s+to|the\s+reason|caused\s+by"
    r"|leads?\s+to|results?\s+in|to\s+(?:counteract|prevent|avoid|address|reduce|mitigate|overcome|compensate)"
    r"|motivated\s+by|we\s+suspect|this\s+is\s+why|therefore|thus)\b",
    re.I,
)
"""Connectives with which prose gives a cause, a purpose or a consequence."""

_DOCUMENT_PART = r"(?:section|subsection|chapter|part|appendix|annex|heading|tutorial|lesson|note|item|exhibit)s?"
"""The parts documents are divided into ("Section 5.4", "Note 16", "Item 7A", "Tutorial 9")."""
_COURSE_PART = r"(?:unit|module|lecture|session|week|topic)s?"
"""The parts a course or a training is divided into ("Unit 9", "Module 3"): a where-question's part only with a
verb of covering after it ("Which unit covers ..."; "Which unit is the depth in?" asks a unit of measure)."""
WHERE_QUESTION = re.compile(
    rf"^\s*(?:in\s+)?(?:which|what)\s+{_DOCUMENT_PART}\b"
    rf"|^\s*(?:in\s+)?(?:which|what)\s+{_COURSE_PART}\s+(?:best\s+|mainly\s+)?(?:discuss|describ|explain|cover|introduc|teach|address)\w*\b"
    r"|^\s*(?:on\s+)?(?:which|what)\s+pages?\b"
    r"|^\s*where\b(?=.*\b(?:discuss|describ|explain|mention|show|present|cover|defin|list|report)\w*\b)",
    re.IGNORECASE,
)
"""A question that asks where in the document something is ("Which section describes ...", "Where does the
report discuss ...", "On which page does the glossary start?"; not "Where is the plant?", which asks for a place
in the world)."""
_LOCATING_VERB = (
    r"(?:discuss|describ|explain|mention|show|present|cover|defin|list|report|deal|talk|introduc|detail|address"
    r"|give|provide|contain|document|specif|outlin)\w*"
)
_WHERE_TOPIC = (
    re.compile(  # "On which page of the 2031 report is the Statement of Tolls?": what is there, not a verb's object
        r"^\s*(?:on\s+)?(?:which|what)\s+pages?\s+(?:(?:of|in)\s+[^?]*?\s+)?(?:is|are)\s+(?:the\s+)?(?P<topic>[^?]+?)"
        r"(?:\s+(?:shown|printed|found|located|given))?(?:\s+on)?\s*\??\s*$",
        re.I,
    ),
    re.compile(
        rf"^\s*(?:in\s+|on\s+)?(?:which|what)\s+(?:{_DOCUMENT_PART}|{_COURSE_PART}|pages?)\s+(?:(?:of|to|in)\s+[^?]*?\s+)?"
        rf"(?:best\s+|mainly\s+)?{_LOCATING_VERB}\s+(?:with\s+|about\s+|on\s+)?(?P<topic>[^?]+)",
        re.I,
    ),
    re.compile(
        rf"^\s*(?:in\s+)?(?:which|what)\s+{_DOCUMENT_PART}\s+(?:is|are|was|were)\s+"
        rf"(?P<topic>[^?]+?)\s+{_LOCATING_VERB}\s*(?:in)?\s*\??\s*$",
        re.I,
    ),
    re.compile(
        rf"^\s*where\s+(?:does|do|did|is|are|can)\s+(?:[^?]*?\s)?{_LOCATING_VERB}\s+(?:about\s+|on\s+)?"
        rf"(?P<topic>[^?]+)",
        re.I,
    ),
    re.compile(
        r"^\s*(?:on\s+)?(?:which|what)\s+pages?\s+(?:does|do|did|is|are|can)\s+(?:the\s+)?(?P<topic>[^?]+?)"
        rf"(?:\s+(?:section|chapter|part|appendix))?(?:\s+(?:start|begin|appear|open)s?|\s+{_LOCATING_VERB})?"
        r"(?:\s+on)?\s*\??\s*$",
        re.I,
    ),
)
"""The ask-frame of a where-question around its topic: "Which section explains | how to pair the watch", "In
which chapter is | battery care | discussed", "Where does the guide describe | cleaning the strap". The frame's
words (section, explains, guide) are not what the passage must hold."""


_CONTACT_ASK = re.compile(
    r"^\s*(?:what|which|give|list|find)\b[^?]{0,40}?(?:\b(?:tele)?phone\s*(?:no\.?|number|#)?|\bfax\b|\be-?mail(?:\s+address)?\b|\bweb\s*(?:site|page|address)\b"
    r"|\burl\b|\bcontact\s+(?:details|number|address)\b)",
    re.I,
)
"""A question asking for a telephone number, an e-mail or web address: a token of that form answers it. The
thing asked follows the question word closely ("What is the phone number of ..."); a question that only
mentions one ("How does the spec say where the base URL is?") asks something else."""
_CONTACT = re.compile(
    r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\b(?:https?://|www\.)\S+|\b[\w-]+\.(?:com|org|net|edu|gov)\b"
    r"|(?<!\w)\+?\(?\d{2,5}\)?[\s.-]?\d{3,4}[\s.-]?\d{3,4}(?!\w)"
)
"""An e-mail address, a web address or a telephone number as documents print them."""
CONTACT_BONUS = 0.5
"""A passage that prints the kind of token asked (a number in telephone form, an address) is the answer's
likely place; strong enough to lead over a passage with the same terms and no such token."""


_KIND_ASK = re.compile(
    r"^\s*(?:which|what)\s+(?P<kind>(?:[a-z][\w-]*\s+){0,2}?[a-z][\w-]*)\s+"
    r"(?:was|were|is|are|did|does|do|has|have|had|can|could|will|would)\b",
    re.I,
)
"""A question asking which one of a kind of thing ("Which optimizer was used?", "What loss function does the
model minimise?"): its answer names an instance, and prose names one beside its kind ("the Adam optimizer")."""
_NOT_A_KIND = frozenset(stems("is are was were do does did time year date percentage percent share number amount"))
"""Words after "what" that are not a kind of thing ("what is", "what time"; values are read elsewhere)."""
KIND_BONUS = 0.4
"""A sentence that names the asked kind in its own words leads over one that only sits under a section titled
with it: a section title lends its words to every sentence under it (``unit_terms``), but the one naming an
instance of the kind is the one that says the noun itself. More than a definition's bonus, since the title's
share of the coverage it must outweigh is a whole term's."""


def asked_kind(question: str) -> str:
    """The kind a which-question asks for ("Which optimizer was used?" -> "optimizer"), else ""."""
    match = _KIND_ASK.match(question)
    if match is None or WHERE_QUESTION.match(question):
        return ""
    kind = match.group("kind")
    return "" if stems(kind) & _NOT_A_KIND or not stems(kind) else kind


def searched_topic(question: str) -> str | None:
    """What a question is to be searched for when its frame's words are not what a passage holds: the topic
    of a where-question, the term of "What does X stand for / mean?"; None for any other question."""
    topic = where_topic(question)
    if topic:
        return topic
    match = _DEFINITION_ASK.match(question)
    return match.group("meant").strip() if match and match.group("meant") else None


def where_topic(question: str) -> str | None:
    """What a where-question asks the place of, without its frame; None for any other question."""
    if not WHERE_QUESTION.match(question):
        return None
    for pattern in _WHERE_TOPIC:
        match = pattern.match(question)
        if match and stems(match.group("topic")):
            return match.group("topic").strip().rstrip("?. ")
    return None


DEFINITION_BONUS = 0.25
"""A sentence that defines the asked term leads over one that uses it: about one well-weighted term's worth
of score (a unit's weighted coverage runs 0..1), enough to reorder near ties, not to lift an unrelated one."""
NAMED_DEFINITION_BONUS = 0.5
"""A sentence defining a term of two words or more ("An expert by experience is ...") is that much surer to be the
definition asked than one defining a single word, which a sentence may define in passing: it leads over sentences
that only share more of the question's other words."""
REASON_BONUS = 0.25
WHERE_TITLE_BONUS = 0.5
"""A where-question asks where the document treats a topic: a passage in a section titled with the topic
is that place, a sentence elsewhere that mentions it is not. Scaled by the share of the topic's words the
title holds; worth about half a unit's score (weighted coverage runs 0..1) when the title holds them all."""
"""A sentence that gives a cause leads over one that restates the effect, by the same measure."""
_SUBJECT_SLACK = 2
"""A defined term is the subject: it ends at most this many words before the defining verb ("a sparse
adapter refers to", "the gated pooling layer is"), an abbreviation in parentheses not counted."""
_PARENTHESIS = re.compile(r"\([^()]*\)")


def asked_form(question: str) -> tuple[AskedForm | None, str]:
    """The shape of answer asked for, with its term: the defined term of a definition, the topic whose place
    a where-question asks (else "")."""
    topic = where_topic(question)
    if topic:
        return "where", topic
    if _REASON_ASK.match(question):
        return "reason", ""
    if _CONTACT_ASK.match(question):
        return "contact", ""
    kind = asked_kind(question)
    if kind:
        return "kind", kind
    quoted = _QUOTED.search(question)
    if quoted and _MEAN_BY_THAT.search(question):  # "... an 'expert by experience' - what does it mean by that?"
        return "definition", quoted.group(1).strip()
    match = _DEFINITION_ASK.match(_PLACE_ASIDE.sub("", question))
    if match is None:
        return None, ""
    term = next(g for g in match.group("term", "meant", "defined", "by_whom") if g is not None).strip()
    term = _QUOTES.sub("", term).strip()
    explicit = match.group("defined") is not None or match.group("by_whom") is not None
    named = _PER_UNIT.sub(" ", term) if explicit else term  # "define net loss per share": "per" names a measure
    if _NOT_A_TERM.search(named) or len(term.split()) > MAX_TERM_WORDS or not stems(term):
        return None, ""
    return "definition", term


def shape_bonus(text: str, form: AskedForm | None, term: str = "", title: str = "") -> float:
    """How much a sentence has the asked shape: a definition of ``term`` with the term as its subject, a
    causal connective for a reason, or, for a where-question, a section ``title`` naming the topic."""
    if form == "where":
        wanted = stems(term)
        return WHERE_TITLE_BONUS * len(wanted & stems(title)) / len(wanted) if wanted else 0.0
    if form == "contact":
        return CONTACT_BONUS if _CONTACT.search(text) else 0.0
    if form == "reason":
        return REASON_BONUS if _CAUSAL.search(text) else 0.0
    if form == "kind":
        return KIND_BONUS if stems(term) <= stems(text) else 0.0
    if form == "definition" and term:
        named = len(_QUOTES.sub("", _PARENTHESIS.sub(" ", term)).split()) >= 2  # a phrase defined whole is the answer
        return (
            (NAMED_DEFINITION_BONUS if named else DEFINITION_BONUS)
            if defines(text, term) or expands(text, term)
            else 0.0
        )
    return 0.0


def expands(text: str, acronym: str) -> bool:
    """``text`` spells out ``acronym`` the way prose introduces one: capitalised words whose initials give
    its letters in order, then the acronym in parentheses ("Mean Time To Repair (MTTR)")."""
    if not re.fullmatch(r"[A-Z][A-Za-z0-9]*[A-Z][A-Za-z0-9]*s?", acronym):
        return False
    for match in re.finditer(rf"((?:[\w-]+\s+){{1,10}})\(\s*{re.escape(acronym)}\s*\)", text):
        initials = [
            part[0].upper() for word in match.group(1).split() for part in word.split("-") if part[:1].isupper()
        ]
        letters = iter(initials)
        if all(any(letter == initial for initial in letters) for letter in acronym.rstrip("s").upper()):
            return True
    return False


def defines(text: str, term: str) -> bool:
    """``text`` states what ``term`` is, or what its short form is ("Gross Tonnage (GT)": either names it)."""
    named = re.fullmatch(r"(.+?)\s*\(\s*([A-Za-z][\w-]*)\s*\)", term)
    return any(_defines(text, t) for t in (named.groups() if named else (term,)))


def _defines(text: str, term: str) -> bool:
    """``text`` states what ``term`` is: the term's words stand just before a defining verb, or the term is
    followed by an appositive that says what it is ("We introduce Gauge, a tool for ...")."""
    if re.search(rf"(?<!\w){re.escape(term)}(?:\s*\([^)]*\))?,\s+(?:a|an)\s+\w", text, re.I):
        return True  # an appositive names the kind of thing the term is
    if re.search(rf"\bdefines?\s+(?:the\s+)?{re.escape(term)}(?:\s*\([^)]*\))?\s+as\b", text, re.I):
        return True  # "The Company defines net bookings as ...": the very term, then what it is
    wanted = stems(term)
    window = len(term.split()) + _SUBJECT_SLACK
    for verb in _DEFINING_VERB.finditer(text):
        before = _PARENTHESIS.sub(" ", text[: verb.start()]).split()[-window:]
        if wanted <= stems(" ".join(before)) and not re.search(r"\b(?:which|that|who)\b", " ".join(before), re.I):
            return True
    return False


__all__ = [
    "WHERE_QUESTION",
    "AskedForm",
    "asked_form",
    "asked_kind",
    "defines",
    "expands",
    "searched_topic",
    "shape_bonus",
    "where_topic",
]
