"""Eval hygiene: no evaluation question is quoted in engine/ or tests/, and no eval id is named in engine/.

A rule, word list or test written from an eval question's own words measures recall of that question, not the
engine. This test reads ../shared/eval/*.jsonl (skips cleanly when it is absent) and fails on any run of
``RUN_WORDS`` consecutive words of any question that also appears in a source or documentation file under
engine/ or tests/ (both sides normalized: lowercase, punctuation stripped, whitespace collapsed), and on any
eval ``id`` value written in engine/.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.config import REPO_ROOT

EVAL_DIR = REPO_ROOT.parent / "shared" / "eval"
RUN_WORDS = 6
"""Six words: long enough that ordinary phrases ("the end of the fiscal year") rarely reach it by chance, short
enough that a sentence lifted from a question, even lightly edited, still contains one."""
SCANNED = (REPO_ROOT / "engine", REPO_ROOT / "tests")
SUFFIXES = {".py", ".md", ".txt", ".json", ".jsonl", ".toml", ".yaml", ".yml", ".cfg", ".ini", ".html"}
SKIPPED_DIRS = {"__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache"}
THIS_FILE = Path(__file__).resolve()

_NON_WORD = re.compile(r"[^0-9a-z]+")
_TOKEN = re.compile(r"[\w-]+")


def words(text: str) -> list[str]:
    """Lowercase words with punctuation stripped (apostrophes joined: "3M's" -> "3ms"), whitespace collapsed."""
    return _NON_WORD.sub(" ", text.lower().replace("'", "").replace("\u2019", "")).split()


def runs(tokens: list[str], size: int = RUN_WORDS) -> set[tuple[str, ...]]:
    return {tuple(tokens[i : i + size]) for i in range(len(tokens) - size + 1)}


def eval_rows() -> list[dict]:
    if not EVAL_DIR.is_dir() or not any(EVAL_DIR.glob("*.jsonl")):
        pytest.skip("../shared/eval is not available on this machine")
    rows = []
    for path in sorted(EVAL_DIR.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                rows.append(json.loads(line))
    return rows


def scanned_files(roots: tuple[Path, ...]) -> Iterator[Path]:
    for root in roots:
        for path in sorted(root.rglob("*")):
            wanted = path.suffix in SUFFIXES and not SKIPPED_DIRS & set(path.parts)
            if wanted and path.is_file() and path.resolve() != THIS_FILE:
                yield path


def quoted_runs(question_runs: dict[tuple[str, ...], str], roots: tuple[Path, ...]) -> list[tuple[Path, str, str]]:
    """(file, the quoted run, the eval id it comes from) for every question run found in a file under ``roots``."""
    found = []
    for path in scanned_files(roots):
        hits = runs(words(path.read_text(encoding="utf-8", errors="replace"))) & question_runs.keys()
        found.extend((path, " ".join(run), question_runs[run]) for run in sorted(hits))
    return found


def test_words_and_runs_normalize_punctuation_case_and_space():
    assert words("What was  3M's\tFY2018 capex-to-revenue?") == [
        "what",
        "was",
        "3ms",
        "fy2018",
        "capex",
        "to",
        "revenue",
    ]
    assert runs(["a", "b", "c", "d", "e", "f", "g"]) == {("a", "b", "c", "d", "e", "f"), ("b", "c", "d", "e", "f", "g")}
    assert runs(["a", "b"]) == set()


def test_a_quoted_question_is_found(tmp_path: Path):
    """The check itself can fail: a made-up question quoted across a line break and in other case is found."""
    question = "How many lanterns did the Ostrava depot repair in the spring?"
    planted = tmp_path / "planted.py"
    planted.write_text('"""Reads: how many LANTERNS did the\n    Ostrava depot repair."""\n', encoding="utf-8")
    (tmp_path / "clean.py").write_text('"""How many lanterns were painted blue?"""\n', encoding="utf-8")
    found = quoted_runs({run: "made-up" for run in runs(words(question))}, (tmp_path,))
    assert found == [
        (planted, "how many lanterns did the ostrava", "made-up"),
        (planted, "lanterns did the ostrava depot repair", "made-up"),
        (planted, "many lanterns did the ostrava depot", "made-up"),
    ]


def test_no_eval_question_is_quoted_in_engine_or_tests():
    question_runs: dict[tuple[str, ...], str] = {}
    for row in eval_rows():
        for run in runs(words(str(row.get("question", "")))):
            question_runs.setdefault(run, str(row.get("id", "?")))
    found = [
        f"{path.relative_to(REPO_ROOT)}: {run!r} ({eval_id})"
        for path, run, eval_id in quoted_runs(question_runs, SCANNED)
    ]
    assert not found, f"{len(found)} eval question runs quoted (use made-up examples):\n" + "\n".join(found)


def test_no_eval_id_is_named_in_engine():
    ids = {str(row["id"]).lower() for row in eval_rows() if row.get("id")}
    assert ids
    found = []
    for path in scanned_files((REPO_ROOT / "engine",)):
        # an id is a whole token of letters, digits, "_" and "-" ("mmlb-12" is not named by "mmlb-123")
        named = set(_TOKEN.findall(path.read_text(encoding="utf-8", errors="replace").lower())) & ids
        found += [f"{path.relative_to(REPO_ROOT)}: {eval_id}" for eval_id in sorted(named)]
    assert not found, "eval ids named in engine/:\n" + "\n".join(found)
