"""The best-supported reading after the loop: a run that ends with no passage matching enough of the
question's terms states its best passages anyway, labelled as not verified, instead of declining.

Why after the loop and not in it: the loop reads the answer's feedback signals ("no passage matches" asks
for more retrieval), so a reading stated inside it would change what the loop fetches. Once the loop has
stopped, the evidence is what it is; declining would hide a passage that often answers (the term overlap
misses paraphrases: "spent on plant and equipment" for "capital expenditure"), while the answer's caveat
("no retrieved passage matches enough of the question's terms") and its calibrated confidence, low for such
readings, tell the analyst how far to trust it.
"""

from __future__ import annotations

import logging

from engine.contracts import AnswerWithEvidence
from engine.contracts import CaveatKind as K
from engine.reading.answer_type import expected_type, states_type
from engine.reading.extractive import extract_answer
from engine.run.evidence import RunState
from engine.run.refiners import refined

logger = logging.getLogger(__name__)

BEST_EFFORT_SENTENCES = 3
"""A reading that is not verified quotes at most this many sentences: enough for a fact and its context,
few enough to leave room among the cited pages for the closest passages the loop found."""


def unmatched(answer: AnswerWithEvidence) -> bool:
    """The answer states nothing because no passage held enough of the question's terms."""
    return not answer.answer_found and any(c.kind == K.UNMATCHED for c in answer.caveats)


def best_effort(answer: AnswerWithEvidence, state: RunState) -> AnswerWithEvidence:
    """``answer``, or, when it states nothing for want of matching terms, the extractive reading of the
    run's strongest evidence (the passages a last answer would be given) through every refiner. The
    reading keeps the caveat saying no passage matched enough terms and is not complete, unless a refiner
    verifies it (a value read by its label and period, say); it is code reading passages already held, so it
    spends no backend call and no budget."""
    if not unmatched(answer) or state.census:
        return answer
    settings = state.config.generation
    context = state.context(settings.max_prompt_tokens)
    reading = extract_answer(
        state.question,
        state.parsed,
        context.evidence,
        min(settings.max_answer_sentences, BEST_EFFORT_SENTENCES),
        settings.max_citations,
        best_effort=True,
    )
    if not reading.answer_found:
        return answer
    reading = refined(reading, state, context)
    if not _of_the_kind_asked(reading.text, state.parsed.original_question):
        return answer  # no number where a number is asked (no date where a date is): it would read as the answer
    state.notify("answer", "stating the best-supported reading of the passages found (not verified)")
    logger.debug("best-effort reading from %d passages", len(context.evidence))
    return _with_closest(reading, answer)


def _of_the_kind_asked(text: str, question: str) -> bool:
    """Whether a reading states an answer of the kind the question asks for, when it asks for a number or a date."""
    kind = expected_type(question)
    return kind not in ("number", "date") or states_type(text, kind, question)


def _with_closest(reading: AnswerWithEvidence, declined: AnswerWithEvidence) -> AnswerWithEvidence:
    """The reading, then the closest passages the declined answer offered on other pages, as support: the
    reading is chosen by what the question asks, the closest passages by term overlap alone, and when the
    reading is wrong the page that answers is often among them."""
    cited = {(c.doc_id, c.page) for c in reading.citations}
    closest = tuple(c for c in declined.citations if (c.doc_id, c.page) not in cited)
    return reading.model_copy(update={"citations": reading.citations + closest}) if closest else reading
