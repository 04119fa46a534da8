"""One table of reporting terms: what a question calls a quantity and what filings call it.

Question reading (``glossary``: the words a search adds) and value reading (``line_items``: the row labels
that name the very same quantity, and the textbook definitions computed from line items) both read this
table, so they never disagree about a term. Each entry:

- ``pattern``: how a question names the quantity (a regular expression);
- ``names``: the row labels filings use for the very same quantity, the commonest first (synonyms only, never
  components: "EBITDA" is not "operating income"); a row whose label is one of them names the metric;
- ``search``: further document words a search for the term adds (the inputs of a ratio, a note's title);
- ``definition``: the textbook definition in line items, for a metric computed from them ("" if none);
- ``other``: the same quantity from other line items; ``variant``: another measure under the same name;
- ``mentions``: a wider pattern that only adds the search words ("depreciation" alone), never the names;
- ``statements``: the financial statements that hold the line items;
- ``reason``: why the entry is general accounting vocabulary.

No entry exists for a particular document, question or benchmark template. Pure data.
"""

from __future__ import annotations

from dataclasses import dataclass

INCOME = "income statement"
BALANCE = "balance sheet"
CASH_FLOW = "cash flow statement"


@dataclass(frozen=True)
class ReportingTerm:
    """A question term, what filings call it, how it is computed, where it is printed, and why."""

    pattern: str
    names: str = ""
    """Row labels for the very same quantity, separated by ``;``."""
    search: str = ""
    """Further document words to search for, separated by ``;``."""
    definition: str = ""
    statements: tuple[str, ...] = ()
    reason: str = ""
    mentions: str = ""
    other: str = ""
    """Other definitions of the same metric from other line items (separated by `` | ``), for a filing that
    does not print the first one's inputs (an income statement without a gross profit line)."""
    variant: str = ""
    """Another measure textbooks give the same name (separated by `` | ``): it may give another value from the
    same statements, so an answer computed by ``definition`` states it beside, or is doubted."""


def _t(pattern: str, names: str = "", search: str = "", definition: str = "", statements: tuple[str, ...] = (),
       reason: str = "", mentions: str = "", other: str = "", variant: str = "") -> ReportingTerm:  # fmt: skip
    return ReportingTerm(pattern, names, search, definition, statements, reason, mentions, other, variant)


PP_AND_E = r"\bpp\s?(?:&|and)\s?e\b"
"""Property, plant and equipment as analysts abbreviate it: "PP&E" or "PP and E"."""


REPORTING_TERMS: tuple[ReportingTerm, ...] = (
    # line items a question may name by an analyst's name
    _t(r"\bcapex\b|\bcapital expenditures?\b|\bcapital spending\b",
       names="capital expenditures; purchases of property and equipment; purchases of property, plant and "
             "equipment; additions to property and equipment; payments for property and equipment; capital spending",
       statements=(CASH_FLOW,), reason="the cash-flow line for money spent on fixed assets goes by these names"),
    _t(rf"{PP_AND_E}|\bfixed assets?\b|\bproperty,? plant,? and equipment\b",
       names="property, plant and equipment; property and equipment, net; property, plant and equipment, net",
       statements=(BALANCE,), reason="the balance-sheet line for fixed assets"),
    _t(r"\bcogs\b|\bcost of goods sold\b|\bcost of (?:sales|revenues?)\b",
       names="cost of sales; cost of revenues; cost of goods sold; cost of products sold",
       statements=(INCOME,), reason="income statements title the cost of what was sold in these ways"),
    _t(r"(?<!cost of )\b(?:revenues?|sales)\b(?!\s*(?:and|&)\s*marketing\b)|\btop line\b",
       names="revenues; net sales; total revenues; total net revenues; net revenues; total net sales; "
             "sales to customers; operating revenues; total operating revenues",
       search="total net revenue", statements=(INCOME,),
       reason="the top line of an income statement (the cost of sales is not it, nor is the expense line 'sales "
              "and marketing')"),
    _t(r"\bd\s?&\s?a\b|\bdepreciation and amortization\b",
       names="depreciation and amortization; depreciation, depletion and amortization; "
             "depreciation and amortization expense",
       statements=(CASH_FLOW,), mentions=r"\bdepreciation\b|\bamortization\b",
       reason="the non-cash charge added back in the cash-flow statement (depreciation or amortization alone "
              "is searched there, but is only part of it)"),
    _t(r"\bcash (?:flows? )?from operations\b|\boperating cash flows?\b|\bcash flows? from operating activities\b|"
       r"\bcfo\b",
       names="net cash provided by operating activities; net cash provided by (used in) operating activities; "
             "cash provided by operations; net cash from operating activities; cash provided by operating activities",
       statements=(CASH_FLOW,), reason="the operating subtotal of a cash-flow statement"),
    _t(r"\b(?:income )?tax (?:expense|provision)\b|\bprovision for (?:income )?taxes\b",
       names="provision for income taxes; income tax expense; income taxes; provision for taxes on income; "
             "income tax provision",
       statements=(INCOME,), reason="the income statement's tax charge goes by these names (a tax benefit is its "
       "reverse, a deferred tax its timing part)"),
    _t(r"\baccounts payable\b|\bpayables\b", names="accounts payable; trade payables; accounts payable and accrued "
       "liabilities", statements=(BALANCE,), reason="what a company owes its suppliers"),
    _t(r"\baccounts receivable\b|\breceivables\b",
       names="accounts receivable, net; receivables, net; trade receivables; accounts receivable",
       statements=(BALANCE,), reason="what customers owe the company"),
    _t(r"\binventor(?:y|ies)\b", names="inventories; merchandise inventories; inventory", statements=(BALANCE,),
       reason="goods held for sale"),
    _t(r"\bnet (?:income|earnings|profit)\b",
       names="net income; net earnings; net income attributable to; net earnings attributable to; net loss; "
             "net income (loss); net (loss) income; net loss attributable to",
       statements=(INCOME,), reason="the bottom line of an income statement (a company that lost money prints it as "
       "its net loss)"),
    _t(r"\boperating (?:income|profit)\b|\bincome from operations\b|\bebit\b",
       names="operating income; operating income (loss); income from operations; operating profit; "
             "loss from operations; operating loss",
       statements=(INCOME,), reason="profit from operations before interest and taxes (a loss from operations when "
       "negative)"),
    _t(r"\bgross profits?\b", names="gross profit; gross margin; total gross margin", statements=(INCOME,),
       reason="revenue less the cost of sales: some income statements title the amount 'Gross margin' (a question's "
              "'gross margin' asks the share of revenue, computed from it)"),
    _t(r"\bsg\s?&\s?a\b|\bselling,? general,? and administrative\b",
       names="selling, general and administrative expenses; selling, general and administrative",
       statements=(INCOME,), reason="overhead expenses"),
    _t(r"\bcurrent assets\b", names="total current assets", statements=(BALANCE,), reason="the balance-sheet subtotal"),
    _t(r"\bcurrent liabilities\b", names="total current liabilities", statements=(BALANCE,),
       reason="the balance-sheet subtotal"),
    _t(r"\btotal assets\b", names="total assets", statements=(BALANCE,), reason="the balance-sheet total",
       mentions=r"\basset turnover\b"),
    _t(r"\b(?:shareholders'?|stockholders'?) equity\b|\btotal equity\b",
       names="total shareholders' equity; total stockholders' equity; total equity", search="total stockholders equity",
       statements=(BALANCE,), reason="what the owners' stake is called",
       mentions=r"\bcommon equity\b|\bbook value\b"),
    _t(r"\binterest expense\b", names="interest expense; interest expense, net", statements=(INCOME,),
       reason="the cost of debt"),
    _t(r"\bdividends\b", names="dividends paid; cash dividends paid; dividends paid to shareholders",
       search="cash dividends declared", statements=(CASH_FLOW,), mentions=r"\bdividend\b",
       reason="cash returned to shareholders, a financing cash flow (one dividend per share is not the total)"),
    # metrics computed from line items (a textbook definition), or searched by their inputs
    _t(r"\bebitda\b(?!\s*(?:%\s*)?margin)", definition="operating income + depreciation and amortization",
       search="operating income; depreciation and amortization", statements=(INCOME, CASH_FLOW),
       reason="EBITDA adds the non-cash depreciation and amortization back to operating income"),
    _t(r"\bebitda\s*(?:%\s*)?margin\b",
       definition="(operating income + depreciation and amortization) as a % of revenue",
       search="operating income; depreciation and amortization; net sales", statements=(INCOME, CASH_FLOW),
       reason="a margin is the measure as a share of revenue"),
    _t(r"\bfree cash ?flows?\b|\bfcf\b", definition="operating cash flow - capital expenditures",
       search="cash provided by operating activities; capital expenditures", statements=(CASH_FLOW,),
       reason="free cash flow is operating cash flow less capital expenditures"),
    _t(r"\bworking capital ratio\b|\bcurrent ratio\b", definition="total current assets / total current liabilities",
       search="total current assets; total current liabilities", statements=(BALANCE,),
       reason="the current ratio (textbooks also call it the working capital ratio) compares current assets with "
              "current liabilities"),
    _t(r"\bworking capital\b(?!\s+ratio)", definition="total current assets - total current liabilities",
       search="total current assets; total current liabilities", statements=(BALANCE,), mentions=r"\bliquidity\b",
       reason="working capital is current assets less current liabilities"),
    _t(r"\bgross (?:profit )?margin\b", definition="gross profit as a % of revenue",
       other="(revenue - cost of sales) as a % of revenue",
       search="gross profit; gross margin; cost of sales; net sales", statements=(INCOME,),
       mentions=r"\bgross profits?\b", reason="a margin is a profit as a share of revenue"),
    _t(r"\boperating (?:profit )?margin\b", definition="operating income as a % of revenue",
       search="operating income; total revenues; net sales", statements=(INCOME,),
       reason="a margin is a profit as a share of revenue"),
    _t(r"\bnet (?:profit )?margin\b|\bprofit margin\b", definition="net income as a % of revenue",
       search="net income; net earnings", statements=(INCOME,), reason="a margin is a profit as a share of revenue"),
    _t(r"\binterest coverage\b", definition="operating income / interest expense",
       search="interest expense; operating income", statements=(INCOME,),
       reason="interest coverage is how many times operating income covers interest"),
    _t(r"\breturn on average (?:total )?assets\b", definition="net income / average total assets",
       search="net income; total assets", statements=(INCOME, BALANCE),
       reason="return on average assets divides the year's income by the mean of its opening and closing assets"),
    _t(r"\breturn on (?:total )?assets\b|\broa\b", definition="net income / total assets",
       search="net income; total assets", statements=(INCOME, BALANCE),
       reason="return on assets is income per unit of assets"),
    _t(r"\breturn on average (?:total )?(?:shareholders'? |stockholders'? )?equity\b",
       definition="net income / average total shareholders' equity", search="net income; total stockholders equity",
       statements=(INCOME, BALANCE), reason="the year's income over the mean of its opening and closing equity"),
    _t(r"\breturn on (?:shareholders'? |stockholders'? )?equity\b|\broe\b",
       definition="net income / total shareholders' equity", search="net income; total stockholders equity",
       statements=(INCOME, BALANCE), reason="return on equity is income per unit of equity"),
    _t(r"\beffective tax rate\b", search="effective tax rate; provision for income taxes; income before income taxes",
       statements=(INCOME,), reason="the tax rate is the provision over pre-tax income"),
    _t(r"\beps\b|\bearnings per share\b", names="earnings per share; net income per share; net earnings per share",
       search="earnings per share; diluted", statements=(INCOME,),
       reason="EPS sits under net income"),
    _t(r"\b(?:share |stock )?(?:buybacks?|repurchases?)\b|\brepurchas\w+ (?:of )?(?:common )?stock\b",
       search="repurchases of common stock; treasury stock", statements=(CASH_FLOW,),
       reason="buybacks are repurchases of common stock"),
    _t(r"\bquick ratio\b|\bacid[- ]test\b",
       definition="(cash and cash equivalents + accounts receivable) / total current liabilities",
       variant="(total current assets - inventories) / total current liabilities",
       search="cash and cash equivalents; accounts receivable; total current liabilities", statements=(BALANCE,),
       reason="the quick ratio (acid test) sets the assets that turn into cash at once, cash and receivables, "
              "against current liabilities; textbooks also take current assets less inventories"),
    _t(r"\bcash ratio\b|\bcash balance\b", search="cash and cash equivalents; total current liabilities",
       statements=(BALANCE,), reason="the cash ratio uses cash and current liabilities"),
    _t(r"\binventor(?:y|ies) turnover\b", definition="cost of sales / average inventories",
       search="inventories; cost of sales", statements=(BALANCE, INCOME),
       reason="inventory turnover is how many times the average inventory was sold: cost of sales over the mean "
              "of opening and closing inventories"),
    _t(rf"\bfixed[- ]asset turnover\b|(?:{PP_AND_E}|\bproperty,? plant,? and equipment) turnover\b",
       definition="revenue / average property, plant and equipment, net",
       search="property, plant and equipment, net; net sales", statements=(BALANCE, INCOME),
       reason="fixed asset turnover is sales per unit of average net fixed assets (not of all assets)"),
    _t(r"(?<!fixed )(?<!fixed-)\b(?:total )?asset turnover\b", definition="revenue / average total assets", search="total assets; net sales",
       statements=(BALANCE, INCOME), reason="asset turnover is sales per unit of average assets"),
    _t(r"\breceivables? turnover\b", definition="revenue / average accounts receivable",
       search="accounts receivable, net; net sales", statements=(BALANCE, INCOME),
       reason="receivables turnover is sales over the mean of opening and closing receivables"),
    _t(r"\bdays (?:inventory|sales of inventory)(?: outstanding)?\b|\bdio\b",
       definition="365 * average inventories / cost of sales", search="inventories; cost of sales",
       statements=(BALANCE, INCOME), reason="days of inventory: the average inventory in days of cost of sales"),
    _t(r"\bdpo\b|\bdays payables?(?: outstanding)?\b", definition="365 * average accounts payable / cost of sales",
       search="accounts payable; cost of sales", statements=(BALANCE, INCOME),
       reason="days payable outstanding: the average payables in days of cost of sales"),
    _t(r"\bpayables? turnover\b", definition="cost of sales / average accounts payable",
       search="accounts payable; cost of sales", statements=(BALANCE, INCOME),
       reason="payables turnover is cost of sales over the mean of opening and closing payables"),
    _t(r"\bdso\b|\bdays sales outstanding\b", definition="365 * average accounts receivable / revenue",
       search="accounts receivable, net; net sales", statements=(BALANCE, INCOME),
       reason="days sales outstanding: the average receivables in days of sales"),
    _t(r"\b(?:dividend )?payout ratio\b", definition="dividends paid / net income",
       search="dividends paid; net income", statements=(CASH_FLOW, INCOME),
       reason="the payout ratio is the share of net income paid out as dividends"),
    _t(r"\boperating cash flow ratio\b", definition="operating cash flow / total current liabilities",
       search="cash provided by operating activities; total current liabilities", statements=(CASH_FLOW, BALANCE),
       reason="the operating cash flow ratio compares a year's operating cash with the liabilities due within it"),
    _t(r"\bcash conversion cycle\b", search="inventories; accounts receivable; accounts payable; cost of sales",
       statements=(BALANCE, INCOME), reason="the cycle combines inventory, receivable and payable days"),
    _t(r"\b(?:long[- ]term )?debt\b|\bleverage\b|\bcapitali[sz]ation ratio\b",
       search="long-term debt; total liabilities; total stockholders equity", statements=(BALANCE,),
       reason="leverage ratios use debt, liabilities and equity"),
    # sections a question names by a topic
    _t(r"\brestructuring\b", search="restructuring charges; restructuring and other", statements=(INCOME,),
       reason="restructuring is an income-statement charge"),
    _t(r"\bsegments?\b", search="segment information; reportable segments; operating segments",
       reason="filings report segments in a segment note"),
    _t(r"\bgeograph(?:y|ies|ic)\b|\bregions?\b", search="geographic areas; united states; international",
       reason="filings report revenue by geographic area"),
    _t(r"\bheadcount\b|\bemployees\b|\bworkforce\b|\bstaff\b", search="employees; employed people; full-time equivalents",
       reason="filings state the number of employees as people employed, often in full-time equivalents"),
    _t(r"\bhead\s?counts?\b", names="employees; full-time equivalents; people employed",
       reason="a headcount is the number of people employed: filings print it as employees or full-time equivalents"),
    _t(r"\blegal (?:proceedings?|actions?|matters?)\b|\blawsuits?\b|\blitigation\b",
       search="legal proceedings; litigation; contingencies", reason="filings report lawsuits under legal proceedings"),
)  # fmt: skip
"""General accounting and reporting vocabulary: what filings call a question's term, and how it is computed."""


def split_words(words: str) -> tuple[str, ...]:
    """The ``;``-separated phrases of a ``names`` or ``search`` field."""
    return tuple(w.strip() for w in words.split(";") if w.strip())


SEARCH_NAMES = 2
"""How many of a term's names (its commonest first) a search adds: more would outweigh the question's own words."""


def search_words(term: ReportingTerm) -> tuple[str, ...]:
    """The document phrases a search for ``term`` adds: its commonest names, then its further search words."""
    return tuple(dict.fromkeys([*split_words(term.names)[:SEARCH_NAMES], *split_words(term.search)]))
