"""Separate what a question asks from how it wants the answer written.

Questions carry instructions ("Round to one decimal place.", "Answer in EUR thousands.",
"Assume you are an analyst.") and source restrictions ("using only the balance sheet"). Their words
are not evidence to look for: "round", "decimal" or "format" would pull retrieval toward the wrong
pages. The instruction openings are data in ``lexicon.INSTRUCTION_ENTRIES``. ``focus`` keeps the content sentences (definitions included:
"X is defined as revenue / average PP&E" names the line items to find) and returns the named
sources separately.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.contracts import ParsedQuestion
from engine.documents.text import normalize_space
from engine.reading.glossary import expansions, statements_named
from engine.reading.lexicon import INSTRUCTION, LEAD_IN_ENTRIES, STATEMENT_TITLES, alternatives

_SENTENCE = re.compile(r"(?<=[.?!])\s+(?=[A-Z\"'(\[])|(?<=\?)\s*(?=[A-Z])")
_LEAD_IN = re.compile(
    r"^(?P<lead>.*?\b(?:question|following)\b[^:]{0,160}):\s*(?P<rest>.+)$|"
    r"^(?P<lead2>(?:" + alternatives(LEAD_IN_ENTRIES) + r")\b[^,:]{0,120}"
    r"\b(?:statements?|sheets?|p&l|position)\b[^,:]{0,40}),\s*(?P<rest2>.+)$",
    re.I,
)
"""A lead-in ending in a colon ("Answer this question: ...", "Using the balance sheet, answer the question
below: ..."), or a source clause naming a statement ("Using the balance sheet, ...")."""
_ASKS = re.compile(
    r"^(?:what|which|who|whom|whose|when|where|why|how|is|are|was|were|does|do|did|has|have|had|can|"
    r"could|will|would|should|list|name|give|calculate|compute|find|identify|describe|explain)\b",
    re.I,
)
_FORMAT_PARENS = re.compile(
    r"\((?:in|answer in|expressed in|round|rounded|as a|in units)\b[^)]{0,80}\)|"
    r",?\s*\b(?:and )?round(?:ed)? (?:your answer )?to (?:one|two|three|four|\d) decimal(?: places?)?\b",
    re.I,
)


@dataclass(frozen=True)
class Focus:
    """The content of a question and the sources it restricts itself to."""

    content: str
    """The question without answer-format instructions (the original when nothing was removed)."""
    instructions: tuple[str, ...]
    """The sentences or lead-ins that were set aside."""
    sources: tuple[str, ...]
    """Financial statements the question names anywhere ("balance sheet", "cash flow statement")."""


def focus(question: str) -> Focus:
    """Split ``question`` into content and instructions (see the module docstring)."""
    text = normalize_space(question)
    kept: list[str] = []
    dropped: list[str] = []
    for sentence in _SENTENCE.split(text):
        sentence = sentence.strip()
        if not sentence:
            continue
        lead = _LEAD_IN.match(sentence)
        if lead:
            dropped.append(lead.group("lead") or lead.group("lead2"))
            sentence = (lead.group("rest") or lead.group("rest2")).strip()
            if not _ASKS.match(sentence):  # "... the question is (are): the balance sheet." names sources only
                dropped.append(sentence)
                continue
        if INSTRUCTION.match(sentence) and not (not kept and sentence.endswith("?")):
            dropped.append(sentence)
            continue
        kept.append(_FORMAT_PARENS.sub("", sentence).strip())
    content = normalize_space(" ".join(k for k in kept if k))
    if not content:  # nothing but "instructions": then they are the question ("Write down the pseudo code ...")
        return Focus(content=text, instructions=(), sources=statements_named(text))
    return Focus(content=content, instructions=tuple(dropped), sources=statements_named(text))


def enrich(parsed: ParsedQuestion) -> ParsedQuestion:
    """Add the document words the question's terms imply to its main query (the last step of the offline parse).

    The named sources ("the cash flow statement"), the glossary's words for its terms ("capex" ->
    "purchases of property and equipment") and the usual titles and line items of the financial
    statements involved. Returns ``parsed`` unchanged when it already has expansions or none apply.
    """
    if parsed.retrieval.expansions:
        return parsed
    content = focus(parsed.original_question)
    words, statements = expansions(content.content)
    involved = dict.fromkeys((*content.sources, *statements))
    terms = [*content.sources, *words, *(title for name in involved for title in STATEMENT_TITLES[name])]
    query = parsed.retrieval.main_query
    fresh = [t for t in dict.fromkeys(terms) if t.lower() not in query.lower()]
    if not fresh:
        return parsed
    retrieval = parsed.retrieval.model_copy(
        update={"expansions": tuple(fresh), "main_query": " ".join([query, *fresh])}
    )
    return parsed.model_copy(update={"retrieval": retrieval})
