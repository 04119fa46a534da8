"""The run-history seam (what every store of saved runs provides, and the summary row it lists) and the
small pieces both kinds of store share."""

from __future__ import annotations

import json
import logging
import re
import secrets
from datetime import UTC, datetime
from typing import Protocol

from pydantic import Field, ValidationError

from engine.contracts import Contract, RunResult
from engine.errors import HistoryError, LoupeError, RunNotFoundError

logger = logging.getLogger(__name__)

EXCERPT_CHARS = 240
"""Characters of the answer a summary row keeps."""
MAX_SEARCH_CHARS = 200
"""Longest history search (some 30 words): a 50,000-character search failed in SQLite ("LIKE or GLOB pattern
too complex") after scanning every row; nobody types a longer one."""
MAX_LIST_ROWS = 10_000
"""Most rows one history list returns (a larger --limit is refused; SQLite cannot even take 2**63)."""

RUN_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")
"""What a run id (or a prefix of one) looks like; anything else is refused before it reaches a query."""


class RunSummary(Contract):
    """One saved run as a history list shows it (the whole RunResult stays in the store)."""

    run_id: str
    created_at: str = Field(description="ISO-8601 UTC time the run started.")
    question: str
    asked: str | None = Field(None, description="The user's words when the question is a rewritten follow-up.")
    answer_excerpt: str
    strategy: str = Field(description="The strategy that ran (after auto's choice).")
    backend: str
    documents: tuple[str, ...] = Field(description="File names of the documents asked.")
    follow_up_of: str | None = None


class RunStore(Protocol):
    """A run history. Implementations: ``SqliteRunStore`` (embedded); a PostgreSQL store registers beside it."""

    read_only: bool
    """Runs can be read but not saved (a read-only library): ``answer()`` then leaves them unsaved."""

    def save(self, result: RunResult) -> None:
        """Save (or replace) a run; ``result.run_id`` must be set."""
        ...

    def get(self, run_id: str) -> RunResult:
        """The run with this id or a unique prefix of it; ``RunNotFoundError`` otherwise."""
        ...

    def list(self, search: str = "", limit: int = 200) -> list[RunSummary]:
        """Saved runs, newest first; ``search`` keeps runs whose question, answer or documents contain it."""
        ...

    def delete(self, run_id: str) -> None:
        """Remove a run; ``RunNotFoundError`` when it does not exist."""
        ...


def new_run_id() -> str:
    """A fresh run id: the start time (sortable) and 10 random hex digits, e.g. ``20250102-153045-1a2b3c4d5e``.

    Forty random bits: a team saving many runs in one second never draws the same id twice in practice
    (six digits collided about once in 13,000 batches of 50 runs in the same second)."""
    return datetime.now(UTC).strftime("%Y%m%d-%H%M%S-") + secrets.token_hex(5)


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def summary_of(result: RunResult) -> RunSummary:
    """The history row of a run."""
    text = " ".join(result.answer.text.split())
    return RunSummary(
        run_id=result.run_id,
        created_at=result.created_at,
        question=result.question,
        asked=result.asked,
        answer_excerpt=text if len(text) <= EXCERPT_CHARS else text[: EXCERPT_CHARS - 3] + "...",
        strategy=result.strategy_effective,
        backend=result.backend,
        documents=tuple(d.file_name for d in result.docs),
        follow_up_of=result.follow_up_of,
    )


def run_key(run_id: str) -> str:
    """``run_id`` stripped, when it looks like a run id (or a prefix of one); ``RunNotFoundError`` otherwise."""
    key = str(run_id).strip()
    if not RUN_ID.match(key):
        raise RunNotFoundError(f"{run_id!r} is not a run id; list the runs with: python -m engine runs list")
    return key


def pick_run(key: str, found: list[str]) -> str:
    """The run ``key`` names among the ids ``found`` by exact match or prefix (up to 3 of them)."""
    if key in found:
        return key
    if not found:
        raise RunNotFoundError(f"no saved run {key!r}; list the runs with: python -m engine runs list")
    if len(found) > 1:
        raise RunNotFoundError(f"{key!r} matches several runs; give more characters of the id")
    return found[0]


def result_from_json(key: str, text: str) -> RunResult:
    """A saved run; ``HistoryError`` when another version of Loupe saved it in a shape this one cannot read."""
    try:
        return RunResult.model_validate_json(text)
    except ValidationError as error:
        raise HistoryError(
            f"run {key} was saved by another version of Loupe and cannot be read ({error.error_count()} "
            "field error(s)); delete it from the history"
        ) from None


def summary_row(row: tuple) -> RunSummary:
    """A summary from the columns ``run_id, created_at, question, asked, answer_excerpt, strategy, backend,
    documents (JSON text or a decoded list), follow_up_of``."""
    run_id, created_at, question, asked, excerpt, strategy, backend, documents, follow_up_of = row
    if isinstance(documents, str):
        documents = json.loads(documents)
    if not isinstance(documents, list | tuple) or not all(isinstance(d, str) for d in documents):
        raise ValueError("documents is not a list of file names")
    return RunSummary(
        run_id=run_id, created_at=created_at, question=question, asked=asked, answer_excerpt=excerpt,
        strategy=strategy, backend=backend, documents=tuple(documents), follow_up_of=follow_up_of,
    )  # fmt: skip


def search_text(result: RunResult) -> str:
    """The lower-cased text ``RunStore.list(search=...)`` looks in: question, asked words, answer, documents, id."""
    s = summary_of(result)
    return " ".join([s.question, s.asked or "", result.answer.text, *s.documents, s.run_id]).lower()


def like_pattern(text: str) -> str:
    """``text`` as a LIKE pattern matching itself anywhere (``%``, ``_`` and the escape ``\\`` taken literally)."""
    return "%" + re.sub(r"([\\%_])", r"\\\1", text) + "%"


def normalized_search(search: str) -> str:
    """The search words as ``list`` matches them: single spaces, lower case."""
    return " ".join(search.split()).lower()


def check_search(search: str) -> None:
    """``LoupeError`` when a history search is longer than ``MAX_SEARCH_CHARS`` (checked before any query)."""
    if len(search) > MAX_SEARCH_CHARS:
        raise LoupeError(
            f"the search is {len(search):,} characters long, over the limit of {MAX_SEARCH_CHARS}; "
            "search for a few words of the question or answer"
        )


def list_limit(limit: int) -> int:
    """``limit`` as a row count a query can take: at least 1; ``LoupeError`` above ``MAX_LIST_ROWS``."""
    if limit > MAX_LIST_ROWS:
        raise LoupeError(f"the limit must be at most {MAX_LIST_ROWS:,} runs (got {limit:,})")
    return max(1, int(limit))


def summaries(rows: list[tuple]) -> tuple[list[RunSummary], tuple[str, ...]]:
    """The summary of every row that can be read, and the run ids of the damaged ones: a row with a field that is
    not the JSON or the shape it should be is skipped with a warning naming it, so one bad row does not hide the
    rest."""
    found, skipped = [], []
    for row in rows:
        try:
            found.append(summary_row(row))
        except (ValueError, TypeError) as error:  # json.JSONDecodeError and pydantic's ValidationError included
            logger.warning("history: run %s is damaged and was skipped (%s)", row[0], type(error).__name__)
            skipped.append(str(row[0]))
    return found, tuple(skipped)


def save_run(store: RunStore, result: RunResult) -> str | None:
    """Save ``result`` in ``store``; ``None`` when saved, else why not (one line naming no server path).

    The answer matters more than its record: a read-only library, a full disk or a database that is down
    never loses the answer; the caller shows it with this warning and no run id.
    """
    if store.read_only:
        reason = "the library is read-only, so the run was not saved in the history"
    else:
        try:
            store.save(result)
            return None
        except (LoupeError, OSError) as error:
            reason = f"the run was not saved in the history ({error if isinstance(error, LoupeError) else _os(error)})"
    logger.warning("run %s: %s", result.run_id, reason)
    return reason


def _os(error: OSError) -> str:
    return error.strerror or type(error).__name__
