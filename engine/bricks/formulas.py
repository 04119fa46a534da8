"""Arithmetic a value question asks for, read from its own words, and computed from cited values.

A question may define its metric ("Define working capital ratio as total current assets divided by
total current liabilities", "FCF here is defined as: (cash from operations - capex)") or ask for a
change between two periods ("the FY2019 - FY2020 total revenue growth rate", "year-over-year change
in revenue from FY2016 to FY2017"). ``parse_formula`` turns that into an expression tree whose
leaves are metric phrases, each with the period it is read for; ``evaluate`` computes it with a
lookup the caller provides (the value brick over the evidence), keeping every input for the working.
Pure: no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from engine.bricks.values import Cell, Period, periods_in

_DEFINITION = re.compile(
    r"(?:\bis defined as|\bdefined as|\bdefine [^.?]{1,80}? as|\bcalculated? (?:it )?as|\bcomputed as|=)\s*:?\s*"
    r"(?P<expr>[^.?;]+(?:\.\d[^.?;]*)*)",
    re.I,
)
_INLINE_OPERATOR = re.compile(r"\s(?:\+|-|/|plus|minus|less|divided by)\s", re.I)
_TOKEN = re.compile(
    r"\s*(?:(?P<open>\()|(?P<close>\))|(?P<op>\+|-(?=\s)|\*|/|×|\bdivided by\b|\btimes\b|\bplus\b|\bminus\b|\bless\b)"
    r"|(?P<num>\d+(?:\.\d+)?)(?![\w,])|(?P<word>[^()+*/×]+?)(?=\s*(?:[()+*/×]|\s-\s|\bdivided by\b|\btimes\b|\bplus\b|\bminus\b|\bless\b|$)))",
    re.I,
)
_OPERATOR = {"+": "+", "plus": "+", "-": "-", "minus": "-", "less": "-", "*": "*", "×": "*", "times": "*",
             "/": "/", "divided by": "/"}  # fmt: skip
_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2}
_AVERAGE = re.compile(r"^(?:the\s+)?average\s+(?:of\s+)?(?P<rest>.+?)\s+between\s+(?P<span>.+)$", re.I)
_CHANGE = re.compile(r"^(?:the\s+)?change\s+in\s+(?P<rest>.+?)\s+between\s+(?P<span>.+)$", re.I)
_GROWTH = re.compile(
    r"\b(?:growth(?: rate)?|(?:year[- ]over[- ]year|yoy|percent(?:age)?)\s+(?:change|increase|decrease|growth)|"
    r"(?:change|increase|decrease|grow|growth)\b[^?]*\bfrom\b[^?]*\bto\b)",
    re.I,
)


@dataclass(frozen=True)
class Operand:
    """A metric phrase read for one period (or the mean/difference over two)."""

    phrase: str
    periods: tuple[Period, ...] = ()
    mode: str = "value"
    """"value": one period; "average": mean of the periods; "change": last minus first."""


@dataclass(frozen=True)
class Node:
    """An expression: an operator over two nodes, a number, or an operand."""

    op: str = ""
    left: Node | None = None
    right: Node | None = None
    number: float | None = None
    operand: Operand | None = None


@dataclass
class Working:
    """A computed value with the inputs it used, for the answer's working."""

    value: float | None
    inputs: list[tuple[Operand, Period, Cell]] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)


Lookup = Callable[[str, Period | None], Cell | None]
"""Finds the cell for a metric phrase in a period (None: the question's default)."""


def _operand(phrase: str, default: tuple[Period, ...]) -> Operand:
    phrase = " ".join(phrase.split()).strip(" ,:")
    for pattern, mode in ((_AVERAGE, "average"), (_CHANGE, "change")):
        m = pattern.match(phrase)
        if m:
            span = periods_in(m.group("span"))
            return Operand(m.group("rest"), span or default, mode)
    own = periods_in(phrase)
    text = re.sub(r"\b(?:FY\s?'?\d{2,4}|fiscal(?: year)?\s+\d{4}|\d{4})\b", " ", phrase, flags=re.I)
    return Operand(" ".join(text.split()).strip(" ,"), own[:1] or default[:1], "value")


def _tokens(expr: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for m in _TOKEN.finditer(expr):
        kind = m.lastgroup or ""
        text = m.group(kind).strip() if kind else ""
        if text:
            out.append((kind, text.lower() if kind == "op" else text))
    return out


def _parse(tokens: list[tuple[str, str]], default: tuple[Period, ...]) -> Node | None:
    """Shunting-yard over the tokens; None when they do not form an expression."""
    output: list[Node] = []
    stack: list[str] = []

    def reduce() -> bool:
        op = stack.pop()
        if len(output) < 2:
            return False
        right, left = output.pop(), output.pop()
        output.append(Node(op=op, left=left, right=right))
        return True

    for kind, text in tokens:
        if kind == "num":
            output.append(Node(number=float(text)))
        elif kind == "word":
            output.append(Node(operand=_operand(text, default)))
        elif kind == "op":
            op = _OPERATOR[text]
            while stack and stack[-1] != "(" and _PRECEDENCE[stack[-1]] >= _PRECEDENCE[op]:
                if not reduce():
                    return None
            stack.append(op)
        elif kind == "open":
            stack.append("(")
        elif kind == "close":
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


def parse_formula(question: str) -> Node | None:
    """The arithmetic ``question`` defines or asks for, else None.

    A stated definition wins; else an inline expression of metric phrases ("operating income +
    depreciation and amortization"); else a growth or change between two named periods.
    """
    periods = periods_in(question)
    m = _DEFINITION.search(question)
    candidates = [m.group("expr")] if m else []
    candidates += [s for s in re.split(r"(?<=[?.])\s+", question) if _INLINE_OPERATOR.search(s)]
    for text in candidates:
        tree = _parse(_tokens(_strip_question(text)), periods)
        if tree is not None and tree.op:
            return tree
    if _GROWTH.search(question) and len({p.year for p in periods}) >= 2:
        subject = _growth_subject(question)
        if subject:
            first, last = sorted(periods, key=lambda p: (p.year, p.quarter or 0))[:: len(periods) - 1][:2]
            new, old = Node(operand=Operand(subject, (last,))), Node(operand=Operand(subject, (first,)))
            return Node(op="%", left=new, right=old)
    return None


def _strip_question(text: str) -> str:
    """The expression part of a sentence: no question lead-in, no trailing instructions."""
    text = re.sub(r"^.*?\b(?:what is|what was|what's|calculate|compute)\b\s+(?:the\s+)?", "", text, flags=re.I)
    text = re.sub(r"\b(?:for|of)\s+[A-Z][\w&.' -]*$", "", text.strip())
    text = re.sub(r"\[[^\]]*\]|\bfrom the [\w\s]+statements?\b", " ", text, flags=re.I)
    return text.strip(" .?")


def _growth_subject(question: str) -> str:
    """The metric a growth question is about ("total revenue" in "the FY2019 - FY2020 total revenue growth rate")."""
    text = re.sub(r"\b(?:FY\s?'?\d{2,4}|fiscal(?: year)?\s+\d{4}|\d{4})\b", " ", question, flags=re.I)
    m = re.search(
        r"(?:change|increase|decrease|growth)\s+in\s+([a-z][\w\s&,-]{2,60}?)\s+(?:from|between)\b", text, re.I
    )
    if m:
        return " ".join(m.group(1).split())
    m = re.search(r"(?:the\s+)?(?:[-–\s]+)?([a-z][\w\s&-]{2,60}?)\s+growth(?: rate)?\b", text, re.I)
    return " ".join(m.group(1).split()).strip(" -") if m else ""


# --------------------------------------------------------------------------------------------
# Evaluation
# --------------------------------------------------------------------------------------------


def evaluate(node: Node, lookup: Lookup) -> Working:
    """Compute ``node``; ``value`` is None when an input is missing or a division by zero."""
    working = Working(value=None)
    working.value = _eval(node, lookup, working)
    return working


def _eval(node: Node, lookup: Lookup, working: Working) -> float | None:
    if node.number is not None:
        return node.number
    if node.operand is not None:
        return _operand_value(node.operand, lookup, working)
    assert node.left is not None and node.right is not None
    left, right = _eval(node.left, lookup, working), _eval(node.right, lookup, working)
    if left is None or right is None:
        return None
    if node.op == "+":
        return left + right
    if node.op == "-":
        return left - right
    if node.op == "*":
        return left * right
    if right == 0:
        working.missing.append("a division by zero")
        return None
    if node.op == "%":
        return 100.0 * (left - right) / abs(right)
    return left / right


def _operand_value(operand: Operand, lookup: Lookup, working: Working) -> float | None:
    periods = operand.periods or (None,)  # type: ignore[assignment]
    wanted = periods if operand.mode != "value" else periods[:1]
    values: list[float] = []
    for period in wanted:
        cell = lookup(operand.phrase, period)
        if cell is None:
            label = f"{operand.phrase} ({period.label()})" if period else operand.phrase
            working.missing.append(label)
            return None
        if period is not None:
            working.inputs.append((operand, period, cell))
        values.append(abs(cell.scaled) if cell.unit != "%" else cell.value)
    if operand.mode == "average":
        return sum(values) / len(values)
    if operand.mode == "change":
        return values[-1] - values[0]
    return values[0]
