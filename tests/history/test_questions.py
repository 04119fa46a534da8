"""The personal question set: marked pages become a question the evaluation harness loads."""

from __future__ import annotations

import json

import pytest

from engine.config import EngineConfig
from engine.errors import LoupeError
from engine.eval import load_eval_set
from engine.history.question_sets import add_personal_question, personal_set_path, personal_set_size
from tests.app.factories import DOC, run_result


def test_marked_pages_are_appended_and_loadable(config: EngineConfig) -> None:
    result = run_result().model_copy(update={"run_id": "r1"})
    path = add_personal_question(result, [(DOC, 5), (DOC, 6), (DOC, 5)], "4.6 NTU", config=config)
    assert path == personal_set_path(config) and personal_set_size(config) == 1
    record = json.loads(path.read_text().splitlines()[0])
    assert record["evidence_pages"] == [{"doc": DOC, "page": 5}, {"doc": DOC, "page": 6}]
    loaded = load_eval_set(path)
    question = loaded.questions[0]
    assert question.question == result.question and question.answers == ("4.6 NTU",)
    assert [(g.doc, g.page) for g in question.gold_pages] == [(DOC, 5), (DOC, 6)]


def test_marking_the_same_run_again_replaces_its_line(config: EngineConfig) -> None:
    result = run_result().model_copy(update={"run_id": "r1"})
    add_personal_question(result, [(DOC, 2)], config=config)
    add_personal_question(result, [(DOC, 5)], config=config)
    add_personal_question(result.model_copy(update={"run_id": "r2"}), [(DOC, 5)], config=config)
    assert personal_set_size(config) == 2
    lines = [json.loads(line) for line in personal_set_path(config).read_text().splitlines()]
    assert lines[0]["evidence_pages"] == [{"doc": DOC, "page": 5}]


@pytest.mark.parametrize(
    ("pages", "message"),
    [([], "at least one page"), ([("b" * 64, 1)], "did not ask"), ([(DOC, 0)], "does not exist"),
     ([(DOC, 7)], "does not exist")],
)  # fmt: skip
def test_bad_marks_are_refused(config: EngineConfig, pages, message: str) -> None:
    with pytest.raises(LoupeError, match=message):
        add_personal_question(run_result(), pages, config=config)
    assert personal_set_size(config) == 0
