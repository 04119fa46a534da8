"""Understanding brick: the request a backend parses a question from, and the code checks on its parse.

Any backend may parse a question (the offline rules, a model). Code then makes sure the parse can
drive retrieval: it keeps the question verbatim, a non-empty main query, and at most ``MAX_KEYWORDS``
distinct keywords (a model may return more, repeat some, or paraphrase the question).
"""

from __future__ import annotations

from engine.contracts import ParsedQuestion, TaskRequest
from engine.documents.text import normalize_space
from engine.errors import LoupeError

MAX_KEYWORDS = 15
"""Keywords a question keeps (the feedback loop's vocabulary expansion shares this cap)."""


def question_request(question: str) -> TaskRequest:
    """The ``parse_question`` request for ``question``.

    Raises:
        LoupeError: the question is empty or only whitespace.
    """
    text = normalize_space(question or "")
    if not text:
        raise LoupeError("the question is empty; type a question first")
    return TaskRequest(question=text)


def check_parse(parsed: ParsedQuestion, question: str) -> ParsedQuestion:
    """``parsed`` made safe to retrieve with: the question verbatim, a main query, distinct keywords.

    Returns ``parsed`` itself when nothing needed fixing.
    """
    text = normalize_space(question)
    keywords = tuple(dict.fromkeys(k.strip() for k in parsed.keywords if k.strip()))[:MAX_KEYWORDS]
    main_query = normalize_space(parsed.retrieval.main_query) or " ".join(keywords) or text
    update: dict[str, object] = {}
    if parsed.original_question != text:
        update["original_question"] = text
    if keywords != parsed.keywords:
        update["keywords"] = keywords
    if main_query != parsed.retrieval.main_query:
        update["retrieval"] = parsed.retrieval.model_copy(update={"main_query": main_query})
    return parsed.model_copy(update=update) if update else parsed
