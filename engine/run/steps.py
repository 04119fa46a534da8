"""Steps every strategy shares: understanding, answering under the budget, records and results.

Every backend call goes through ``LlmCalls.call``; every answer, whichever backend gave it, gets the
citation check and the code-checked feedback signals (``engine.reading.signals``), then the signals
only the run knows (references whose target page was not fetched yet, the listing pattern's count).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

from engine.contracts import (
    Action,
    AnswerWithEvidence,
    Citation,
    EffectiveStrategy,
    EvidenceItem,
    IterationRecord,
    ParsedQuestion,
    StopReason,
    Trigger,
)
from engine.contracts import CaveatKind as K
from engine.contracts.caveats import caveat, merged
from engine.documents.text import estimate_tokens
from engine.reading.generation import (
    ContextBundle,
    add_support,
    answer_request,
    without_bare_headers,
)
from engine.reading.passages import Unit, side_units
from engine.reading.understanding import check_parse, question_request
from engine.run.best_effort import best_effort
from engine.run.calls import LlmCalls
from engine.run.census_answer import census_answer
from engine.run.coverage import other_period, uncovered_name, uncovered_period
from engine.run.evidence import RunState
from engine.run.refiners import refined
from engine.run.stops import STOP_TEXT

logger = logging.getLogger(__name__)


@dataclass
class Outcome:
    """What a strategy returns to the API layer."""

    answer: AnswerWithEvidence
    history: list[IterationRecord]
    stop_reason: StopReason
    exhausted: bool
    handed_to: EffectiveStrategy | None = None
    """The strategy that actually ran when this one handed the question over (a rejected plan)."""
    note: str = ""
    """Why it handed over."""


def understand_question(question: str, llm: LlmCalls) -> ParsedQuestion:
    """Parse the question with the run's backend (the rules when the LLM budget is spent), then check it."""
    parsed = llm.call("parse_question", question_request(question), ParsedQuestion, "rules")
    return check_parse(parsed, question)


def answer_now(state: RunState) -> AnswerWithEvidence:
    """Answer from the ledger's strongest evidence within the remaining context and LLM budget (a census
    question's count is stated by code, with no backend call)."""
    if state.census:
        state.notify("answer", "stating the count of the labelled elements found")
        return census_answer(state)
    wanted = state.config.generation.max_prompt_tokens
    allowance = state.guard.context_allowance(wanted)
    context = state.context(allowance) if allowance else ContextBundle(evidence=(), tokens=0, dropped=())
    state.notify("answer", f"answering from {len(context.evidence)} passages ({context.tokens} tokens)")
    request = answer_request(state.question, state.parsed, context, state.config.generation)
    answer = state.llm.call("answer", request, AnswerWithEvidence, "rules")
    state.guard.charge_context(min(context.tokens, allowance))
    return refined(answer, state, context)


PAGES_PER_SIDE = 3
"""A question over several documents may cite this many pages of each (a statement and its notes)."""


def with_support(answer: AnswerWithEvidence, state: RunState) -> AnswerWithEvidence:
    """The run's final answer plus supporting passages from any retrieved page, not only the prompt's;
    for a question over several documents, each document side's own best pages, in turns. A cited
    passage's continuation is part of the passage: it takes no supporting page's place."""
    settings = state.config.generation
    ledger = state.by_pass().evidence
    doc_sides = sum(1 for side in state.parsed.sides if side.doc_id)
    max_pages = max(settings.max_evidence_pages, PAGES_PER_SIDE * doc_sides)
    pages_before = len({(c.doc_id, c.page) for c in answer.citations})
    answer = _with_continuations(answer, state.parsed, ledger, settings.min_support_share)
    max_pages += len({(c.doc_id, c.page) for c in answer.citations}) - pages_before
    searched = [item for item in ledger if item.retriever != "continuation"]
    if doc_sides:
        answer = _side_support(answer, state, searched, max_pages)
    return add_support(answer, state.parsed, searched, max_pages, settings.min_support_share)


def _with_continuations(
    answer: AnswerWithEvidence, parsed: ParsedQuestion, ledger: Sequence[EvidenceItem], min_share: float
) -> AnswerWithEvidence:
    """Cite the continuation the loop read of a cited passage (its section across the page break) beside it."""
    cited = {(c.doc_id, c.page) for c in answer.citations}
    read = [
        item for item in ledger
        if item.retriever == "continuation" and (item.doc_id, item.page) not in cited
        and ((item.doc_id, item.page - 1) in cited or (item.doc_id, item.page + 1) in cited)
    ]  # fmt: skip
    if not read:
        return answer
    return add_support(answer, parsed, read, len(cited) + len({(i.doc_id, i.page) for i in read}), min_share)


def _side_support(
    answer: AnswerWithEvidence, state: RunState, ledger: Sequence[EvidenceItem], max_pages: int
) -> AnswerWithEvidence:
    """Supporting passages chosen per document side by how well they answer that side, sides in turns."""
    cited = {(c.doc_id, c.page) for c in answer.citations}
    queues: list[list[Citation]] = []
    for side in (s for s in state.parsed.sides if s.doc_id):
        best: dict[tuple[str, int], Unit] = {}
        for unit in sorted(side_units(ledger, state.parsed, side), key=lambda u: -u.score):
            best.setdefault((unit.item.doc_id, unit.item.page), unit)
        queues.append([
            Citation(chunk_id=u.item.chunk_id, doc_id=u.item.doc_id, page=u.item.page, quote=u.text, role="support")
            for page, u in best.items() if page not in cited and u.weighted_coverage > 0
        ])  # fmt: skip
    added: list[Citation] = []
    while len(cited) < max_pages and any(queues):
        for queue in queues:
            if queue and len(cited) < max_pages:
                citation = queue.pop(0)
                if (citation.doc_id, citation.page) not in cited:
                    cited.add((citation.doc_id, citation.page))
                    added.append(citation)
    return answer.model_copy(update={"citations": answer.citations + tuple(added)}) if added else answer


def record(
    state: RunState,
    trigger: Trigger,
    action: Action,
    queries: Sequence[str],
    added: Sequence[str],
    before: float,
    after: float,
    narration: str,
) -> IterationRecord:
    """An IterationRecord for the pass that just ran."""
    return IterationRecord(
        iteration=state.iteration,
        trigger=trigger,
        action_taken=action,
        queries=tuple(queries),
        pages_added=state.new_pages(added),
        candidates_added=tuple(added),
        confidence_before=round(before, 3),
        confidence_after=round(after, 3),
        budget_spent=state.guard.usage(),
        narration=narration,
    )


def pages_phrase(state: RunState, added: Sequence[str]) -> str:
    """The pages a pass added, and only those ("pages 7, 9"; "no new pages" when it found more of pages
    the evidence already had)."""
    pages = state.new_pages(added)
    if not pages:
        return "no new pages"
    names = {p.doc_id for p in pages}
    if len(names) == 1:
        return "page" + ("s " if len(pages) > 1 else " ") + ", ".join(str(p.page) for p in pages[:8])
    return ", ".join(f"{p.file_name} p.{p.page}" for p in pages[:8])


def evidence_items(state: RunState, chunk_ids: Sequence[str]) -> tuple[EvidenceItem, ...]:
    names = state.file_names()
    items = []
    for cid in chunk_ids:
        entry = state.ledger.get(cid)
        if entry is None:
            continue
        c = entry.hit.chunk
        items.append(
            EvidenceItem(
                chunk_id=c.chunk_id, doc_id=c.doc_id, file_name=names.get(c.doc_id, c.doc_id), page=c.page,
                text=c.text, score=round(entry.fused * state.rrf_k, 4), retriever=entry.hit.retriever,
                section_path=c.section_path, kind=c.kind, bold_terms=c.bold_terms,
            )
        )  # fmt: skip
    return tuple(items)


def finish_caveats(answer: AnswerWithEvidence, stop: StopReason, exhausted: bool) -> AnswerWithEvidence:
    """Flag an early stop on the answer itself."""
    notes = list(answer.caveats)
    if exhausted:
        notes.append(caveat(K.STOPPED_EARLY, stop, STOP_TEXT[stop], figures=(1.0,)))
    elif not answer.complete_answer_found and stop not in ("complete", "single_pass", "plan_complete"):
        notes.append(caveat(K.STOPPED_EARLY, stop, STOP_TEXT[stop]))
    return answer.model_copy(update={"caveats": merged(notes)})


NOT_ESTABLISHED = "The evidence does not establish an answer."
"""How an answer below the confidence line begins: the passages that follow are the closest found."""


def below_the_line(answer: AnswerWithEvidence, min_confidence: float) -> AnswerWithEvidence:
    """An answer under ``min_confidence`` is not claimed: it is stated as the best-supported reading, not
    complete (the loop read it so too: ``stops.claimed``), with a caveat saying it is not verified beside
    the caveats that say what may be missing; its supporting passages follow it. Only an answer with
    nothing to read (``declines``) says the evidence does not establish one and offers its passages as the
    closest ones found (support), instead of claiming them as the answer."""
    if answer.confidence >= min_confidence or not answer.answer_found:
        return answer
    if not declines(answer):
        note = caveat(K.UNCLAIMED, figures=(answer.confidence, min_confidence))
        return answer.model_copy(update={"complete_answer_found": False, "caveats": (*answer.caveats, note)})
    lines = [NOT_ESTABLISHED, "Closest passages:", answer.text]
    citations = tuple(c.model_copy(update={"role": "support"}) for c in answer.citations)
    return answer.model_copy(update={"text": "\n".join(lines), "citations": citations})


DECLINING = frozenset({
    K.NO_EVIDENCE, K.VALUE_NOT_COUNT, K.VALUE_NOT_RATIO, K.VALUES_MISSING, K.ONE_OF_TWO_VALUES,
    K.ONE_OF_TWO_TERMS, K.PERIOD_NOT_COVERED, K.NAME_NOT_COVERED, K.ANSWER_OTHER_PERIOD,
})  # fmt: skip
"""The caveats that leave an answer under the claim line with nothing to state: no evidence was retrieved,
the value read is not of the kind asked (an amount for a count or a ratio, one operand of two), or the year
or the name asked is printed nowhere in the documents: stated, it would read as the answer. Any other weakness
(no passage matches enough of the question's terms, the passages match only some key terms, miss a side, name no
period, bear on a yes/no question without saying yes or no) is stated as the best-supported reading, labelled as
not verified, with what may be missing: declining would hide the passage that answers, and the calibrated confidence tells the analyst
how far to trust it."""


def declines(answer: AnswerWithEvidence) -> bool:
    """Whether an answer under the claim line has nothing to state (``DECLINING``; a passage stating no value
    where one is asked, or no date, states nothing of the kind asked either)."""
    return not answer.answer_found or any(
        c.kind in DECLINING or (c.kind == K.TYPE_NOT_STATED and c.subject != "yes_no") for c in answer.caveats
    )


def context_tokens_of(items: Sequence[EvidenceItem]) -> int:
    return sum(estimate_tokens(i.text) for i in items)


def finished_answer(outcome: Outcome, state: RunState) -> AnswerWithEvidence:
    """The answer a run returns: the best-supported reading when the loop's last answer matched too few of
    the question's terms (``best_effort``), supporting passages added, an early stop flagged, and an answer
    under the claim line not claimed; a table's bare header row is never a supporting passage."""
    answer = other_period(uncovered_name(uncovered_period(best_effort(outcome.answer, state), state), state), state)
    final = finish_caveats(with_support(answer, state), outcome.stop_reason, outcome.exhausted)
    return without_bare_headers(below_the_line(final, state.config.generation.min_claim_confidence))
