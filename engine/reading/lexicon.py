"""Every word list of the offline rules, as data, each entry with its one-line reason.

The rules read English cue words and document conventions; nothing here may exist to match the
phrasing of a particular question (a benchmark's, a test's): an entry is a general word family, a
general answer-format instruction, or accounting vocabulary any filing uses. An entry is
``(words or pattern, reason)``; the sets and patterns the rules use are built from the entries below.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

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
    ("best better worse whereas there", "evaluative and linking words"),
    ("drove drive drives driven", "'what drove X' asks for causes of X"),
    ("achieve achieved achieves explored explore explores", "verbs of research prose, not terms"),
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

INCOME = "income statement"
BALANCE = "balance sheet"
CASH_FLOW = "cash flow statement"

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


def _g(pattern: str, words: str, statements: tuple[str, ...], reason: str) -> GlossaryEntry:
    return GlossaryEntry(pattern, words, statements, reason)


GLOSSARY_ENTRIES: tuple[GlossaryEntry, ...] = (
    _g(r"\bcapex\b|\bcapital expenditures?\b", "capital expenditures; purchases of property and equipment",
       (CASH_FLOW,), "capex is reported as purchases of property and equipment"),
    _g(r"\bpp\s?&\s?e\b|\bfixed assets?\b", "property, plant and equipment; property and equipment, net",
       (BALANCE,), "PP&E is a balance-sheet line"),
    _g(r"\bfree cash ?flows?\b|\bfcf\b", "cash provided by operating activities; capital expenditures",
       (CASH_FLOW,), "free cash flow is operating cash flow less capex"),
    _g(r"\b(?:operating )?cash ?flows? from operations\b|\bcash from operations\b|\boperating cash ?flows?\b",
       "net cash provided by operating activities", (CASH_FLOW,), "the cash flow statement's operating total"),
    _g(r"\bd\s?&\s?a\b|\bdepreciation\b|\bamortization\b", "depreciation and amortization", (CASH_FLOW,),
       "D&A is added back on the cash flow statement"),
    _g(r"\bebitda\b", "operating income; depreciation and amortization", (INCOME, CASH_FLOW),
       "EBITDA is built from operating income and D&A"),
    _g(r"\boperating (?:margin|profit|income)\b", "operating income; total revenues; net sales", (INCOME,),
       "operating margin is operating income over revenue"),
    _g(r"\bgross (?:margin|profit)s?\b", "gross profit; gross margin; cost of sales; net sales", (INCOME,),
       "gross margin is revenue less cost of sales"),
    _g(r"\bcogs\b|\bcost of (?:goods sold|sales|revenues?)\b", "cost of sales; cost of revenues", (INCOME,),
       "the names filings use for COGS"),
    _g(r"\bnet (?:income|profit|earnings)\b|\bnet margin\b", "net income; net earnings", (INCOME,),
       "the bottom line of the income statement"),
    _g(r"\b(?:total )?revenues?\b|\b(?:net )?sales\b|\btop line\b", "revenues; net sales; total net revenue",
       (INCOME,), "the names filings use for revenue"),
    _g(r"\beffective tax rate\b", "effective tax rate; provision for income taxes; income before income taxes",
       (INCOME,), "the tax rate is the provision over pre-tax income"),
    _g(r"\binterest coverage\b|\binterest expense\b", "interest expense; operating income", (INCOME,),
       "coverage is operating income over interest expense"),
    _g(r"\beps\b|\bearnings per share\b", "earnings per share; diluted", (INCOME,), "EPS sits under net income"),
    _g(r"\bdividends?\b", "dividends paid; cash dividends declared", (CASH_FLOW,),
       "dividends paid are a financing cash flow"),
    _g(r"\b(?:share |stock )?(?:buybacks?|repurchases?)\b|\brepurchas\w+ (?:of )?(?:common )?stock\b",
       "repurchases of common stock; treasury stock", (CASH_FLOW,), "buybacks are repurchases of common stock"),
    _g(r"\bworking capital\b|\bcurrent ratio\b|\bliquidity\b", "total current assets; total current liabilities",
       (BALANCE,), "liquidity ratios use current assets and liabilities"),
    _g(r"\bquick ratio\b|\bacid[- ]test\b", "cash and cash equivalents; accounts receivable; total current liabilities",
       (BALANCE,), "the quick ratio uses cash, receivables and current liabilities"),
    _g(r"\bcash ratio\b|\bcash balance\b", "cash and cash equivalents; total current liabilities", (BALANCE,),
       "the cash ratio uses cash and current liabilities"),
    _g(r"\binventor(?:y|ies) turnover\b|\bdays (?:inventory|sales of inventory)\b", "inventories; cost of sales",
       (BALANCE, INCOME), "inventory turnover is cost of sales over inventories"),
    _g(r"\bdpo\b|\bdays payables?\b|\bpayables? turnover\b|\baccounts payable\b", "accounts payable; cost of sales",
       (BALANCE, INCOME), "payables turnover uses accounts payable and cost of sales"),
    _g(r"\bdso\b|\breceivables? turnover\b|\baccounts receivable\b|\bdays sales outstanding\b",
       "accounts receivable, net; net sales", (BALANCE, INCOME),
       "receivables turnover uses accounts receivable and sales"),
    _g(r"\bcash conversion cycle\b", "inventories; accounts receivable; accounts payable; cost of sales",
       (BALANCE, INCOME), "the cycle combines inventory, receivable and payable days"),
    _g(r"\breturn on (?:average )?assets\b|\broa\b", "net income; total assets", (INCOME, BALANCE),
       "ROA is net income over total assets"),
    _g(r"\breturn on (?:average )?(?:shareholders'? |stockholders'? )?equity\b|\broe\b",
       "net income; total stockholders equity", (INCOME, BALANCE), "ROE is net income over equity"),
    _g(r"\b(?:long[- ]term )?debt\b|\bleverage\b|\bcapitali[sz]ation ratio\b",
       "long-term debt; total liabilities; total stockholders equity", (BALANCE,),
       "leverage ratios use debt, liabilities and equity"),
    _g(r"\btotal assets\b|\basset turnover\b", "total assets", (BALANCE,), "a balance-sheet total"),
    _g(r"\b(?:shareholders'?|stockholders'?|common) equity\b|\bbook value\b", "total stockholders equity",
       (BALANCE,), "book value is stockholders' equity"),
    _g(r"\brestructuring\b", "restructuring charges; restructuring and other", (INCOME,),
       "restructuring is an income-statement charge"),
    _g(r"\bsegments?\b", "segment information; reportable segments; operating segments", (),
       "filings report segments in a segment note"),
    _g(r"\bgeograph(?:y|ies|ic)\b|\bregions?\b", "geographic areas; united states; international", (),
       "filings report revenue by geographic area"),
    _g(r"\bheadcount\b|\bemployees\b|\bworkforce\b|\bstaff\b", "employees; employed people; full-time equivalents",
       (), "filings state the number of employees as people employed, often in full-time equivalents"),
    _g(r"\blegal (?:proceedings?|actions?|matters?)\b|\blawsuits?\b|\blitigation\b",
       "legal proceedings; litigation; contingencies", (), "filings report lawsuits under legal proceedings"),
)  # fmt: skip
"""General accounting and reporting vocabulary: what filings call a question's term."""


# --------------------------------------------------------------------------------------------
# The sets and patterns the rules use
# --------------------------------------------------------------------------------------------

GENERIC = words_of(GENERIC_ENTRIES)
QUESTION_WORDS = words_of(QUESTION_WORD_ENTRIES)
CONNECTORS = words_of(CONNECTOR_ENTRIES)
INNER_CONNECTORS = words_of(INNER_CONNECTOR_ENTRIES)
PHRASE_BREAKERS = words_of(PHRASE_BREAKER_ENTRIES)
SIDE_STOP_WORDS = words_of(SIDE_STOP_ENTRIES)
COMPARATIVE = re.compile(r"\b(" + "|".join(sorted(words_of(COMPARATIVE_ENTRIES))) + r")\b", re.I)
INSTRUCTION = re.compile(r"^(?:please\s+|kindly\s+|also\s+)?(?:" + alternatives(INSTRUCTION_ENTRIES) + ")", re.I)
