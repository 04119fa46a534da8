"""The run-history seam (what every store of saved runs provides, and the summary row it lists) and the
small pieces both kinds of store share."""

from __future__ import annotations

import json
import re
import secrets
from datetime import UTC, datetime
from typing import Protocol

from pydantic import Field, ValidationError

from engine.contracts import Contract, RunResult
from engine.errors import HistoryError, RunNotFoundError

EXCERPT_CHARS = 240
"""Characters of the answer a summary row keeps."""

"""An ingest's progress callback: (fraction done, message)."""

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
    """A fresh run id: the start time (sortable) and 6 random hex digits, e.g. ``20250102-153045-1a2b3c``."""
    return datetime.now(UTC).strftime("%Y%m%d-%H%M%S-") + secrets.token_hex(3)


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
