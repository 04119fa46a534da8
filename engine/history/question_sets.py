"""The personal question set: questions whose evidence pages a person marked on a run, kept in the
library folder as a JSONL file the evaluation harness reads (the format of ``engine.eval.dataset``)."""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from filelock import FileLock

from engine.config import EngineConfig
from engine.contracts import RunResult
from engine.errors import LoupeError

FILE_NAME = "my-questions.jsonl"
SET_NAME = "my-questions"


def personal_set_path(config: EngineConfig | None = None) -> Path:
    """Where the personal question set lives: ``<library>/my-questions.jsonl``."""
    return (config or EngineConfig()).library.resolved_path() / FILE_NAME


def personal_set_size(config: EngineConfig | None = None) -> int:
    """How many questions the personal set holds (0 when it does not exist)."""
    path = personal_set_path(config)
    try:
        return sum(1 for line in path.read_text(encoding="utf-8").splitlines() if line.strip())
    except FileNotFoundError:
        return 0


def add_personal_question(
    result: RunResult,
    gold_pages: Sequence[tuple[str, int]],
    answer: str | None = None,
    config: EngineConfig | None = None,
) -> Path:
    """Add (or replace) the question of ``result`` in the personal set, with the pages that hold its answer.

    Args:
        result: The run the person judged.
        gold_pages: ``(doc_id, page)`` pairs: the cited pages marked right plus any pages added by hand;
            each document must be one the run asked.
        answer: The correct answer, when the person gives one (answer match is then scored).

    Raises:
        LoupeError: no page given, a page of a document the run did not ask, or a page number below 1.
    """
    docs = [d.doc_id for d in result.docs]
    pages = list(dict.fromkeys((doc, int(page)) for doc, page in gold_pages))
    if not pages:
        raise LoupeError("mark at least one page that holds the answer (a cited page, or type its number)")
    sizes = {p.doc_id: p.total_pages for p in result.profiles}
    for doc, page in pages:
        if doc not in docs:
            raise LoupeError("a marked page belongs to a document this run did not ask")
        if not 1 <= page <= sizes.get(doc, page):
            raise LoupeError(f"page {page} does not exist; the document has {sizes.get(doc)} page(s)")
    record = {
        "id": f"mine-{result.run_id or secrets.token_hex(4)}",
        "docs": docs,
        "question": result.question,
        "answer": [answer.strip()] if answer and answer.strip() else [],
        "evidence_pages": [{"doc": doc, "page": page} for doc, page in pages],
        "type": "personal",
        "added_at": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    path = personal_set_path(config)
    path.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(str(path) + ".lock", timeout=30):
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except FileNotFoundError:
            lines = []
        kept = [line for line in lines if line.strip() and _id_of(line) != record["id"]]
        tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
        tmp.write_text("\n".join([*kept, json.dumps(record)]) + "\n", encoding="utf-8")
        os.replace(tmp, path)
    return path


def _id_of(line: str) -> str | None:
    try:
        data = json.loads(line)
    except json.JSONDecodeError:
        return None
    return data.get("id") if isinstance(data, dict) else None
