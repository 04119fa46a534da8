"""The answer to a census question, stated by code from the labels it counted, whichever backend runs.

"How many figures are in the appendix?" is answered by the count of distinct "Figure N" captions in
the appendix, each cited where it stands, not by a model's reading of the passages that mention some.
"""

from __future__ import annotations

from engine.contracts import AnswerWithEvidence, CensusResult, Citation, Hit, RankedList, caveat
from engine.contracts import CaveatKind as K
from engine.reading.census import asked_census, scope_pages, scope_phrase, take_census
from engine.run.evidence import RunState

CENSUS_CONFIDENCE = 0.8
"""Every counted label is cited; what a count of labels cannot see (an element without a caption) is
said in a caveat, so the count is claimed but not at full confidence."""

MAX_CITED_ITEMS = 15
"""Elements cited one by one; the answer's text names every element counted, with its page."""

_PLURAL = {"Appendix": "appendices"}


def count_labels(state: RunState) -> list[str]:
    """Count the captions and headings of the kind a census question asks for, in its scope, in every
    document (``state.census``); their chunks join the evidence. Nothing when the question is no census
    or no document labels any such element (the listing pattern then reads the section as for any list)."""
    ask = asked_census(state.parsed.original_question)
    if ask is None:
        return []
    added: list[str] = []
    for index in state.indexes:
        label = f"census {ask.kind} {ask.scope or 'document'} {index.doc.doc_id}"
        if not state.guard.allows_retrieval(label):
            break
        state.guard.charge_retrieval(label)
        items = take_census(index.doc, ask.kind, scope_pages(index.doc, ask.scope))
        if not items:
            continue
        state.census += (CensusResult(doc_id=index.doc.doc_id, kind=ask.kind, scope=ask.scope, items=items),)
        by_id = {c.chunk_id: c for c in index.doc.chunks}
        hits = tuple(
            Hit(chunk=by_id[item.chunk_id], score=1.0, retriever="listing", rank=rank)
            for rank, item in enumerate(items, 1)
        )  # fmt: skip
        added += state.add(RankedList(query=label, retriever="listing", hits=hits))
    return added


def census_answer(state: RunState) -> AnswerWithEvidence:
    """The counted elements of every document that holds any: the count, then one line per element."""
    names = state.file_names()
    several = len(state.census) > 1
    lines: list[str] = []
    citations: list[Citation] = []
    for result in state.census:
        head = _count_phrase(result)
        lines.append(f"{names.get(result.doc_id, result.doc_id)}: {head}" if several else head)
        lines += [f"- {item.label} (p. {item.page})" for item in result.items]
        citations += [
            Citation(chunk_id=item.chunk_id, doc_id=result.doc_id, page=item.page, quote=item.label)
            for item in result.items[:MAX_CITED_ITEMS]
        ]  # fmt: skip
    kind = state.census[0].kind
    note = caveat(K.CENSUS_LABELS_ONLY, kind, _plural(kind))
    return AnswerWithEvidence(
        text="\n".join(lines),
        citations=tuple(citations),
        complete_answer_found=True,
        confidence=CENSUS_CONFIDENCE,
        caveats=(note,),
        found_count=sum(len(r.items) for r in state.census),
    )


def _count_phrase(result: CensusResult) -> str:
    count = len(result.items)
    noun = result.kind.lower() if count == 1 else _plural(result.kind)
    return f"{count} {noun} {scope_phrase(result.scope)}:"


def _plural(kind: str) -> str:
    return _PLURAL.get(kind, kind.lower() + "s")


__all__ = ["CENSUS_CONFIDENCE", "census_answer", "count_labels"]
