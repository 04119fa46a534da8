"""Whether a question asks for a number: the cues of its words and of its head. Pure."""

from __future__ import annotations

import re

from engine.reading.answer_shape import asked_form
from engine.reading.answer_type import MONEY_FLOWS
from engine.reading.lexicon import DOCUMENT_KIND
from engine.reading.measures import MEASURE_AFTER_PREPOSITION, MEASURE_HEAD

# Words that ask for a stated quantity: amounts a filing or paper states (revenue, income, sales, expenses,
# earnings, EPS; "earnings release" names a document), measures (rate, share, ratio, score) and a
# "what/which year" or "when" asking for a date. A bare "year" ("half of the year") is not one.
_VALUE_CUES = re.compile(
    r"\bhow (?:much|many|long|far|old|large|big|often|tall|high)\b|\b(?:amount|number|percentage|percent|share|"
    r"ratio|rate|total|sum|average|mean|median|costs?|price|revenues?|count|score|accuracy|size|margin|capex|"
    r"expenditures?|expenses?|income|profits?|loss(?:es)?|dividend|yield|sales|eps|earnings(?! (?:release|call))|"
    rf"{'|'.join(sorted(MONEY_FLOWS))})\b|"
    r"%|\$|\bin (?:usd|eur|gbp)\b|\bmillions?\b|\bbillions?\b|^when\b|\b(?:what|which) (?:year|date)\b|"
    # "What is the F1 of X ...?": a paper's evaluation metric heading the question asks its figure
    r"^(?:what|which)\s+(?:is|was|are|were)\s+(?:the\s+)?(?:[\w\-]+\s+){0,2}?(?:f1|bleu|rouge(?:-\w+)?|perplexity|auc)\b|"
    # "What <measure> does X reach / get / achieve / score?": the figure X attains
    r"^(?:what|which)\b[^?]*\b(?:does|do|did)\b[^?]*\b(?:reach|get|achieve|attain|obtain|score)\b(?!\s+\w+ed\b)",
    re.I,
)


_DEFINE = re.compile(r"\bdefine\b|\bmean\s+by\b|\bwhat\s+(?:does|do)\b[^?]*\bmean\b(?:\s+in\b[^?]*)?\s*\?", re.I)
"""The verb of an explicit definition ask ("Define X", "How does Acme define X?", "What does X mean?", "what do they
mean by that?"): the verb "mean", not the average; "What is X?" may ask a value."""


def asks_for_value(question: str) -> bool:
    """Whether the question asks for a number; never one asking what a term means ("How does Acme define adjusted
    revenue?" asks for the definition, though the term names an amount)."""
    if _DEFINE.search(question) and asked_form(question)[0] == "definition":
        return False
    head = question[len(topic_prefix(question)) :]
    return bool(_VALUE_CUES.search(head) or MEASURE_HEAD.match(head) or MEASURE_AFTER_PREPOSITION.search(head))


_TOPIC_PREFIX = re.compile(
    rf"^(?:[^?:]{{1,80}}:|(?:in|according to|per)\s+[^,?:]{{0,80}}\b(?:{DOCUMENT_KIND})\b[^,?:]{{0,60}},)"
    r"\s+(?=(?:what|which|how)\b)",
    re.I,
)
"""A topic written before the question proper ("Acme datasheet, table 2: what supply voltage ...?", "In the Heron
survey report on commuting, what share ..."): the question starts after it, where the cues that read its head look."""


def topic_prefix(question: str) -> str:
    """The topic written before the question proper (``_TOPIC_PREFIX``), else "": where to look, not what is asked."""
    found = _TOPIC_PREFIX.match(question)
    return found.group(0) if found else ""
