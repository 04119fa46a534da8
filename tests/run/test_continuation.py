"""The loop reads on across a page break: the passage the answer leads with ends its page inside a
section that goes on over the page, so the next pass reads the other part and the answer cites it."""

from __future__ import annotations

from types import SimpleNamespace

import pymupdf

from engine.config import EngineConfig
from engine.contracts import AnswerWithEvidence, Budget, Citation, Hit, RankedList
from engine.library.local import Library
from engine.run.actions import next_action
from engine.run.budget import LoopGuard
from engine.run.evidence import RunState
from engine.run.steps import with_support

from .factories import question

FILLER = "The division reviews licences and inspects clinics across the state every year. "


def _plan(next_heading: str) -> bytes:
    """A plan whose staff list starts at the foot of page 2 and runs on to page 3 (under
    ``next_heading``, when one opens page 3, the names there belong to another list)."""
    doc = pymupdf.open()
    pages = [
        "<h1>Division Plan 2016</h1><p>" + FILLER * 6 + "</p>",
        "<h2>Planning summary</h2><p>" + FILLER * 8 + "</p><h2>Prosecution staff</h2>"
        "<p>The prosecution staff who took part in the planning meetings: Sharmin Hibbert, Deputy Counsel</p>",
        next_heading + "<p>Yolonda Green, Attorney Supervisor</p><p>Candace Rochester, Attorney Supervisor</p>"
        "<h2>Budget outlook</h2><p>" + FILLER * 4 + "</p>",
    ]
    for html in pages:
        page = doc.new_page()
        page.insert_htmlbox(pymupdf.Rect(72, 72, 540, 720), html, css="* {font-family: sans-serif; font-size: 11px;}")
    return doc.tobytes()


def _state(config: EngineConfig, data: bytes) -> tuple[RunState, AnswerWithEvidence]:
    """A run whose evidence holds only the staff list's opening on page 2, cited by an incomplete answer."""
    library = Library(config)
    doc_id = library.ingest(data, "plan.pdf").doc_id
    library.wait_for_background()
    index = library.load(doc_id)
    llm = SimpleNamespace(guard=LoopGuard(Budget()))
    parsed = question("Who was on the prosecution staff?", keywords=("prosecution staff",))
    state = RunState(question=parsed.original_question, parsed=parsed, indexes=[index], config=config,
                     llm=llm, activations=SimpleNamespace(is_on=lambda pattern: True), pdf_bytes=bytes)  # type: ignore[arg-type]  # fmt: skip
    opening = next(c for c in index.doc.chunks if c.page == 2 and "took part" in c.text)
    state.add(
        RankedList(query="q", retriever="keyword", hits=(Hit(chunk=opening, score=1.0, retriever="keyword", rank=1),))
    )
    cite = Citation(
        chunk_id=opening.chunk_id, doc_id=opening.doc_id, page=2, quote="The prosecution staff who took part"
    )
    return state, AnswerWithEvidence(text="Sharmin Hibbert", citations=(cite,), confidence=0.3)


def test_a_list_cut_by_a_page_break_is_read_on_and_cited_beside_its_opening(config: EngineConfig) -> None:
    state, answer = _state(config, _plan(next_heading=""))
    plan, _ = next_action(state, answer, set())
    assert plan is not None and (plan.trigger, plan.action) == ("passage_continues", "read_continuation"), plan
    assert "Prosecution staff" in plan.why and "page 3" in plan.why
    _, added = plan.run(state)
    assert {state.ledger[cid].hit.chunk.page for cid in added} == {3}
    assert any("Yolonda Green" in state.ledger[cid].hit.chunk.text for cid in added)
    cited = with_support(answer, state).citations
    assert [(c.page, c.role) for c in cited] == [(2, "answer"), (3, "support")], "the list's other part, beside it"


def test_a_page_that_opens_another_section_is_not_read_on(config: EngineConfig) -> None:
    state, answer = _state(config, _plan(next_heading="<h2>Program staff</h2>"))
    plan, _ = next_action(state, answer, set())
    assert plan is None or plan.trigger != "passage_continues", "page 3 lists another team"


def test_a_passage_announcing_a_table_brings_the_table_into_the_evidence(config: EngineConfig) -> None:
    doc = pymupdf.open()
    page = doc.new_page()
    html = (
        "<h2>Estimated future benefit payments</h2><p>" + FILLER * 3 + "</p>"
        "<p>The ferry line plans its pension payments as follows:</p>"
        "<p>2040 | 1,305 | 655<br/>2041 | 1,290 | 648</p><h2>Savings plans</h2><p>" + FILLER * 2 + "</p>"
    )
    page.insert_htmlbox(pymupdf.Rect(72, 72, 540, 720), html, css="* {font-family: sans-serif; font-size: 11px;}")
    library = Library(config)
    index = library.load(library.ingest(doc.tobytes(), "benefits.pdf").doc_id)
    state = RunState(question="q", parsed=question("q"), indexes=[index], config=config,
                     llm=SimpleNamespace(guard=LoopGuard(Budget())), activations=SimpleNamespace(is_on=lambda p: True),
                     pdf_bytes=bytes)  # type: ignore[arg-type]  # fmt: skip
    lead = next(c for c in index.doc.chunks if c.text.rstrip().endswith("as follows:"))
    added = state.add(
        RankedList(query="q", retriever="keyword", hits=(Hit(chunk=lead, score=1.0, retriever="keyword", rank=1),))
    )
    texts = [state.ledger[cid].hit.chunk.text for cid in added]
    assert len(added) == 2 and "1,305" in texts[1], texts
