"""What kind of table a figure is printed in, read from its caption, header and section.

A filing prints the same line item in several tables: the consolidated statements (the company's
audited figures), a segment's summary, the summarized financial information of a guarantor or obligor
group (a subset of the legal entities), a quarterly summary, and a management-discussion table of each
line as a share of revenue. Only the consolidated statements answer for the company's year; the
others answer only when the question names them. Pure: every rule reads text the caller passes.
"""

from __future__ import annotations

import re
from typing import Protocol

from engine.documents.text import stems
from engine.reading.answer_type import asks_difference
from engine.reading.entities import named_words
from engine.reading.line_items import names_balance
from engine.reading.periods import YEAR


class Cell(Protocol):
    """What these rules read of a value (``table_values.Cell``, which imports this module)."""

    @property
    def is_row(self) -> bool: ...
    @property
    def label(self) -> str: ...
    @property
    def column(self) -> str: ...
    @property
    def context(self) -> str: ...
    @property
    def unit(self) -> str: ...
    @property
    def position(self) -> int: ...


SUMMARY_KINDS: tuple[tuple[str, re.Pattern[str], re.Pattern[str], str], ...] = (
    # (kind, how a table's caption or section names it, how a question asks for it, why)
    ("guarantor",
     re.compile(r"\b(?:non-?)?guarantors?\b|\bobligor group\b|\bparent company only\b|\bcondensed consolidating\b|"
                r"\bissuer and guarantor\b|\bsummarized financial information\b|\bcross guarantee\b|\bclosed group\b",
                re.I),
     re.compile(r"\bguarant|\bobligor|\bparent company\b|\bconsolidating\b|\bissuer\b", re.I),
     "debt notes print the figures of the entities that guarantee them (and a deed of cross guarantee those of its "
     "closed group): a subset of the company"),
    ("investee",
     re.compile(r"\bjoint ventures?\b|\bequity[- ]method investees?\b|\bunconsolidated (?:affiliates|subsidiaries|"
                r"businesses|entities|joint ventures?)\b|\bcombined financial information\b|\b100 percent basis\b|"
                r"\bVIEs?\b|\bvariable interest entit(?:y|ies)\b", re.I),
     re.compile(r"\bjoint ventures?\b|\binvestees?\b|\baffiliates?\b|\bunconsolidated\b|\bVIEs?\b|\bvariable "
                r"interest\b", re.I),
     "a note on joint ventures, equity-method investees or variable interest entities prints their own figures "
     "(often on a 100 percent basis): other entities', or a subset of the filer's, not the filer's"),
    ("quarterly",
     re.compile(r"\b(?:unaudited\s+)?quarterly\s+(?:financial\s+)?(?:data|results|information|financial)\b|"
                r"\bselected quarterly\b|\bquarterly (?:operating )?results\b", re.I),
     re.compile(r"\bquarter|\bQ[1-4]\b|\bthree months\b|\b13 weeks\b", re.I),
     "a quarterly summary prints one quarter per column: none of them is the year"),
    ("segment",
     re.compile(r"\b(?:business|operating|reportable)\s+segments?\b|\bsegment\s+(?:information|results|data|"
                r"performance|summary|operating)\b|\bby segment\b|(?-i:(?:^|\s)(?:[A-Z][\w&\-]*\s+){1,4}Segments?\b(?!\s+[a-z]))",
                re.I),
     re.compile(r"\bsegments?\b|\bdivisions?\b|\bbusiness (?:unit|group)s?\b", re.I),
     "a segment table prints each business's own figures: one segment's row is not the company's"),
)  # fmt: skip
"""Tables that print a part of the company (or of its year) under the names of its line items."""


def summary_kind(context: str) -> str:
    """The kind of partial table ``context`` (a cell's caption, title and section) names, else ""."""
    for kind, names, _, _ in SUMMARY_KINDS:
        if names.search(context):
            return kind
    return ""


def names_quarter(text: str) -> bool:
    """Whether ``text`` names a quarter ("fourth-quarter results", "Q4", "three months ended", "13 weeks")."""
    return asks_for_summary(text, "quarterly")


def asks_for_summary(question: str, kind: str) -> bool:
    """Whether ``question`` asks for the figures of a partial table of ``kind`` ("the guarantor group's
    net sales", "fourth-quarter revenue", "the segment's operating income")."""
    return any(k == kind and asked.search(question) for k, _, asked, _ in SUMMARY_KINDS)


_CONSOLIDATED_TITLE = re.compile(
    r"(?:consolidated)?statements?of(?:consolidated)?(?:operations|income|earnings|cashflows?|financialposition|"
    r"comprehensive(?:income|loss))|balancesheets?"
)
"""A primary statement's title with its spaces squeezed out: PDF text often splits a word ("Statement of
Incom e"), which no spaced pattern reads."""


def in_primary_statement(context: str) -> bool:
    """Whether ``context`` names a primary financial statement (the consolidated figures), however the PDF
    spaced its title, and no partial table of it (a guarantor group's "Statement of Income")."""
    squeezed = re.sub(r"[\s\-]+", "", context.lower())
    return bool(_CONSOLIDATED_TITLE.search(squeezed)) and not summary_kind(context)


PERCENT_TABLE = re.compile(
    r"\b(?:percent(?:age)?s?|%)\s+of\s+(?:net\s+|total\s+)?(?:sales|revenues?|total)\b|\bas\s+a\s+percent(?:age)?\b|"
    r"^\(?\s*percent(?:age)?\s*\)?$|^\(?\s*in\s+percent(?:age)?s?\s*\)?$|^%\s+of\s",
    re.I,
)
"""A table (or column) of shares, not amounts: "(Percent of net sales)", "% of revenue", "as a percentage of
sales", a survey's "% of riders who …". Its figures print without a % sign, so only its caption tells they are
percentages."""

PERCENT_COLUMN = re.compile(r"^\s*%|\bpercent(?:age)?\b|%\s*(?:change|chg)\b|\bchange\s*%", re.I)
"""A column of shares or changes ("% Change", "Percent change", "% of sales"): its figures are percentages."""


def percent_caption(text: str) -> bool:
    """Whether a table's caption or first header cell says its figures are percentages."""
    return bool(PERCENT_TABLE.search(text.strip()))


def percent_column(header: str) -> bool:
    """Whether a column header says its figures are percentages (a year column never does)."""
    return bool(PERCENT_COLUMN.search(header)) and not re.fullmatch(rf"\s*\(?{YEAR}\)?\s*", header)


QUALIFIER_ENTRIES: tuple[tuple[str, str], ...] = (
    ("other", "'Other income (loss), net' is what is left after the named items, not the net income"),
    ("comprehensive", "comprehensive income adds unrealized gains to net income: another total"),
    ("noncontrolling non-controlling minority", "the share of net income that belongs to minority owners"),
    ("discontinued", "the results of operations sold or to be sold, not the continuing business"),
    (
        "continuing",
        "'Income from continuing operations' is after interest and (often) taxes, not the operating "
        "income; and before the discontinued operations, not the net income",
    ),
    ("deferred accrued prepaid", "a balance-sheet timing item ('Deferred revenue'), not the flow it defers"),
    ("accumulated", "a running total ('Accumulated depreciation'), not one year's amount"),
    ("unrealized", "a change in value not yet realized"),
    ("before excluding", "a subtotal before an item ('Income before income taxes'), not the line item itself"),
)
"""Words that make a row label another quantity than the line item it contains."""

QUALIFIERS = frozenset(word for forms, _ in QUALIFIER_ENTRIES for word in forms.split())


OBJECT = re.compile(r",?\s+(?:net\s+)?of\s+.*$", re.I)
"""A row label's trailing object ("Depreciation and amortization of property", "Interest expense, net of amounts
capitalized"): what a line item is *of* does not make it another item."""

SEGMENT = re.compile(r"\b([A-Z][\w&\-]*(?:\s+[A-Z][\w&\-]*)*)\s+[Ss]egment\b")
"""A table or section of one business segment ("International Segment Performance Summary")."""


def segment_head(m: re.Match[str]) -> str:
    """The word that names a segment, right before "Segment" ("Businesses" of "Regulated Businesses Segment"):
    the capitalised words before it may be a section's title ("Financial Results Operating Revenues ..."), whose
    words a question shares without naming the segment."""
    return m.group(1).split()[-1]


_ASKS_WHICH = re.compile(r"(?:which|what)\b", re.I)


def outside_asked_segment(cell: Cell, question: str) -> str:
    """The segment a question names ("the Business segment's revenues") when the cell is read outside it (its
    label, column and section never name it), else "": the company's total, or another segment's figure, is not
    the segment's."""
    for m in SEGMENT.finditer(question):
        name = stems(m.group(1))
        if _ASKS_WHICH.match(m.group(1)):
            continue  # "Which Acme segment ...?" names no segment: it asks which one
        if name and not name <= stems(f"{cell.label} {cell.column} {cell.context}"):
            return m.group(1)
    return ""


_PART_KINDS = ("guarantor", "investee", "segment")
"""Partial tables a question may ask for by their kind; a quarter is not among them (a 10-Q's own statements
print the quarter asked)."""


def outside_asked_part(cell: Cell, question: str) -> str:
    """The kind of partial table a question asks for ("the joint ventures' net sales", "the guarantor group's
    net income") when the cell is read outside any table of that kind, else "": the consolidated figure is not
    the part's."""
    if not cell.is_row:
        return ""
    kind = summary_kind(f"{cell.context} {cell.column}")
    return next((k for k in _PART_KINDS if asks_for_summary(question, k) and kind != k), "")


def unasked_summary(cell: Cell, question: str) -> bool:
    """A row of a partial table (a guarantor group's, a segment's, a quarter's) that the question does not ask
    for: the consolidated statement's row answers for the company's year."""
    where = f"{cell.context} {cell.column}"
    kind = summary_kind(where) if cell.is_row else ""
    if kind == "segment":  # a question may name the segment itself ("the International comparable sales")
        asked = stems(question)
        if any(stems(segment_head(m)) & asked for m in SEGMENT.finditer(where)):
            return False
        names = stems(" ".join(named_words(question)))
        if names and names <= stems(cell.context):
            return False  # or by the heading its section has under the segment results ("Harbour & Island Ferries")
    return bool(kind) and not asks_for_summary(question, kind)


_SHARE_ASKED = re.compile(
    r"%|\bpercent|\bshare of\b|\bproportion|\bportion\b|\bmargins?\b|\brates?\b|\bratios?\b|\bgr[eo]w|"
    r"\bchange[sd]?\b|\bincrease[sd]?\b|\bdecrease[sd]?\b|\bdecline[sd]?\b|\byields?\b|\breturns? on\b|\bmix\b",
    re.I,
)
"""A question that asks for a share, a rate or a change: only such a question is answered by a percentage (a
table of each line as a percent of sales never answers "what were the R&D expenses")."""
_RATIO_MEASURE = re.compile(
    r"\b(?:accuracy|accuracies|precision|recall|f1|probability|probabilities|likelihood|chance|efficiency"
    r"|utili[sz]ation|occupancy|coverage|turnout|prevalence|penetration|adoption|approval|satisfaction"
    r"|availability|durability|uptime|humidity|scores?)\b",
    re.I,
)
"""Measures that are ratios by definition and that documents print as percentages ("an accuracy of 70.4%", "a
precision of 91%", "occupancy of 83%"; a service's availability and durability are shares of time up and of data
kept, "99.9%"; relative humidity is a share of saturation; a score is a measure's result, no money): a question
asking for one asks for a percentage."""


_SHARE_OF_ASKED = re.compile(
    r"\b(?:what|which)\s+(?:share|percentage|percent|proportion|portion|fraction)\s+of\b"
    r"|\bas an?\s+(?:share|percentage|proportion)\s+of\b",
    re.I,
)
"""A question asking what part of a whole something is ("What share of sales came from the Harbour unit?")."""


def amount_for_share(cell: Cell, question: str) -> bool:
    """An amount read for a share of a whole: a part's "$7,620 million" is not its "37% of sales"."""
    return cell.unit not in ("", "%") and bool(_SHARE_OF_ASKED.search(question))


def percent_unasked(cell: Cell, question: str) -> bool:
    """A percentage read for a question that asks for no share, rate or change, or for an amount in a currency
    ("the gross margin in dollars")."""
    unasked = not _SHARE_ASKED.search(question) and not _RATIO_MEASURE.search(question)
    return cell.unit == "%" and (unasked or bool(IN_CURRENCY.search(question)))


IN_CURRENCY = re.compile(r"\bin (?:us )?(?:dollars|usd|\$)(?!\w)|\bdollar (?:amount|terms)\b", re.I)
"""An amount asked in a currency ("the gross margin in dollars"): a percentage is not it, whatever the item's name."""


def without_currency(text: str) -> str:
    """``text`` without an unbracketed "in dollars" ("rose in dollars from 2040": how to state the change, not what
    changed); a bracketed one ("gross margin (in dollars)") stays: it says which figure of a margin is asked."""
    return _UNBRACKETED_CURRENCY.sub(" ", text)


_UNBRACKETED_CURRENCY = re.compile(rf"(?<!\()(?:{IN_CURRENCY.pattern})(?!\))", re.I)


_PER_SHARE = r"\bper (?:common |ordinary |diluted |basic )?(?:share|unit)\b|\beps\b"
_PER_SHARE_ASKED = re.compile(rf"{_PER_SHARE}|\bdividends? per\b", re.I)
_PER_SHARE_ROW = re.compile(rf"{_PER_SHARE}|\bper (?:basic|diluted)\b", re.I)
"""Asked for, or a row of, amounts per share or per unit ("earnings per ordinary share", "Diluted EPS")."""


def unasked_per_share(cell: Cell, question: str) -> bool:
    """A per-share row ("Net earnings per share - diluted") for a question that asks no per-share figure:
    a per-share amount is never the total it divides."""
    return cell.is_row and bool(_PER_SHARE_ROW.search(cell.label)) and not _PER_SHARE_ASKED.search(question)


def total_for_per_share(cell: Cell, question: str) -> bool:
    """A total's row ("Net earnings") for a question that asks a per-share figure: the amount per share is the
    total divided by the shares, a different figure (the reverse of ``unasked_per_share``)."""
    where = f"{cell.label} {cell.column}"
    return cell.is_row and bool(_PER_SHARE_ASKED.search(question)) and not _PER_SHARE_ROW.search(where)


def qualified(cell: Cell, question: str) -> bool:
    """Whether a row label (its trailing object left out) holds a word that makes it another quantity than the
    line item it contains ("Other income (loss), net", "Comprehensive income"), one the question does not use
    (``QUALIFIERS``; read as words: "other" is a stop word to the stemmer)."""
    if not cell.is_row:
        return False
    words = set(re.findall(r"[a-z][a-z\-]*", OBJECT.sub("", cell.label).lower()))
    asked = set(re.findall(r"[a-z][a-z\-]*", question.lower()))
    return bool((words & QUALIFIERS) - asked)


IN_NOTES = re.compile(r"\bnotes to (?:the )?(?:condensed )?(?:consolidated )?financial statements\b", re.I)
"""A table in the notes (hedges, leases, segments): it restates or splits line items the primary statements
print whole, so the statement's row leads when both name the item."""


def in_notes(cell: Cell, question: str) -> bool:
    """A row read in the notes to the financial statements, for a question that names no note."""
    return cell.is_row and bool(IN_NOTES.search(cell.context)) and not re.search(r"\bnotes?\b", question, re.I)


_HEAD_END = re.compile(
    r"\s*(?:\(|,|:|\s[-–—]\s|\b(?:of|attributable|related|relating|provided|used|from|before|after|for|to|in|on|by|"
    r"per|declared|excluding|including|less|net of)\b)",
    re.I,
)
"""Where a row label's head noun phrase ends: at its parentheses, its comma, or the first word that starts what it
is of, for or from ("Cost | of sales", "Net income | attributable to 3M", "Net cash | provided by operating
activities", "Income tax benefits | (Note 7)")."""


def head_noun(label: str) -> str:
    """The head noun of a row label: the last word of its leading noun phrase ("Cost of sales" -> "Cost", "Income
    tax benefits" -> "benefits", "Net cash provided by operating activities" -> "cash"), else ""."""
    lead = _HEAD_END.split(label.strip(), maxsplit=1)[0]
    words = re.findall(r"[A-Za-z][A-Za-z\-]*", lead)
    return words[-1] if words else ""


def head_unasked(cell: Cell, asked: set[str]) -> bool:
    """A row whose head noun is no word of the question nor of a filing's names for its item (``asked``, stems):
    the row measures another thing that merely shares words with the item ("Income tax benefits" for the income
    tax expense, "Cost of sales" for the net sales)."""
    if not cell.is_row:
        return False
    head = stems(head_noun(cell.label))
    return bool(head) and not head & asked


_CASH_FLOW_TITLE = re.compile(r"cashflows?")
"""A cash-flow statement's title, or a discussion's cash-flow section ("Cash Flows from Operating Activities"),
its spaces squeezed out."""


def balance_change(cell: Cell, question: str) -> bool:
    """A balance-sheet item (inventories, receivables, payables) read in a table of cash flows, for a question
    that asks for no change: the cash-flow statement prints the item's change over the year ("Accounts
    receivable | (305)" under changes in working capital), never the balance the company holds."""
    if not cell.is_row or not names_balance(question) or _CHANGE_ASKED.search(question):
        return False
    return bool(_CASH_FLOW_TITLE.search(re.sub(r"[\s\-]+", "", cell.context.lower())))


_CHANGE_ASKED = re.compile(r"\bchange[sd]?\b|\bincrease[sd]?\b|\bdecrease[sd]?\b|\bcash flows?\b", re.I)
_BY = re.compile(
    r"\b(?:increased?|decreased?|rose|risen|fell|fallen|grew|grown|declined?|improved?|dropped|(?:was |were )?(?:up|down)"
    r"|higher|lower|more|less)(?:\s+by)?(?:\s+(?:approximately|about|nearly))?\s*$",
    re.I,
)
_CHANGE_OF = re.compile(
    r"\b(?:increase|decrease|decline|growth|change|rise|drop|improvement)\s+in\b[^$\d]{0,200}?\bof"
    r"(?:\s+(?:approximately|about|nearly))?\s*$",
    re.I,
)
"""The noun form: "The increase in income from continuing operations ... of $17.3 billion"."""
CHANGE_CLAUSE = re.compile(
    r"\b(?:improves|increases|decreases|raises|lowers|reduces|boosts|cuts|grows|rises|falls|declines|drops|gains|"
    r"outperforms?|surpass(?:es)?|improved|increased|decreased|raised|lowered|reduced|boosted|outperformed|surpassed)"
    r"\b[^.;]{0,150}?(?::[^.;:]*|\bby(?:\s+(?:approximately|about|nearly))?\s*)$",
    re.I,
)
"""A number after a colon or "by" in a clause whose verb states a change ("improves it: 7% on A"): an amount moved."""


def stated_change(cell: Cell, question: str) -> bool:
    """A number a sentence states as a change ("diluted EPS increased by $0.18", "sales were up 4%"), for a
    question that asks for no change: the amount moved is not the amount reported. A question that asks by how
    much one thing exceeds another asks for exactly such a number."""
    if cell.is_row or cell.position < 0 or _CHANGE_ASKED.search(question) or _SHARE_ASKED.search(question):
        return False
    if asks_difference(question):
        return False
    before = cell.label[: cell.position]
    return bool(_BY.search(before) or _CHANGE_OF.search(before) or CHANGE_CLAUSE.search(before[-200:]))


def doubts(cell: Cell, question: str, asked: set[str]) -> tuple[str, ...]:
    """Why the row read may not be the figure asked, each reason a short phrase (empty: no doubt). ``asked``:
    the stems of the question and of the filing's names for its line item."""
    kind = summary_kind(f"{cell.context} {cell.column}") if unasked_summary(cell, question) else ""
    reasons = [f"it is read from a {kind} table, not the consolidated statements"] if kind else []
    if segment := outside_asked_segment(cell, question):
        reasons.append(f"it is not read in the {segment} segment's figures")
    elif part := outside_asked_part(cell, question):
        reasons.append(f"it is not read in a {part} table, which the question asks for")
    if percent_unasked(cell, question):
        reasons.append("it is a percentage, not an amount")
    if unasked_per_share(cell, question):
        reasons.append("it is a per-share figure, not a total")
    if total_for_per_share(cell, question):
        reasons.append("it is a total, not a per-share figure")
    if balance_change(cell, question):
        reasons.append("it is the year's change printed among the cash flows, not the balance")
    if stated_change(cell, question):
        reasons.append("the sentence states it as a change, not the amount reported")
    if qualified(cell, question):
        reasons.append("its label names another quantity than the item asked")
    elif head_unasked(cell, asked):
        reasons.append(f"its label names {head_noun(cell.label).lower()}, not the item asked")
    return tuple(reasons)
