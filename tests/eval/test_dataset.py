"""Question-set loading: the shapes of ../shared/eval and clear errors for bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.errors import LoupeError
from engine.eval.dataset import GoldPage, load_eval_set, parse_eval_lines, resolve_doc


def _write(tmp_path: Path, *rows: object) -> Path:
    path = tmp_path / "set.jsonl"
    path.write_text("\n".join(r if isinstance(r, str) else json.dumps(r) for r in rows) + "\n")
    return path


BASE = {
    "id": "a",
    "doc": "papers/x.pdf",
    "question": "What?",
    "answer": "$1264.00",
    "evidence_pages": [60],
    "type": "t",
}


def test_single_doc_string_answer(tmp_path: Path) -> None:
    s = load_eval_set(_write(tmp_path, BASE, {**BASE, "id": "b", "answer": ["no", "No"], "evidence_pages": []}))
    assert s.name == "set" and len(s.questions) == 2
    first, second = s.questions
    assert first.docs == ("papers/x.pdf",) and first.answers == ("$1264.00",)
    assert first.gold_pages == (GoldPage(doc="papers/x.pdf", page=60),)
    assert second.answers == ("no", "No") and second.gold_pages == () and second.line == 2


def test_multi_doc_shapes() -> None:
    rows = [
        {"id": "1", "docs": ["a.pdf", "b.pdf"], "question": "Q", "answer": "x", "evidence_pages": [[1, 2], [7]]},
        {"id": "2", "docs": ["a.pdf", "b.pdf"], "question": "Q", "answer": "x", "evidence_pages": {"b.pdf": [3]}},
        {"id": "3", "docs": ["a.pdf", "b.pdf"], "question": "Q", "answer": "x", "evidence_pages": [4]},
    ]
    s = parse_eval_lines("\n".join(json.dumps(r) for r in rows))
    assert [(g.doc, g.page) for g in s.questions[0].gold_pages] == [("a.pdf", 1), ("a.pdf", 2), ("b.pdf", 7)]
    assert s.questions[1].gold_pages == (GoldPage(doc="b.pdf", page=3),)
    assert s.questions[2].gold_pages == (GoldPage(doc=None, page=4),)  # flat list: any document
    assert all(q.multi_page for q in s.questions[:1]) and not s.questions[1].multi_page


def test_page_zero_is_ignored() -> None:
    s = parse_eval_lines(json.dumps({**BASE, "evidence_pages": [0, 4]}))
    assert s.questions[0].gold_pages == (GoldPage(doc="papers/x.pdf", page=4),)


def test_unanswerable_and_answerable_only(tmp_path: Path) -> None:
    rows = [
        BASE,
        {**BASE, "id": "u", "answer": "Not answerable", "evidence_pages": [], "type": "unanswerable"},
        {**BASE, "id": "c"},
    ]
    s = load_eval_set(_write(tmp_path, *rows), answerable_only=True)
    assert [q.id for q in s.questions] == ["a", "c"]
    assert [q.id for q in load_eval_set(_write(tmp_path, *rows), limit=2).questions] == ["a", "u"]
    assert [q.id for q in load_eval_set(_write(tmp_path, *rows), limit=1, answerable_only=True).questions] == ["a"]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", "line 2: not valid JSON"),
        ("[1, 2]", "line 2: expected a JSON object"),
        (json.dumps({**BASE, "question": ""}), "line 2: 'question'"),
        (json.dumps({k: v for k, v in BASE.items() if k != "doc"}), "line 2: 'doc'"),
        (json.dumps({**BASE, "evidence_pages": ["7"]}), "line 2: 'evidence_pages'"),
        (json.dumps({**BASE, "answer": {"a": 1}}), "line 2: 'answer'"),
        (json.dumps({**BASE, "id": "a"}), "line 2: duplicate id"),
    ],
)
def test_malformed_lines_name_the_line(tmp_path: Path, line: str, message: str) -> None:
    with pytest.raises(LoupeError, match=message):
        load_eval_set(_write(tmp_path, BASE, line))


def test_missing_and_empty_sets(tmp_path: Path) -> None:
    with pytest.raises(LoupeError, match="no such question set"):
        load_eval_set(tmp_path / "missing.jsonl")
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n\n")
    with pytest.raises(LoupeError, match="empty"):
        load_eval_set(empty)
    with pytest.raises(LoupeError, match="--limit"):
        load_eval_set(empty, limit=0)


def test_bundled_set_by_name() -> None:
    s = load_eval_set("sample")
    assert len(s.questions) >= 8
    assert all(q.docs == ("sample",) for q in s.questions)
    assert all(q.gold_pages for q in s.questions if not q.unanswerable)
    assert {q.type for q in s.questions} >= {"single_fact", "comparison", "listing", "table", "section", "unanswerable"}


def test_resolve_doc(tmp_path: Path) -> None:
    (tmp_path / "x.pdf").write_bytes(b"%PDF")
    assert resolve_doc("x.pdf", tmp_path) == tmp_path / "x.pdf"
    assert resolve_doc("sample", tmp_path) is None
    with pytest.raises(LoupeError, match="--corpus"):
        resolve_doc("nope.pdf", tmp_path)


def test_every_shared_set_loads(shared_dir: Path) -> None:
    for path in sorted((shared_dir / "eval").glob("*.jsonl")):
        s = load_eval_set(path)
        assert s.questions, path
        for q in s.questions:
            resolve_doc(q.docs[0], shared_dir / "corpus")
    mm = load_eval_set(shared_dir / "eval" / "mmlongbench.jsonl", answerable_only=True, limit=120)
    assert len(mm.questions) == 120 and not any(q.unanswerable for q in mm.questions)


def test_page_objects_and_also_pages() -> None:
    row = {
        "id": "xd",
        "docs": ["a.pdf", "b.pdf"],
        "question": "How did X change?",
        "evidence_pages": [{"doc": "a.pdf", "page": 4}, {"doc": "b.pdf", "page": 6}],
        "also_pages": [{"doc": "a.pdf", "page": 39}],
    }
    q = parse_eval_lines(json.dumps(row)).questions[0]
    assert q.gold_pages == (GoldPage(doc="a.pdf", page=4), GoldPage(doc="b.pdf", page=6))
    assert q.also_pages == (GoldPage(doc="a.pdf", page=39),)
    with pytest.raises(LoupeError, match="not in 'docs'"):
        parse_eval_lines(json.dumps({**row, "evidence_pages": [{"doc": "c.pdf", "page": 1}]}))
    with pytest.raises(LoupeError, match="1-based 'page'"):
        parse_eval_lines(json.dumps({**row, "also_pages": [{"doc": "a.pdf", "page": 0}]}))
