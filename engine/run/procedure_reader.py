"""How-to questions answered with the numbered steps of the section that gives them, for any backend.

The reading is ``engine.reading.procedure``. Of the answer's cited passages (then the prompt's evidence, strongest
first), the first that holds a numbered step names the section: its passages on that page and the next, in
reading order, are read for the run of steps from 1, and the steps replace the answer, each cited at its
passage. A question that does not ask how to do something, or evidence with no numbered steps, leaves the
answer as it was.
"""

from __future__ import annotations

import logging

from engine.contracts import AnswerWithEvidence, Chunk, Citation
from engine.contracts import CaveatKind as K
from engine.reading.generation import ContextBundle
from engine.reading.procedure import Step, asks_procedure, holds_step, numbered_steps, steps_statement
from engine.run.evidence import RunState
from engine.run.restate import restated

logger = logging.getLogger(__name__)

STEPS_CONFIDENCE = 0.6
"""The steps of the section a passage about the task sits in: the section is found by retrieval, not named."""
MAX_CANDIDATES = 5
"""Passages looked at for a numbered step: the answer's and the strongest evidence's first few."""


def with_steps(answer: AnswerWithEvidence, state: RunState, context: ContextBundle) -> AnswerWithEvidence:
    """``answer`` replaced by the steps of the task asked (module doc)."""
    if state.top_k is not None or not asks_procedure(state.parsed.original_question):
        return answer
    if answer.expected_count and answer.found_count and answer.found_count >= answer.expected_count:
        return answer  # the answer states a list whole ("three steps: A, B and C"): another section's steps are not it
    candidates = [(c.doc_id, c.chunk_id) for c in answer.citations if c.role == "answer"]
    candidates += [(e.doc_id, e.chunk_id) for e in context.evidence]
    for doc_id, chunk_id in list(dict.fromkeys(candidates))[:MAX_CANDIDATES]:
        found = _section_steps(state, doc_id, chunk_id)
        if found:
            steps, chunks = found
            logger.debug("steps of %s: %d", chunks[0].section_path, len(steps))
            return _stated(answer, steps, chunks)
    return answer


def _section_steps(state: RunState, doc_id: str, chunk_id: str) -> tuple[list[Step], list[Chunk]] | None:
    index = state.layer1_index_of(doc_id)
    chunk = index.chunk(chunk_id) if index is not None else None
    if index is None or chunk is None or not chunk.section_path or not holds_step(chunk.text):
        return None
    section = [c for c in index.chunks_on_pages([chunk.page, chunk.page + 1]) if c.section_path == chunk.section_path]
    steps = numbered_steps("\n".join(c.text for c in section))
    if not steps:
        return None
    used = [c for c in section if any(s.text[:40] in " ".join(c.text.split()) for s in steps)]
    return steps, used


def _stated(answer: AnswerWithEvidence, steps: list[Step], chunks: list[Chunk]) -> AnswerWithEvidence:
    cited = [Citation(chunk_id=c.chunk_id, doc_id=c.doc_id, page=c.page, quote=c.text[:300]) for c in chunks]
    return restated(answer, steps_statement(steps), cited, complete=False, confidence=STEPS_CONFIDENCE,
                    moot=(K.UNMATCHED, K.PARTIAL_MATCH, K.COUNT_SHORT))  # fmt: skip
