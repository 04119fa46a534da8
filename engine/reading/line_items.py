"""What financial statements call a line item that questions name in analysts' shorthand.

Each entry maps a question term (a regular expression) to the row labels filings use for the very
same quantity: synonyms only, never components ("EBITDA" is not "operating income"). The value brick
reads a row whose label is one of them as naming the metric. General accounting vocabulary, one
line of reason each; no entry exists for a particular document or question.
"""

from __future__ import annotations

import re

_ENTRIES: tuple[tuple[str, str, str], ...] = (
    # (question term, the labels filings use, why)
    (r"\bcapex\b|\bcapital expenditures?\b|\bcapital spending\b",
     "purchases of property and equipment; purchases of property, plant and equipment; "
     "additions to property and equipment; payments for property and equipment; capital expenditures; "
     "capital spending",
     "the cash-flow line for money spent on fixed assets goes by these names"),
    (r"\bpp\s?&\s?e\b|\bfixed assets?\b|\bproperty,? plant,? and equipment\b",
     "property, plant and equipment, net; property and equipment, net; property, plant and equipment",
     "the balance-sheet line for fixed assets"),
    (r"\bcogs\b|\bcost of goods sold\b|\bcost of (?:sales|revenues?)\b",
     "cost of sales; cost of revenues; cost of goods sold; cost of products sold",
     "income statements title the cost of what was sold in these ways"),
    (r"(?<!cost of )\b(?:revenues?|sales)\b|\btop line\b",
     "total revenues; total net revenues; net revenues; revenues; total net sales; net sales",
     "the top line of an income statement (the cost of sales is not it)"),
    (r"\bd\s?&\s?a\b|\bdepreciation and amortization\b",
     "depreciation and amortization; depreciation, depletion and amortization; depreciation and amortization expense",
     "the non-cash charge added back in the cash-flow statement"),
    (r"\bcash (?:flow )?from operations\b|\boperating cash flows?\b|\bcash flows? from operating activities\b|\bcfo\b",
     "net cash provided by operating activities; net cash provided by (used in) operating activities; "
     "cash provided by operations; net cash from operating activities",
     "the operating subtotal of a cash-flow statement"),
    (r"\baccounts payable\b|\bpayables\b",
     "accounts payable; trade payables; accounts payable and accrued liabilities",
     "what a company owes its suppliers"),
    (r"\baccounts receivable\b|\breceivables\b",
     "accounts receivable, net; receivables, net; trade receivables; accounts receivable",
     "what customers owe the company"),
    (r"\binventor(?:y|ies)\b", "inventories; merchandise inventories; inventory", "goods held for sale"),
    (r"\bnet (?:income|earnings|profit)\b",
     "net income; net earnings; net income attributable to; net earnings attributable to",
     "the bottom line of an income statement"),
    (r"\boperating (?:income|profit)\b|\bincome from operations\b|\bebit\b",
     "operating income; operating income (loss); income from operations; operating profit",
     "profit from operations before interest and taxes"),
    (r"\bsg\s?&\s?a\b|\bselling,? general,? and administrative\b",
     "selling, general and administrative expenses; selling, general and administrative",
     "overhead expenses"),
    (r"\bcurrent assets\b", "total current assets", "the balance-sheet subtotal"),
    (r"\bcurrent liabilities\b", "total current liabilities", "the balance-sheet subtotal"),
    (r"\btotal assets\b", "total assets", "the balance-sheet total"),
    (r"\b(?:shareholders'?|stockholders'?) equity\b|\btotal equity\b",
     "total shareholders' equity; total stockholders' equity; total equity",
     "what the owners' stake is called"),
    (r"\binterest expense\b", "interest expense; interest expense, net", "the cost of debt"),
    (r"\bdividends\b", "dividends paid; cash dividends paid; dividends paid to shareholders", "cash returned"),
)  # fmt: skip

_COMPILED = tuple((re.compile(term, re.I), tuple(x.strip() for x in labels.split(";"))) for term, labels, _ in _ENTRIES)


def line_item_triggers(text: str) -> tuple[str, ...]:
    """The words of ``text`` that name a line item with other names ("sales" of "comparable sales")."""
    return tuple(m.group(0) for pattern, _ in _COMPILED for m in pattern.finditer(text))


def line_item_names(text: str) -> tuple[str, ...]:
    """The row labels filings use for the metrics ``text`` names, in order of first mention."""
    found: dict[str, None] = {}
    for pattern, labels in _COMPILED:
        if pattern.search(text):
            found.update(dict.fromkeys(labels))
    return tuple(found)


_STANDARD: tuple[tuple[str, str, str], ...] = (
    # (the metric a question names, its textbook definition in line items, why)
    (r"\bebitda\b(?!\s*(?:%\s*)?margin)", "operating income + depreciation and amortization",
     "EBITDA adds the non-cash depreciation and amortization back to operating income"),
    (r"\bebitda\s*(?:%\s*)?margin\b", "(operating income + depreciation and amortization) as a % of revenue",
     "a margin is the measure as a share of revenue"),
    (r"\bfree cash flows?\b|\bfcf\b", "cash from operations - capex",
     "free cash flow is operating cash flow less capital expenditures"),
    (r"\bworking capital ratio\b|\bcurrent ratio\b", "total current assets / total current liabilities",
     "the current ratio compares current assets with current liabilities"),
    (r"\bworking capital\b(?!\s+ratio)", "total current assets - total current liabilities",
     "working capital is current assets less current liabilities"),
    (r"\bgross (?:profit )?margin\b", "gross profit as a % of revenue", "a margin is a profit as a share of revenue"),
    (r"\boperating (?:profit )?margin\b", "operating income as a % of revenue", "a margin is a profit as a share of revenue"),
    (r"\bnet (?:profit )?margin\b|\bprofit margin\b", "net income as a % of revenue",
     "a margin is a profit as a share of revenue"),
    (r"\binterest coverage\b", "operating income / interest expense",
     "interest coverage is how many times operating income covers interest"),
    (r"\breturn on assets\b|\broa\b", "net income / total assets", "return on assets is income per unit of assets"),
    (r"\breturn on (?:shareholders'? |stockholders'? )?equity\b|\broe\b", "net income / total shareholders' equity",
     "return on equity is income per unit of equity"),
)  # fmt: skip

_STANDARD_COMPILED = tuple((re.compile(term, re.I), definition) for term, definition, _ in _STANDARD)


_COMPANY_DEFINED = re.compile(r"\b(?<!un)adjusted\b|\bnon-?gaap\b|\bcore\b|\borganic\b|\bunderlying\b", re.I)
"""Measures a company defines for itself ("adjusted EBITDA", "non-GAAP", "core EPS"): read as reported,
never computed from a textbook definition."""


def company_defined(text: str) -> bool:
    """Whether ``text`` names a measure the company defines for itself ("adjusted EBIT", "core EPS")."""
    return bool(_COMPANY_DEFINED.search(text))


def standard_definition(text: str) -> str | None:
    """The textbook definition of the first standard metric ``text`` names, in line items, else None."""
    if company_defined(text):
        return None
    for pattern, definition in _STANDARD_COMPILED:
        named = pattern.search(text)
        if named:
            return None if _QUALIFIER.match(text[named.end() :]) else definition
    return None


_QUALIFIER = re.compile(r"\s*(?:before|after|excluding|ex\b|net of|adjusted for)\b", re.I)
"""A metric qualified right after its name ("Operating Profit Margin Before Depreciation", "free cash flow
after dividends") is not the textbook metric: its definition would compute another measure."""
