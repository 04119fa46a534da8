"""Stop rules of the feedback loop that are pure functions of the answers and the ledger."""

from __future__ import annotations

from types import SimpleNamespace

from engine.compose.actions import anchor_share
from engine.compose.stops import unchanged
from engine.config import EngineConfig
from engine.contracts import AnswerWithEvidence, Chunk, Citation, Hit

from .factories import question


def _answer(confidence: float, *quotes: tuple[str, str], support: tuple[str, str] | None = None) -> AnswerWithEvidence:
    cites = [Citation(chunk_id=cid, page=1, quote=q) for cid, q in quotes]
    if support:
        cites.append(Citation(chunk_id=support[0], page=2, quote=support[1], role="support"))
    return AnswerWithEvidence(text="x", citations=tuple(cites), confidence=confidence)


def test_a_pass_that_changes_nothing_the_reader_sees_is_no_improvement():
    before = _answer(0.5, ("a", "The filter removes spikes."))
    assert unchanged(before, _answer(0.5, ("a", "The filter removes spikes."), support=("b", "other page")))
    assert unchanged(before, _answer(0.4, ("a", "The filter removes spikes.")))
    assert not unchanged(before, _answer(0.6, ("a", "The filter removes spikes."))), "confidence rose"
    assert not unchanged(before, _answer(0.5, ("c", "Another quote."))), "a different passage is cited"


def _state(anchors: tuple[str, ...], texts: list[str]) -> SimpleNamespace:
    ledger = {}
    for n, text in enumerate(texts):
        chunk = Chunk(chunk_id=f"d:p{n + 1}:b0", doc_id="d", page=n + 1, index=0, text=text, bboxes=((0, 0, 1, 1),))
        ledger[chunk.chunk_id] = SimpleNamespace(hit=Hit(chunk=chunk, score=1.0, retriever="keyword", rank=1))
    return SimpleNamespace(parsed=question(keywords=anchors), ledger=ledger, config=EngineConfig())


def test_drift_compares_word_stems_so_plurals_do_not_count_as_off_topic():
    state = _state(("sensors", "survey flights"), ["The sensor suite clips under the wing."])
    assert anchor_share(state, list(state.ledger)) == 0.5, "sensor matches sensors; survey flights is absent"
    unrelated = _state(("sensors", "survey flights"), ["Running costs per year and the insurance premium."])
    assert anchor_share(unrelated, list(unrelated.ledger)) == 0.0
    assert anchor_share(unrelated, []) is None, "nothing added is nothing to compare"
