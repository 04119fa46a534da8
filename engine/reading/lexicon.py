"""Every word list of the offline rules, as data, each entry with its one-line reason.

The rules read English cue words and document conventions; nothing here may exist to match the
phrasing of a particular question (a benchmark's, a test's): an entry is a general word family, a
general answer-format instruction, or accounting vocabulary any filing uses. An entry is
``(words or pattern, reason)``; the sets and patterns the rules use are built from the entries below.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.reading.reporting_terms import BALANCE, CASH_FLOW, INCOME, REPORTING_TERMS, search_words

Entry = tuple[str, str]
"""(space-separated word forms, or one regular-expression alternative; why it is here)."""


def words_of(entries: tuple[Entry, ...]) -> frozenset[str]:
    """Every word form of ``entries``."""
    return frozenset(word for forms, _ in entries for word in forms.split())


def alternatives(entries: tuple[Entry, ...]) -> str:
    """The regular-expression alternatives of ``entries`` joined with ``|``."""
    return "|".join(pattern for pattern, _ in entries)


# --------------------------------------------------------------------------------------------
# Question words
# --------------------------------------------------------------------------------------------

GENERIC_ENTRIES: tuple[Entry, ...] = (
    ("compare compared comparing comparison versus vs", "asks to compare; the compared things are the terms"),
    ("difference differences differ differs differed contrast", "asks for a difference, not what to find"),
    ("overall general summarize summarise summary main theme themes", "asks for a summary, names no term"),
    ("enumerate name named", "asks to list or name things"),
    ("brief briefly exactly respectively approximately primarily", "adverbs that shape the answer"),
    ("information details detail", "any text is information; names nothing to look for"),
    ("report reported reports show shows shown say says said", "reporting verbs every document uses"),
    ("state states stated discuss discussed discusses present presented presents", "reporting verbs"),
    ("find found contain contains include includes included", "verbs of locating, not terms"),
    ("mean means happen happened does did like think know", "auxiliary and vague verbs"),
    ("define defines", "asks what a term means ('how does the company define X'): X is the term, the verb names none"),
    ("best better worse whereas there", "evaluative and linking words"),
    ("drove drive drives driven", "'what drove X' asks for causes of X"),
    ("achieve achieved achieves explored explore explores", "verbs of research prose, not terms"),
    (
        "reach reaches reached attain attains attained get gets got",
        "verbs of attaining a figure ('what rate does X reach')",
    ),
    ("considered consider applied apply applies described", "verbs of research prose, not terms"),
    ("perform performs performed obtain obtained work works", "verbs of research prose, not terms"),
    ("usd millions billions thousands", "units of the answer, not of the evidence"),
    ("two three four five six seven eight nine ten eleven twelve several various", "counts of the answer"),
    ("respective", "refers back to the compared things"),
    ("more less fewer higher lower earlier later larger bigger smaller", "comparatives ask to compare"),
    ("older younger greater longer shorter first faster slower", "comparatives ask to compare"),
    ("most least highest lowest largest smallest oldest youngest", "superlatives ask to rank"),
    ("write written", "asks to write the answer"),
)
"""Words that say what to do with the answer rather than what to look for."""

QUESTION_WORD_ENTRIES: tuple[Entry, ...] = (
    ("what which who whom whose when where why how", "interrogatives open a question"),
    ("is are was were do does did can could", "auxiliaries that open a yes/no question"),
)

CONNECTOR_ENTRIES: tuple[Entry, ...] = (
    ("of de del da von van la le du", "join the words of a name (Bank of America, Leonardo da Vinci)"),
    ("the and in on for", "join a name's words at its edges only (trimmed from a run's end)"),
)
INNER_CONNECTOR_ENTRIES: tuple[Entry, ...] = (("of de del da von van la le du", "may sit inside a capitalised name"),)

PHRASE_BREAKER_ENTRIES: tuple[Entry, ...] = (
    ("give gives gave take takes took", "common verbs: 'temperature gives' is not a term"),
    ("integrate integrates propose proposes", "verbs of research prose"),
    ("corresponds correspond appear appears", "linking verbs"),
    ("need needs needed set sets", "common verbs"),
    ("demonstrate demonstrates demonstrating", "verbs of research prose"),
    ("viewing displayed stay provide provides", "common verbs"),
    ("become becomes became remain remains", "linking verbs"),
    ("lead leads led make makes affect affects", "causal verbs"),
    ("compare relate relates", "relational verbs"),
)
"""Common verbs that end a lower-case noun phrase."""

COMPARATIVE_ENTRIES: tuple[Entry, ...] = (
    ("more less fewer higher lower earlier later larger bigger smaller older younger", "comparatives"),
    ("greater longer shorter first faster slower better worse cheaper heavier", "comparatives"),
    ("most least highest lowest largest smallest oldest youngest", "superlatives"),
)
"""Words that make an either/or question a comparison ("Which is larger, A or B?")."""

SIDE_STOP_ENTRIES: tuple[Entry, ...] = (
    ("same both either neither different similar", "frame a comparison; never part of a compared thing"),
)

DOCUMENT_KIND_ENTRIES: tuple[Entry, ...] = (
    (r"reports?|papers?|stud(?:y|ies)|surveys?|filings?|10-?[KQ]s?|releases?|statements?|prospectus", "filings, papers, "
     "reports: a question naming one says where to read ('in its 2031 report'), not what to read"),
    (r"manuals?|guides?|datasheets?|documents?|articles?|opinions?|plans?|presentations?", "other kinds of document a "
     "question names as the place to read"),
)  # fmt: skip

SECTION_KINDS = ("Section", "Item", "Appendix", "Chapter", "Schedule", "Exhibit", "Note")
"""Reference kinds that name a section (a filing's Item 7, a report's Appendix B)."""

MAX_KEYWORDS = 10
"""Keywords a parsed question keeps (the most specific first)."""


# --------------------------------------------------------------------------------------------
# Answer-format instructions (question focus)
# --------------------------------------------------------------------------------------------

INSTRUCTION_ENTRIES: tuple[Entry, ...] = (
    (r"write|round|format|return|represent|respond|express", "a sentence opening with a verb of answer form"),
    (r"give (?:me|the answer|your answer|an?)\b", "'Give me an integer.', 'Give the answer in ...'"),
    (r"directly answer", "'Directly answer yes or no.'"),
    (r"answer (?:in|with|using|by|only|according|yes|the following|this)\b", "'Answer in USD millions.'"),
    (r"provide (?:the|your) answer", "'Provide the answer as a list.'"),
    (r"(?:the|your) answer (?:should|must|needs|has to)", "'The answer should be a list.'"),
    (r"e\.g\.|for example", "an example of the answer's format"),
    (r"calculate the answer", "'Calculate the answer from the statements.'"),
    (r"base your", "'Base your answer on the balance sheet.' (the source is read separately)"),
    (r"assume (?:that )?you|you are (?:an?|the) ", "a persona ('Assume you are an analyst.') says who answers"),
)
"""Sentences that open with one of these say how to answer, not what to find ("please" may precede)."""

LEAD_IN_ENTRIES: tuple[Entry, ...] = (
    (r"using|according to|based on|from", "'Using the cash flow statement, ...' names a source, then asks"),
)
"""Openings of a source clause ("Using the balance sheet, what is ...") set aside before the question."""


# --------------------------------------------------------------------------------------------
# Financial statements and the domain glossary
# --------------------------------------------------------------------------------------------

STATEMENT_TITLES: dict[str, tuple[str, ...]] = {
    INCOME: ("statements of operations", "statements of income", "statements of earnings", "net sales", "revenues"),
    BALANCE: ("balance sheets", "total assets", "total liabilities", "stockholders equity"),
    CASH_FLOW: ("statements of cash flows", "operating activities", "investing activities"),
}
"""How each statement is titled in filings, plus line items found on (nearly) every instance of it."""

STATEMENT_NAME_ENTRIES: tuple[tuple[str, str, str], ...] = (
    (r"\b(?:income statements?|statements? of (?:income|operations|earnings)|p\s?&\s?l|profit and loss)\b", INCOME,
     "the names of the income statement"),
    (r"\b(?:balance sheets?|statements? of financial (?:position|condition))\b", BALANCE,
     "the names of the balance sheet"),
    (r"\b(?:cash ?flows? statements?|statements? of cash ?flows?)\b", CASH_FLOW,
     "the names of the cash flow statement"),
)  # fmt: skip
"""(pattern, statement, reason): how a question names a financial statement."""


@dataclass(frozen=True)
class GlossaryEntry:
    """A question term, the document words for it, the statements that hold them, and why."""

    pattern: str
    words: str
    """Document words, separated by ``;``."""
    statements: tuple[str, ...]
    reason: str


GLOSSARY_ENTRIES: tuple[GlossaryEntry, ...] = tuple(
    GlossaryEntry("|".join(p for p in (term.pattern, term.mentions) if p), "; ".join(search_words(term)),
                  term.statements, term.reason)
    for term in REPORTING_TERMS
)  # fmt: skip
"""What filings call a question's term, read from the one table of reporting terms (``reporting_terms``)
that value reading uses too."""


# --------------------------------------------------------------------------------------------
# The sets and patterns the rules use
# --------------------------------------------------------------------------------------------

GENERIC = words_of(GENERIC_ENTRIES)
QUESTION_WORDS = words_of(QUESTION_WORD_ENTRIES)
CONNECTORS = words_of(CONNECTOR_ENTRIES)
INNER_CONNECTORS = words_of(INNER_CONNECTOR_ENTRIES)
PHRASE_BREAKERS = words_of(PHRASE_BREAKER_ENTRIES)
SIDE_STOP_WORDS = words_of(SIDE_STOP_ENTRIES)
DOCUMENT_KIND = alternatives(DOCUMENT_KIND_ENTRIES)
"""The kinds of document a question may name as where to read (a regular-expression alternation)."""
COMPARATIVE = re.compile(r"\b(" + "|".join(sorted(words_of(COMPARATIVE_ENTRIES))) + r")\b", re.I)
INSTRUCTION = re.compile(r"^(?:please\s+|kindly\s+|also\s+)?(?:" + alternatives(INSTRUCTION_ENTRIES) + ")", re.I)
