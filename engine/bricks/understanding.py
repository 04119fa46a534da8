"""Understanding brick: a question in plain language -> ``ParsedQuestion`` via the backend."""

from __future__ import annotations

from engine.bricks.glossary import STATEMENT_TITLES, expansions
from engine.bricks.question_focus import focus
from engine.bricks.text import normalize_space
from engine.contracts import ParsedQuestion
from engine.errors import LoupeError
from engine.llm.base import Backend, BackendReply, TaskRequest


def understand(question: str, backend: Backend) -> BackendReply[ParsedQuestion]:
    """Parse ``question`` with ``backend``.

    Raises:
        LoupeError: the question is empty or only whitespace.
    """
    text = normalize_space(question or "")
    if not text:
        raise LoupeError("the question is empty; type a question first")
    return backend.run("parse_question", TaskRequest(question=text), ParsedQuestion)


def enrich(parsed: ParsedQuestion) -> ParsedQuestion:
    """Add the document words the question's terms imply to its main query (any backend's parse).

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
