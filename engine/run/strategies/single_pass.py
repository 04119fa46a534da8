"""single_pass: understand, retrieve once (keyword + TOC when the outline allows, fused), answer.

The baseline every other strategy is compared to.
"""

from __future__ import annotations

from engine.run.evidence import RunState
from engine.run.first_mention import first_mentions
from engine.run.steps import Outcome, answer_now, pages_phrase, record
from engine.run.value_reader import value_searches


def run_single_pass(state: RunState) -> Outcome:
    """One retrieval of the main query in every document (``state.top_k`` chunks when set), one answer."""
    query = state.parsed.retrieval.main_query
    hint = state.parsed.retrieval.section_hint if state.activations.is_on("toc_retrieval") else None
    state.notify("retrieve", f"searching once for: {query}")
    added = state.search(query, k=state.top_k, section_hint=hint, use_dense=False)
    inputs, found = value_searches(state)
    added = list(dict.fromkeys([*added, *found, *first_mentions(state)]))
    answer = answer_now(state)
    also = ""
    if inputs:
        also = (
            " and the input of the computation asked"
            if len(inputs) == 1
            else f" and the {len(inputs)} inputs of the computation asked"
        )
    narration = (f"Pass 0: keyword search retrieved {pages_phrase(state, added)}{also}; "
                 f"answered once at confidence {answer.confidence:.2f}")  # fmt: skip
    history = [record(state, "initial", "retrieve", [query, *inputs], added, 0.0, answer.confidence, narration)]
    return Outcome(answer, history, "single_pass", False)
