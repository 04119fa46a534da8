"""Arithmetic a value question asks for, read from its own words, and computed from cited values.

A question may define its metric ("Let the quick ratio be cash plus receivables divided by current liabilities",
"take owner earnings as: (net income + depreciation - capex)"), ask for an expression of line items ("operating
income less interest", "capex as a % of revenue"), or for a change between two periods ("the growth in net sales
from FY2016 to FY2017"). ``parse_formula`` turns that into an expression tree whose leaves are metric phrases (a
phrase the question defines is replaced by its definition); ``formula_values.evaluate`` computes it with a lookup
the caller provides (the value brick over the evidence), keeping every input for the working. Pure: no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from engine.documents.text import stems
from engine.reading.answer_type import asks_quotient
from engine.reading.changes import PERIOD as _PERIOD
from engine.reading.changes import asked_change
from engine.reading.periods import Period, periods_in
from engine.reading.statement_sense import IN_CURRENCY, without_currency

_RANGE = re.compile(rf"({_PERIOD})\s*[-–—]\s*({_PERIOD})", re.I)
_DEFINE = re.compile(
    r"(?:\bdefine\s+(?:the\s+)?(?P<n1>[^.?;:]{2,60}?)\s+as\b\s*:?\s*"
    r"|(?P<n2>\b[A-Za-z][\w&()' -]{1,60}?)\s+(?:here\s+)?(?:is|are)\s+(?:defined|calculated|computed)\s+as\b\s*:?\s*"
    r"|\bcalculate\s+(?:the\s+)?(?P<n3>[^.?;:]{2,60}?)\s+as\b\s*:?\s*"
    r"|\bdefined\s+as\b\s*:?\s*)"
    r"(?P<expr>[^?;]+?)(?=\.\s|\.$|\?|;|$)",
    re.I,
)
_ASKED = re.compile(
    r"\b(?:what (?:is|was|were|are)|what's|calculate|compute|how much (?:is|was))\s+(?:the\s+)?(?P<rest>[^?]+)", re.I
)
_TERSE = re.compile(
    r"^(?!(?:did|does|do|is|was|were|are|has|have|had|can|could|will|would|should|"
    r"list|name|give|show|describe|explain|compare)\b)(?!.*\b(?:what|which|how|who|why|when|where)\b)"
    r"(?P<rest>[^?:+*/×]{3,80})\??\s*$",
    re.I,
)
"""A terse ask that is its metric or expression ("Acme FY2031 operating margin?", "Acme's R&D expense as a share of
revenue in 2031?"), without "what was": short, and with no question word, colon or operator sign anywhere (a question
opening with a verb asks something else of it, a request to list, give or compare reads no metric as a whole, and a
"+" in a name, "Kestrel + Heron", is no sum)."""
_TOKEN = re.compile(
    r"\s*(?:(?P<open>\()|(?P<close>\))"
    r"|(?P<op>\bas an? (?:%|percent(?:age)?|share|proportion|fraction) of\b|\+|-(?=\s)|\*|/|×|\bdivided by\b|\btimes\b|\bplus\b|\bminus\b|\bless\b)"
    r"|(?P<num>\d+(?:\.\d+)?)(?=\s*(?:[()+*/×]|\s-\s|$))"
    r"|(?P<word>[^()+*/×]+?)(?=\s*(?:[()+*/×]|\s-\s|\bas an? (?:%|percent(?:age)?|share|proportion|fraction) of\b|\bdivided by\b|\btimes\b"
    r"|\bplus\b|\bminus\b|\bless\b|$)))",
    re.I,
)
_OPERATOR = {"+": "+", "plus": "+", "-": "-", "minus": "-", "less": "-", "*": "*", "×": "*", "times": "*",
             "/": "/", "divided by": "/"}  # fmt: skip
_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2, "pct_of": 2}
_AVERAGE_SPAN = re.compile(
    r"^(?:the\s+)?average\s+(?:of\s+)?(?P<rest>.+?)\s+(?:between|from|for|in|over|across|during)\s+(?:the\s+)?"
    r"(?:(?:fiscal\s+)?years?\s+)?(?P<span>.+)$",
    re.I,
)
"""The mean of an item over the periods named after it ("the average dock fees for 2030 and 2031")."""
_CHANGE_SPAN = re.compile(r"^(?:the\s+)?change\s+in\s+(?P<rest>.+?)\s+(?:between|from)\s+(?P<span>.+)$", re.I)
_AVERAGE_BALANCE = re.compile(r"^(?:the\s+)?average\s+(?:of\s+)?(?P<rest>.+)$", re.I)
"""An average balance with no span of its own ("average total assets"): the mean of the balance at the start
and at the end of the year asked, i.e. the year-ends of the year before and of the year itself."""
_YEARS_AVERAGE = re.compile(r"\b(?:\d+|two|three|four|five)[- ]year average of\s+", re.I)
_ASIDE = re.compile(r"\((?![^()]*(?:[+*/×]|\s-\s|\bdivided by\b|\bless\b|\bminus\b|\bplus\b))[^()]*\)")
"""A parenthesis without an operator: an aside ("(DPO)", "(in USD millions)") when it follows a word."""
_NOISE = re.compile(
    r"\[[^\]]*\]|"
    r"\b(?:from|in|on|using) the [\w\s&]+?statements?\b|\bin (?:USD|US\$|\$)?\s*(?:thousands|millions|billions)\b|"
    r"\b(?:for|of) [A-Z][\w&.'-]*(?:\s+[A-Z][\w&.'-]*)*\s*$",
)


@dataclass(frozen=True)
class Operand:
    """A metric phrase, read for the periods it names (else the evaluation's period)."""

    phrase: str
    periods: tuple[Period, ...] = ()
    mode: str = "value"
    """"value": one period; "average": mean over its periods; "change": last minus first; "average_year": mean
    of the year-end balances that open and close the period asked."""


@dataclass(frozen=True)
class Node:
    """An operator over two nodes, an average of a node over periods (``avg``), a node read for one period (``at``),
    a number, or an operand."""

    op: str = ""
    left: Node | None = None
    right: Node | None = None
    number: float | None = None
    operand: Operand | None = None
    periods: tuple[Period, ...] = ()


# --------------------------------------------------------------------------------------------
# Parsing
# --------------------------------------------------------------------------------------------


def _drop_asides(text: str) -> str:
    """Remove parenthetical asides that follow a word; keep a parenthesis that is an operand."""
    out, last = [], 0
    for m in _ASIDE.finditer(text):
        before = text[: m.start()].rstrip()
        if before and (before[-1].isalnum() or before[-1] in "'’%"):
            out.append(text[last : m.start()])
            last = m.end()
    out.append(text[last:])
    return "".join(out)


def _clean(phrase: str) -> str:
    phrase = _NOISE.sub(" ", _drop_asides(phrase))
    # the owner's name ("Costco's total assets", "Analog Devices' gross margin")
    phrase = re.sub(r"^(?:[A-Z][\w&.-]*\s+)*(?:[A-Z][\w&.-]*['’]s|[A-Z][\w&.-]*s['’])\s+", "", phrase.strip())
    return " ".join(phrase.split()).strip(" ,:-")


def _operand(phrase: str) -> Operand | None:
    phrase = _clean(phrase)
    for pattern, mode in ((_AVERAGE_SPAN, "average"), (_CHANGE_SPAN, "change")):
        m = pattern.match(phrase)
        if m and periods_in(m.group("span")):
            return Operand(_clean(m.group("rest")), periods_in(m.group("span")), mode)
    balance = _AVERAGE_BALANCE.match(phrase)
    if balance and not periods_in(phrase):
        return Operand(_clean(balance.group("rest")), (), "average_year")
    own = periods_in(phrase)
    text = " ".join(re.sub(rf"\b{_PERIOD}\b", " ", phrase, flags=re.I).split()).strip(" ,:-")
    text = re.sub(r"^(?:the|total of)\s+", "", text, flags=re.I)
    text = re.sub(r"\s+(?:in|for|during|at|as of)$", "", text, flags=re.I)  # its period's preposition, left dangling
    return Operand(text, own[:1]) if re.search(r"[A-Za-z]{2}", text) else None


def _tokens(expr: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for m in _TOKEN.finditer(expr):
        kind = m.lastgroup or ""
        text = m.group(kind).strip() if kind else ""
        if not text:
            continue
        if kind == "op":
            low = text.lower()
            out.append((kind, "pct_of" if low.startswith("as a") else _OPERATOR[low]))
        else:
            out.append((kind, text))
    return out


def _parse(expr: str, definitions: dict[str, Node]) -> Node | None:
    """Shunting-yard over the tokens of ``expr``; None when they do not form an expression."""
    output: list[Node] = []
    stack: list[str] = []

    def reduce() -> bool:
        op = stack.pop()
        if len(output) < 2:
            return False
        right, left = output.pop(), output.pop()
        output.append(Node(op=op, left=left, right=right))
        return True

    for kind, text in _tokens(expr):
        if kind == "num":
            output.append(Node(number=float(text)))
        elif kind == "word":
            leaf = _leaf(text, definitions)
            if leaf is None:
                return None
            output.append(leaf)
        elif kind == "op":
            while stack and stack[-1] != "(" and _PRECEDENCE[stack[-1]] >= _PRECEDENCE[text]:
                if not reduce():
                    return None
            stack.append(text)
        elif kind == "open":
            stack.append("(")
        else:
            while stack and stack[-1] != "(":
                if not reduce():
                    return None
            if not stack:
                return None
            stack.pop()
    while stack:
        if stack[-1] == "(" or not reduce():
            return None
    return output[0] if len(output) == 1 else None


def _leaf(text: str, definitions: dict[str, Node]) -> Node | None:
    """An operand, or the definition the question gave for it ("unadjusted EBITDA")."""
    operand = _operand(text)
    if operand is None:
        return None
    words = stems(operand.phrase)
    for name, tree in definitions.items():
        if words and words == stems(name):
            return tree
    return Node(operand=operand)


def _definitions(text: str) -> dict[str, Node]:
    found: dict[str, Node] = {}
    for m in _DEFINE.finditer(text):
        name = _clean(m.group("n1") or m.group("n2") or m.group("n3") or "")
        tree = _parse(_clean_expression(m.group("expr")), found)
        if tree is not None and (tree.op or tree.operand):
            found[name] = tree
    return found


def _clean_expression(expr: str) -> str:
    return _NOISE.sub(" ", _drop_asides(expr)).strip(" .:")


def parse_formula(question: str, standard: Callable[[str], str | None] | None = None) -> Node | None:
    """The arithmetic ``question`` asks for, else None (see the module docstring).

    ``standard`` gives the textbook definition of a metric the question names without defining it
    ("EBITDA", "free cash flow"); a definition the question states always wins."""
    text = _RANGE.sub(r"\1 to \2", " ".join(question.split()))
    for share in (_SPENT_SHARE, _SOURCE_SHARE, _PART_SHARE):  # a part of a whole, asked the other way round
        text = share.sub(r"what is \g<part> as a share of \g<whole>", text, count=1)
    definitions = _definitions(text)
    asked = _ASKED.search(text) or _TERSE.match(text)
    quotient = asks_quotient(text)
    main = _asked_expression(asked.group("rest"), definitions, quotient) if asked else None
    if main is not None:
        return main
    margin = _margin(asked.group("rest"), definitions) if asked and definitions else None
    if margin is not None:
        return margin
    named = [tree for name, tree in definitions.items() if name and asked and stems(name) <= stems(asked.group("rest"))]
    if named:
        return named[0]
    ratio = _RATIO_PARTS.search(text)
    if ratio:  # "using A as the numerator and B as the denominator"
        tree = _parse(f"({_clean_expression(ratio.group('a'))}) / ({_clean_expression(ratio.group('b'))})", {})
        if tree is not None:
            return tree
    computed = [tree for tree in definitions.values() if tree.op]
    if len(computed) == 1:  # one definition and an ask that names it otherwise ("DPO" for "days payable")
        return computed[0]
    rest = without_currency(asked.group("rest") if asked else text)  # "rose in dollars": how to state it, not what
    growth = _growth(without_currency(text), rest, standard)
    basis = (_BASED_ON.search(text) or _HAS_METRIC.search(text)) if asked is None else None
    metric = asked.group("rest") if asked else basis.group("metric") if basis else None
    if growth is not None or standard is None or quotient or metric is None:
        return growth  # a ratio of two named terms is not the standard metric one of them names ("to EBITDA")
    definition = standard(metric)
    return _parse(_clean_expression(definition), {}) if definition else None


_SPENT_SHARE = re.compile(
    r"\bwhat (?:share|percentage|percent|proportion|fraction|portion) of (?P<whole>[^?]+?)"
    r"(?: (?:was|were|went)| did [A-Z][\w&.'-]*(?: [A-Z][\w&.'-]*)*)"
    r" (?:spen[dt]|use[d]?|allocated?|devoted?|invest(?:ed)?|paid|pay) (?:on|for|to|in|into) (?P<part>[^?]+)",
    re.I,
)
"""The part of a whole that went to something, asked the other way round ("What share of Acme's 2041 revenue was
spent on marketing?", "What percentage of its sales did Acme invest in research?"): the thing spent on as a share of
the whole."""


_SHARE_OF = r"\bwhat (?:share|percentage|percent|proportion|fraction|portion) of (?P<whole>[^?]+?)"
_SOURCE_SHARE = re.compile(
    _SHARE_OF + r" (?:came|come|comes|(?:was|were|is|are) (?:derived|generated|contributed|earned)) (?:from|by) "
    r"(?P<part>[^?]+)",
    re.I,
)
"""The part of a whole that came from a source ("What share of Acme's 2041 revenue came from ferry fares?", "was
generated by"): the source as a share of the whole. Not "were from" ("what share of respondents were from Ohio" asks
a survey's printed share, of people)."""
_PART_SHARE = re.compile(
    _SHARE_OF + r" (?:did|does|do) (?P<part>[^?]+?) (?:account for|represent|make up|contribute|comprise)\b", re.I
)
"""The same asked with the part as the subject ("What percentage of 2041 sales did ferry fares account for?")."""


_BASED_ON = re.compile(
    r"\b(?:based on|judging by|as measured by|in terms of)\s+(?:its|their|the)\s+(?P<metric>[^,;?.]{2,60})", re.I
)
"""A judgement asked of a metric ("Is the harbour's liquidity sound, based on its current ratio for 2031?"):
the metric is computed and stated, and the judgement left to the reader."""
_HAS_METRIC = re.compile(
    r"^\s*(?:does|do|did|is|was)\b[^?]*?\b(?:have|has|had|show|shows|maintain|maintains)\s+(?:an?\s+)?"
    r"(?P<metric>[^,;?]{2,60}?)(?=\s+(?:based on|in|for|as of|at|during)\b|\s*[?,;]|$)",
    re.I,
)
"""A yes/no question whether a company has some level of a metric ("Did the harbour show a negative working capital
for 2031?"): a metric with a textbook definition is computed and stated, the judgement left to the reader."""


_RATIO_PARTS = re.compile(
    r"\busing (?:the )?(?P<a>[^,;.?]{2,80}?) as (?:the )?numerator,? and (?:the )?(?P<b>[^,;.?]{2,80}?) as (?:the )?"
    r"denominator\b",
    re.I,
)

_SUM_OF = re.compile(
    r"^(?:the\s+)?(?:total|sum|combined total)\s+of\s+(?:the\s+)?(?P<a>[^,]+?)\s+and\s+(?:the\s+)?(?P<b>.+)$", re.I
)
"""'the total (sum) of A and B' asks for A + B ('total revenues and net income', without 'of', names two items)."""
_TERMS_TO = re.compile(r"[ -]to[ -]", re.I)
"""Between a ratio's two terms: "debt-to-equity", "Net Debt to Total Equity"."""

_MARGIN = re.compile(r"^(?P<x>.+?)\s+(?:%\s*)?margin\b", re.I)


def _margin(rest: str, definitions: dict[str, Node]) -> Node | None:
    """ "the FY2017 adjusted operating income % margin": a margin is the measure divided by revenue, in percent."""
    m = _MARGIN.match(re.split(r"(?<=[.?])\s", rest)[0])
    if not m:
        return None
    measure = _leaf(m.group("x"), definitions)
    if measure is None:
        return None
    return Node(op="pct_of", left=measure, right=Node(operand=Operand("revenue")))


def _asked_expression(rest: str, definitions: dict[str, Node], quotient: bool = False) -> Node | None:
    """The expression in the question's own ask ("the FY2017 operating income less interest"); a ratio
    named by its two terms ("Net Debt to Total Equity", "the capex to revenue ratio") divides them."""
    rest = _SUM_OF.sub(r"\g<a> + \g<b>", re.split(r"(?<=[.?])\s", rest)[0], count=1)
    average = _YEARS_AVERAGE.search(rest)
    span = periods_in(rest)
    if average:
        rest = re.sub(rf"\b{_PERIOD}\s+to\s+{_PERIOD}\b", " ", rest[average.end() :], flags=re.I)
    if quotient:
        rest = _TERMS_TO.sub(" divided by ", re.sub(r"^(?:the\s+)?ratio\s+of\s+|\s+ratio\b", " ", rest, flags=re.I), 1)
    tree = _parse(_clean_expression(rest), definitions)
    if tree is None or not (tree.op or average or _mean_over_periods(tree)):
        return None
    if average and len(span) >= 2:
        years = range(min(p.year for p in span), max(p.year for p in span) + 1)
        return Node(op="avg", left=tree, periods=tuple(Period(y) for y in years))
    return tree


def _mean_over_periods(tree: Node) -> bool:
    """A lone item averaged over the periods named after it ("the average dock fees for 2030 and 2031")."""
    operand = tree.operand
    return operand is not None and operand.mode == "average" and len(set(operand.periods)) >= 2


def _growth(text: str, asked: str, standard: Callable[[str], str | None] | None = None) -> Node | None:
    """A change between the two periods the question names: the later value less the earlier one, or relative to
    it when asked as a percentage or a rate (``changes.asked_change``). An item that is itself arithmetic ("wages
    as a % of sales", a margin by its textbook definition) is computed in each period, then compared."""
    change = asked_change(text, asked)
    subject = _clean(change.subject) if change else ""
    if change is None or not subject:
        return None
    aside = re.search(rf"{re.escape(change.subject)}\s*\(([^()]*)\)", text)
    in_currency = bool(aside and IN_CURRENCY.search(aside.group(1)))  # "gross margin (in dollars)": the amount printed,
    subject = f"{subject} in dollars" if in_currency else subject
    tree = None if in_currency else _subject_tree(subject, standard)  # not the margin's textbook percentage
    if tree is not None:
        later, earlier = (
            Node(op="at", left=tree, periods=(change.last,)),
            Node(op="at", left=tree, periods=(change.first,)),
        )
    else:
        later, earlier = Node(operand=Operand(subject, (change.last,))), Node(operand=Operand(subject, (change.first,)))
    return Node(op="%" if change.relative else "-", left=later, right=earlier)


def _subject_tree(subject: str, standard: Callable[[str], str | None] | None) -> Node | None:
    """The arithmetic of a changed item when it has some (its own words, else its textbook definition), else None."""
    own = _parse(_clean_expression(subject), {})
    if own is not None and own.op:
        return own
    definition = standard(subject) if standard else None
    shorter = subject.rsplit(maxsplit=1)[0] if " " in subject.strip() else ""
    if standard and definition and shorter and standard(shorter) == definition:
        return None  # a word after the metric's name makes another metric ("cash flow conversion", "ebitda per share")
    tree = _parse(_clean_expression(definition), {}) if definition else None
    return tree if tree is not None and tree.op else None


def operands(node: Node | None) -> list[str]:
    """The metric phrases a computation reads, in order, each once."""
    if node is None:
        return []
    if node.operand is not None:
        return [node.operand.phrase]
    return list(dict.fromkeys([*operands(node.left), *operands(node.right)]))


def question_period(question: str) -> Period | None:
    """The period the question's arithmetic is read for by default: the latest one it names."""
    periods = periods_in(_RANGE.sub(r"\1 to \2", question))
    return max(periods, key=lambda p: (p.year, p.quarter or 0)) if periods else None
