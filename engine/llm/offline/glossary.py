"""Domain vocabulary the offline backend knows: what a term is called in the documents that hold it.

A question says "capex", "quick ratio" or "P&L"; a filing says "purchases of property and equipment",
"total current assets" and "statements of operations". Each entry maps a question term (a regular
expression) to the words a document uses for it, and optionally to the financial statement that
holds those line items. This is general accounting and reporting vocabulary, not knowledge of any
particular document; the retrieval layer adds these words to a query, it never replaces the
question's own words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

INCOME = "income statement"
BALANCE = "balance sheet"
CASH_FLOW = "cash flow statement"

STATEMENT_TITLES: dict[str, tuple[str, ...]] = {
    INCOME: ("statements of operations", "statements of income", "statements of earnings", "net sales", "revenues"),
    BALANCE: ("balance sheets", "total assets", "total liabilities", "stockholders equity"),
    CASH_FLOW: ("statements of cash flows", "operating activities", "investing activities"),
}
"""How each statement is titled in filings, plus line items found on (nearly) every instance of it."""

_STATEMENT_NAMES: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        re.compile(
            r"\b(?:income statements?|statements? of (?:income|operations|earnings)|p\s?&\s?l|profit and loss)\b", re.I
        ),
        INCOME,
    ),
    (re.compile(r"\b(?:balance sheets?|statements? of financial (?:position|condition))\b", re.I), BALANCE),
    (re.compile(r"\b(?:cash ?flows? statements?|statements? of cash ?flows?)\b", re.I), CASH_FLOW),
)


@dataclass(frozen=True)
class Term:
    """A question term, the document words for it and the statement that holds them (if any)."""

    pattern: re.Pattern[str]
    words: tuple[str, ...]
    statements: tuple[str, ...] = ()


def _term(pattern: str, words: str, *statements: str) -> Term:
    return Term(re.compile(pattern, re.I), tuple(w.strip() for w in words.split(";") if w.strip()), statements)


TERMS: tuple[Term, ...] = (
    _term(
        r"\bcapex\b|\bcapital expenditures?\b", "capital expenditures; purchases of property and equipment", CASH_FLOW
    ),
    _term(
        r"\bpp\s?&\s?e\b|\bppne\b|\bfixed assets?\b",
        "property, plant and equipment; property and equipment, net",
        BALANCE,
    ),
    _term(r"\bfree cash ?flows?\b|\bfcf\b", "cash provided by operating activities; capital expenditures", CASH_FLOW),
    _term(
        r"\b(?:operating )?cash ?flows? from operations\b|\bcash from operations\b|\boperating cash ?flows?\b",
        "net cash provided by operating activities",
        CASH_FLOW,
    ),
    _term(r"\bd\s?&\s?a\b|\bdepreciation\b|\bamortization\b", "depreciation and amortization", CASH_FLOW),
    _term(r"\bebitda\b", "operating income; depreciation and amortization", INCOME, CASH_FLOW),
    _term(r"\boperating (?:margin|profit|income)\b", "operating income; total revenues; net sales", INCOME),
    _term(r"\bgross (?:margin|profit)s?\b", "gross profit; gross margin; cost of sales; net sales", INCOME),
    _term(r"\bcogs\b|\bcost of (?:goods sold|sales|revenues?)\b", "cost of sales; cost of revenues", INCOME),
    _term(r"\bnet (?:income|profit|earnings)\b|\bnet margin\b", "net income; net earnings", INCOME),
    _term(
        r"\b(?:total )?revenues?\b|\b(?:net )?sales\b|\btop line\b", "revenues; net sales; total net revenue", INCOME
    ),
    _term(
        r"\beffective tax rate\b", "effective tax rate; provision for income taxes; income before income taxes", INCOME
    ),
    _term(r"\binterest coverage\b|\binterest expense\b", "interest expense; operating income", INCOME),
    _term(r"\beps\b|\bearnings per share\b", "earnings per share; diluted", INCOME),
    _term(r"\bdividends?\b", "dividends paid; cash dividends declared", CASH_FLOW),
    _term(
        r"\b(?:share |stock )?(?:buybacks?|repurchases?)\b|\brepurchas\w+ (?:of )?(?:common )?stock\b",
        "repurchases of common stock; treasury stock",
        CASH_FLOW,
    ),
    _term(
        r"\bworking capital\b|\bcurrent ratio\b|\bliquidity\b",
        "total current assets; total current liabilities",
        BALANCE,
    ),
    _term(
        r"\bquick ratio\b|\bacid[- ]test\b",
        "cash and cash equivalents; accounts receivable; total current liabilities",
        BALANCE,
    ),
    _term(r"\bcash ratio\b|\bcash balance\b", "cash and cash equivalents; total current liabilities", BALANCE),
    _term(
        r"\binventor(?:y|ies) turnover\b|\bdays (?:inventory|sales of inventory)\b",
        "inventories; cost of sales",
        BALANCE,
        INCOME,
    ),
    _term(
        r"\bdpo\b|\bdays payables?\b|\bpayables? turnover\b|\baccounts payable\b",
        "accounts payable; cost of sales",
        BALANCE,
        INCOME,
    ),
    _term(
        r"\bdso\b|\breceivables? turnover\b|\breceive turnover\b|\baccounts receivable\b|\bdays sales outstanding\b",
        "accounts receivable, net; net sales",
        BALANCE,
        INCOME,
    ),
    _term(
        r"\bcash conversion cycle\b",
        "inventories; accounts receivable; accounts payable; cost of sales",
        BALANCE,
        INCOME,
    ),
    _term(r"\breturn on (?:average )?assets\b|\broa\b", "net income; total assets", INCOME, BALANCE),
    _term(
        r"\breturn on (?:average )?(?:shareholders'? |stockholders'? )?equity\b|\broe\b",
        "net income; total stockholders equity",
        INCOME,
        BALANCE,
    ),
    _term(
        r"\b(?:long[- ]term )?debt\b|\bleverage\b|\bcapitali[sz]ation ratio\b",
        "long-term debt; total liabilities; total stockholders equity",
        BALANCE,
    ),
    _term(r"\btotal assets\b|\basset turnover\b", "total assets", BALANCE),
    _term(r"\b(?:shareholders'?|stockholders'?|common) equity\b|\bbook value\b", "total stockholders equity", BALANCE),
    _term(r"\brestructuring\b", "restructuring charges; restructuring and other", INCOME),
    _term(r"\bsegments?\b", "segment information; reportable segments; operating segments"),
    _term(r"\bgeograph(?:y|ies|ic)\b|\bregions?\b", "geographic areas; united states; international"),
    _term(r"\bheadcount\b|\bemployees\b|\bworkforce\b", "employees; full-time employees"),
    _term(
        r"\blegal (?:battles?|proceedings?|actions?|matters?)\b|\blawsuits?\b|\blitigation\b",
        "legal proceedings; litigation; contingencies",
    ),
)


def statements_named(text: str) -> tuple[str, ...]:
    """The financial statements ``text`` names ("the P&L", "statement of financial position")."""
    return tuple(name for pattern, name in _STATEMENT_NAMES if pattern.search(text))


def expansions(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(document words, statements) implied by the terms of ``text``, in order of first mention."""
    words: dict[str, None] = {}
    statements: dict[str, None] = {}
    for term in TERMS:
        if term.pattern.search(text):
            words.update(dict.fromkeys(term.words))
            statements.update(dict.fromkeys(term.statements))
    return tuple(words), tuple(statements)
