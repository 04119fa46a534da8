"""The run-history seam: what every store of saved runs provides, and the summary row it lists."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from typing import Protocol

from pydantic import Field

from engine.contracts import Contract, RunResult

EXCERPT_CHARS = 240
"""Characters of the answer a summary row keeps."""


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
