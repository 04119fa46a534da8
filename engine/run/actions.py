"""The actions of the feedback loop: each answer signal maps to a trigger and a named action.

Signal -> trigger -> action, in a fixed order across passes (garbled context, then failed citations,
new vocabulary, pending references, comparison sides, counts, and last a generic widening). An action
is planned with its reason and run by the dispatched strategy (``strategies/dispatched.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.contracts import Action, AnswerWithEvidence, Chunk, ComparisonSide, Hit, RankedList, Trigger
from engine.contracts import CaveatKind as K
from engine.documents.text import find_references, normalize_query, stems
from engine.reading.line_items import line_item_names
from engine.reading.where import LOCATING_PART, listed_terms, where_terms
from engine.retrieval.feedback import borrowed_words
from engine.retrieval.places import Place, find_places
from engine.run.evidence import RunState
from engine.run.stops import claimed


@dataclass(frozen=True)
class PlannedAction:
    """What the next pass will do and why."""

    trigger: Trigger
    action: Action
    why: str
    run: Callable[[RunState], tuple[list[str], list[str]]]
    """Executes the action; returns (queries run, chunk ids added)."""
    checks_drift: bool = False
    detail: str = ""
    """Distinguishes two actions of the same kind (the references a two-hop pass follows)."""

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.trigger, self.action, self.detail)


def next_action(
    state: RunState, answer: AnswerWithEvidence, used: set[tuple[str, str, str]]
) -> tuple[PlannedAction | None, bool]:
    """The first applicable action in loop order; (None, True) when the only ones left were used.

    A generic widening (dense search, rephrasings) is tried only when no specific signal exists.
    """
    candidates = [c for c in _candidates(state, answer) if c is not None]
    if not candidates:
        candidates = [c for c in (_continuation(state, answer), _widen(state, answer)) if c is not None]
    for plan in candidates:
        if plan.key not in used:
            return plan, False
    return None, bool(candidates)


def _candidates(state: RunState, answer: AnswerWithEvidence) -> list[PlannedAction | None]:
    return [
        _garbled(state, answer),
        _validation(answer),
        _place(state, answer),
        None if _across_documents(state) else _vocabulary(state, answer),
        _references(state, answer),
        _uncovered_part(state, answer),
        _sides(state, answer),
        _value_inputs(state),
        _cardinality(state, answer),
    ]


def _across_documents(state: RunState) -> bool:
    """A question over several documents: new vocabulary found in one document is not the other's (its
    search of every document with that vocabulary drew off-topic passages), and each document's side
    already searches for the question's own aspect; the loop follows sides, values and references."""
    return any(side.doc_id for side in state.parsed.sides)


def _garbled(state: RunState, answer: AnswerWithEvidence) -> PlannedAction | None:
    if answer.context_structured or not answer.garbled_pages:
        return None
    pages = sorted(
        {
            (e.hit.chunk.doc_id, e.hit.chunk.page)
            for e in state.ledger.values()
            if e.hit.chunk.page in answer.garbled_pages
        }
        - state.reparsed_pages
    )
    if not pages:
        return None

    def run(s: RunState) -> tuple[list[str], list[str]]:
        done = s.adaptive_parse(pages)
        added = [cid for cid, e in s.ledger.items() if (e.hit.chunk.doc_id, e.hit.chunk.page) in set(done)]
        return [f"re-parse page {p}" for _, p in done], added

    listed = ", ".join(str(p) for _, p in pages)
    return PlannedAction("garbled_context", "adaptive_parse", f"the context looks garbled on page {listed}", run)


def _validation(answer: AnswerWithEvidence) -> PlannedAction | None:
    if not answer.validation_failures:
        return None
    n = len(answer.validation_failures)
    return PlannedAction("validation_failure", "retry_answer", f"{n} citation(s) failed the check", lambda s: ([], []))


def _place(state: RunState, answer: AnswerWithEvidence) -> PlannedAction | None:
    """A "where" part no place in the evidence answers: open the table or figure the document shows it in
    (found by its caption, its rows and the passages naming it: ``retrieval.places``), as a reader turns
    to the table the text points to. It comes before a new-vocabulary search: the part names what to
    fetch, and one page read answers it where a search only widens."""
    missing = "; ".join(c.subject for c in answer.caveats if c.kind == K.PARTS_UNCOVERED)
    parts = [p for p in state.parsed.parts if p.keywords and p.text in missing and LOCATING_PART.match(p.text)]
    if not parts or _across_documents(state):
        return None
    quotes = [(c.quote, state.ledger[c.chunk_id].hit.chunk.bold_terms) for c in answer.citations
              if c.role == "answer" and c.chunk_id in state.ledger]  # fmt: skip
    wanted: list[tuple[str, Place, list[Chunk]]] = []
    for part in parts:
        key, about = where_terms(part, listed_terms(quotes))
        for index in state.indexes:
            found = [
                p for p in find_places(index.doc.chunks, key, about) if p.reference not in state.resolved_references
            ]
            if found:  # with the passages naming it that speak of what is asked (they say what it shows)
                saying = [
                    c for c in found[0].mentions if any(2 * len(t & stems(c.text)) >= len(t) for t in [key, *about])
                ]
                wanted.append((index.doc.doc_id, found[0], saying))  # type: ignore[arg-type]
    if not wanted:
        return None

    def run(s: RunState) -> tuple[list[str], list[str]]:
        added: list[str] = []
        for doc_id, place, saying in wanted:
            added += s.follow_reference(place.reference)
            label = f"place {place.reference} {doc_id}"
            if saying and s.guard.allows_retrieval(label):
                s.guard.charge_retrieval(label)
                hits = tuple(Hit(chunk=c, score=0.9, retriever="two_hop", rank=i) for i, c in enumerate(saying, 1))
                added += s.add(RankedList(query=label, retriever="two_hop", hits=hits))
        return [f"two-hop {p.reference}" for _, p, _ in wanted], list(dict.fromkeys(added))

    names = ", ".join(f"{p.reference} (page {p.page})" for _, p, _ in wanted)
    why = f"the question asks where: {names} shows it and is not in the evidence"
    return PlannedAction("pending_references", "two_hop", why, run, detail=",".join(p.reference for _, p, _ in wanted))


def _vocabulary(state: RunState, answer: AnswerWithEvidence) -> PlannedAction | None:
    known = {normalize_query(k) for k in state.parsed.keywords}
    fresh = [k for k in answer.discovered_keywords if normalize_query(k) not in known]
    if not fresh:
        return None
    anchors = list(state.parsed.retrieval.anchor_keywords or state.parsed.keywords)
    room = max(0, state.config.loop.max_keywords - len(anchors))
    terms = anchors + fresh[:room]
    query = " ".join(terms)
    if not state.guard.is_new_query(query):
        return None

    def run(s: RunState) -> tuple[list[str], list[str]]:
        return [query], s.search(query, k=2 * s.config.retrieval.top_k)

    why = "new vocabulary in the evidence: " + ", ".join(fresh[:room][:5])
    return PlannedAction("discovered_vocabulary", "expand_keywords", why, run, checks_drift=True)


def _references(state: RunState, answer: AnswerWithEvidence) -> PlannedAction | None:
    pending = [r for r in answer.pending_references if r not in state.resolved_references and _first_hop(state, r)]
    if not pending:
        return None

    def run(s: RunState) -> tuple[list[str], list[str]]:
        added: list[str] = []
        for reference in pending:
            added += s.follow_reference(reference)
        return [f"two-hop {r}" for r in pending], added

    why = f"the answer cites {', '.join(pending)}, which was not in the evidence"
    return PlannedAction("pending_references", "two_hop", why, run, detail=",".join(pending))


def _uncovered_part(state: RunState, answer: AnswerWithEvidence) -> PlannedAction | None:
    """A part of the question no cited passage answers ("... and where is it shown?"): search for that part's
    terms with the answer's own new terms (what "it" stands for), as a reader looks up the second half of a
    question after answering the first. The whole question's search ranks passages by its first part."""
    missing = {c.subject for c in answer.caveats if c.kind == K.PARTS_UNCOVERED}
    parts = [p for p in state.parsed.parts if p.text in "; ".join(missing) and p.keywords]
    if not parts or any(side.doc_id for side in state.parsed.sides):
        return None
    known = {normalize_query(k) for k in state.parsed.keywords}
    fresh = [k for k in answer.discovered_keywords if normalize_query(k) not in known][:3]
    queries = [
        q for q in (" ".join(dict.fromkeys([*p.keywords, *fresh])) for p in parts) if state.guard.is_new_query(q)
    ]
    if not queries:
        return None

    def run(s: RunState) -> tuple[list[str], list[str]]:
        added: list[str] = []
        for query in queries:
            added += s.search(query, k=s.config.retrieval.top_k)
        return queries, added

    why = "no cited passage answers: " + "; ".join(p.text for p in parts)
    return PlannedAction(
        "incomplete_answer", "widen_scope", why, run, checks_drift=False, detail="part:" + ";".join(queries)
    )


def _first_hop(state: RunState, reference: str) -> bool:
    """Whether following ``reference`` is a second hop at most: the question names it, or a passage that a
    search found (not one a reference led to) mentions it. A reference only a fetched reference page
    mentions would be a third hop, a chain through the document rather than a lead from the question."""
    if reference in state.parsed.references:
        return True
    return any(
        entry.hit.retriever != "two_hop" and reference in find_references(entry.hit.chunk.text)
        for entry in state.ledger.values()
    )


def _sides(state: RunState, answer: AnswerWithEvidence) -> PlannedAction | None:
    sides = [s for s in state.parsed.sides if s.label in answer.uncovered_sides]
    if not sides:
        return None
    quota = max(3, state.config.retrieval.top_k // 2)

    answering = [side for side in state.parsed.sides if side not in sides and side.doc_id]
    lent = {side.label: _lent_words(state, side, answering) for side in sides}

    def run(s: RunState) -> tuple[list[str], list[str]]:
        added: list[str] = []
        queries = []
        for side in sides:
            query = " ".join(dict.fromkeys(f"{side.query} {' '.join(side.keywords)}".split()))
            docs = [ix for ix in s.indexes if ix.doc.doc_id == side.doc_id] if side.doc_id else None
            added += s.search(query, k=quota + 2, docs=docs, use_dense=True)
            queries.append(query)
            if lent[side.label] and docs:
                borrowed = " ".join([*side.keywords, *lent[side.label]])
                added += s.search(borrowed, k=quota, docs=docs)
                queries.append(borrowed)
        return queries, added

    why = "no evidence yet for " + ", ".join(s.label for s in sides) + " (a search of that side alone"
    words = sorted({w for side in sides for w in lent[side.label]})
    why += f", also with words the other side's passages use: {', '.join(words)})" if words else ")"
    return PlannedAction("side_missing", "side_quota_retrieve", why, run, detail=",".join(s.label for s in sides))


def _lent_words(state: RunState, side: ComparisonSide, answering: Sequence[ComparisonSide]) -> list[str]:
    """Words the answering sides' best passages use for the aspect, for the search of a side that has
    none (relevance feedback across the compared documents)."""
    index = state.index_of(side.doc_id) if side.doc_id else None
    if index is None or not answering:
        return []
    texts = [text for other in answering for text in state.side_passages(other)]
    parsed = state.parsed
    known = stems(" ".join([*parsed.keywords, *parsed.retrieval.expansions, *(s.label for s in parsed.sides)]))
    return borrowed_words(texts, [page.text for page in index.doc.pages], known)


def _value_inputs(state: RunState) -> PlannedAction | None:
    """Inputs of the asked arithmetic the evidence lacks: search for each by the names filings use."""
    missing = list(state.value_missing)
    if not missing:
        return None

    def run(s: RunState) -> tuple[list[str], list[str]]:
        added: list[str] = []
        queries = []
        for item in missing:
            phrase = item.rsplit(" (", 1)[0]
            query = " ".join(dict.fromkeys([phrase, *line_item_names(phrase)[:3], *s.parsed.retrieval.expansions[:3]]))
            added += s.search(query, k=s.config.retrieval.top_k)
            queries.append(query)
        return queries, added

    why = "the computation needs " + "; ".join(missing) + ", which the evidence does not hold"
    return PlannedAction("missing_value", "retrieve_inputs", why, run, detail=",".join(missing))


def _cardinality(state: RunState, answer: AnswerWithEvidence) -> PlannedAction | None:
    expected, found = answer.expected_count, answer.found_count
    if expected is None or found is None or found >= expected:
        return None

    def run(s: RunState) -> tuple[list[str], list[str]]:
        added = s.aggregate_listing(widen=1)
        query = " ".join(s.parsed.retrieval.anchor_keywords or s.parsed.keywords)
        added += s.search(query, k=s.config.retrieval.top_k + 4)
        return ["listing (broader section)", query], list(dict.fromkeys(added))

    why = f"{expected} items announced, {found} found"
    return PlannedAction("cardinality_mismatch", "broaden_section", why, run)


def _continuation(state: RunState, answer: AnswerWithEvidence) -> PlannedAction | None:
    """The passage the answer leads with runs across a page break (its section goes on over the page's
    edge): read the other part, as a reader turns the page, before searching more widely."""
    if claimed(answer, state.config.generation.min_claim_confidence):
        return None
    leading = next(
        (c for c in answer.citations if c.role == "answer"), answer.citations[0] if answer.citations else None
    )
    chunks = state.continuation_of(leading.chunk_id) if leading else ()
    if not leading or not chunks:
        return None
    query = f"continuation of page {leading.page}"

    def run(s: RunState) -> tuple[list[str], list[str]]:
        return [query], s.read_continuation(chunks)

    pages = sorted({c.page for c in chunks})
    section = chunks[0].section_path[-1]
    why = f"the cited passage's section ({section}) runs on across the page break to page {', '.join(map(str, pages))}"
    return PlannedAction(
        "passage_continues", "read_continuation", why, run, detail=",".join(c.chunk_id for c in chunks)
    )


def _widen(state: RunState, answer: AnswerWithEvidence) -> PlannedAction | None:
    if claimed(answer, state.config.generation.min_claim_confidence):
        return None
    parsed = state.parsed
    if not state.activations.is_on("dense_retrieval"):

        def dense(s: RunState) -> tuple[list[str], list[str]]:
            return [parsed.retrieval.main_query], s.search(
                parsed.retrieval.main_query, use_dense=True, k=s.config.retrieval.top_k + 4
            )

        return PlannedAction(
            "incomplete_answer",
            "enable_dense",
            "the answer is incomplete; adding meaning-based search",
            dense,
            checks_drift=True,
        )
    rewrites = [q for q in parsed.retrieval.rewrites if state.guard.is_new_query(q)][:2]
    if not rewrites:
        return None

    def widen(s: RunState) -> tuple[list[str], list[str]]:
        added: list[str] = []
        for query in rewrites:
            added += s.search(query, k=s.config.retrieval.top_k + 4)
        return rewrites, added

    return PlannedAction(
        "incomplete_answer", "widen_scope", "the answer is incomplete; trying rephrasings", widen, checks_drift=True
    )


def anchor_share(state: RunState, added: Sequence[str]) -> float | None:
    """Share of the question's anchors the new chunks hold, compared by word stems (None: nothing to compare)."""
    anchors = state.parsed.retrieval.anchor_keywords or state.parsed.keywords
    if not anchors or not added:
        return None
    text = stems(" ".join(state.ledger[cid].hit.chunk.text for cid in added if cid in state.ledger))
    held = [a for a in anchors if (a_stems := stems(a)) and 2 * len(a_stems & text) >= len(a_stems)]
    return len(held) / len(anchors)
