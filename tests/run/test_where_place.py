"""A "where" part of a question is answered by a place: the loop opens the table the document shows the asked
thing in (by its caption, rows and the passages naming it) and the answer states it with its page.

The PDF is made up: a methods section lists two techniques, Table 1 (page 2) shows accuracy for baselines
only, and Table 2 (page 4) holds the ablations of the techniques with their accuracy, named by a passage
on that page. The first pass reaches page 4, but neither Table 2's caption nor the passage on it."""

from __future__ import annotations

import pymupdf
import pytest

from engine.api import answer
from engine.config import EngineConfig
from engine.contracts import RunResult
from engine.library.local import Library

CSS = "* {font-family: sans-serif; font-size: 11px;}"
FILLER = "The tagger reaches an F1 of 91 on news text and of 84 on forum posts in four languages. "

PAGES = [
    "<h1>A Compact Sequence Tagger</h1><h2>1 Introduction</h2><p>" + FILLER * 4 + "</p>"
    "<h2>2 Training</h2><p>This section describes how the tagger is trained.</p>"
    "<h3>2.3 Regularization</h3><p>We employ two types of regularization during training:</p>"
    "<p><b>Weight Decay</b> We add a penalty on the squared weights of every layer, with a factor of 0.01.</p>"
    "<p><b>Token Mixing</b> We swap a random tenth of the tokens between examples of the same class.</p>",
    "<h2>3 Baselines</h2><p>Table 1: F1 of the baseline taggers on the test split.</p>"
    "<p>bag of words | 71.2 | 12<br>linear probe | 73.0 | 14<br>small transformer | 75.4 | 40</p>"
    "<p>" + FILLER * 6 + "</p>",
    "<h2>4 Corpus</h2><p>" + FILLER * 12 + "</p>",
    "<h2>5 Ablations</h2><p>Table 2: Variations of the base model. Unlisted settings are those of the base model.</p>"
    "<p>variant | decay | mixing | F1<br>base | 0.01 | 0.1 | 78.9<br>(A) | 0.0 | 0.1 | 77.1<br>"
    "(B) | 0.01 | 0.0 | 76.5</p>"
    "<p>In Table 2 rows (A) and (B) we find that weight decay and token mixing each help, the mixing most.</p>",
]
QUESTION = "What regularization techniques does the tagger use, and where do they show the benefit for F1?"


def _paper() -> bytes:
    doc = pymupdf.open()
    for html in PAGES:
        doc.new_page().insert_htmlbox(pymupdf.Rect(72, 72, 540, 720), html, css=CSS)
    doc.set_toc([[1, "1 Introduction", 1], [1, "2 Training", 1], [2, "2.3 Regularization", 1], [1, "3 Baselines", 2],
                 [1, "4 Corpus", 3], [1, "5 Ablations", 4]])  # fmt: skip
    return doc.tobytes()


@pytest.fixture
def run(config: EngineConfig) -> RunResult:
    library = Library(config)
    entry = library.ingest(_paper(), "tagger.pdf")
    library.wait_for_background()
    return answer(QUESTION, [entry.doc_id], strategy="dispatched", library=library)


def test_the_loop_opens_the_table_that_shows_the_listed_items(run: RunResult) -> None:
    fetched = [r for r in run.history if r.trigger == "pending_references" and "Table 2" in r.narration]
    assert fetched, [r.narration for r in run.history]
    assert any(cid.endswith(":p4:b1") for cid in fetched[0].candidates_added), "the caption of Table 2 (page 4)"
    assert not any("Table 1" in r.narration for r in run.history), "Table 1 names none of the techniques"


def test_the_answer_states_the_place_with_its_page_after_the_list(run: RunResult) -> None:
    lines = run.answer.text.splitlines()
    assert lines[0] == "We employ two types of regularization during training:"
    assert lines[1].startswith("1. Weight Decay") and lines[2].startswith("2. Token Mixing")
    assert lines[-1].startswith("Table 2 (page 4): Variations of the base model."), lines[-1]
    assert "token mixing each help" in lines[-1], "the sentence saying what the table shows of the items"
    assert 4 in {c.page for c in run.answer.citations if c.role == "answer"}
    assert not any(c.subject.startswith("where") for c in run.answer.caveats), "the where part is covered"
