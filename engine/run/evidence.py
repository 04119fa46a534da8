"""The evidence ledger of one run and the retrieval actions that fill it.

Every retrieval goes through ``RunState`` so the ``LoopGuard`` is asked before and charged after,
and every chunk remembers the pass that first found it; every backend call goes through its
``llm.call`` (``engine.run.calls``). Context for an answer call is built from the ledger: chunks
ordered by the reciprocal-rank sum (constant ``retrieval.rrf_k``) over every list they appeared in.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from engine.config import EngineConfig
from engine.contracts import (
    Activations,
    CensusResult,
    Chunk,
    ComparisonSide,
    Hit,
    ListingResult,
    PageRef,
    PageScore,
    ParsedQuestion,
    ProgressEvent,
    RankedList,
    RetrieverName,
)
from engine.documents.text import listing_subject, stems
from engine.reading.generation import ContextBundle, assemble_context
from engine.reading.lists import announces
from engine.reading.passages import mark_coverage, side_units, split_units
from engine.retrieval.continuation import announced, continuation
from engine.retrieval.index import DocumentIndex
from engine.retrieval.listing import aggregate_listing, section_pages_for
from engine.retrieval.two_hop import reference_hits, resolve_reference
from engine.run.budget import LoopGuard
from engine.run.calls import LlmCalls

logger = logging.getLogger(__name__)

TARGETED: frozenset[RetrieverName] = frozenset({"two_hop", "listing"})
"""Retrievers that fetch a page on purpose (a reference's target, the listed section), not by search; a
cited passage's continuation is cited beside it (``steps.with_support``), not in their place."""


def side_holds(side: ComparisonSide, chunk: Chunk) -> bool:
    """A chunk belongs to a side: it is in the side's document, or (one document) it names the side."""
    if side.doc_id is not None:
        return chunk.doc_id == side.doc_id
    label = stems(side.label)
    return bool(label) and 2 * len(label & stems(chunk.text)) >= len(label)


@dataclass
class LedgerEntry:
    """One chunk of evidence and how it was found."""

    hit: Hit
    fused: float
    first_pass: int


@dataclass
class RunState:
    """Mutable state of one run, private to the composition layer."""

    question: str
    parsed: ParsedQuestion
    indexes: list[DocumentIndex]
    config: EngineConfig
    llm: LlmCalls
    activations: Activations
    pdf_bytes: Callable[[str], bytes]
    progress: Callable[[ProgressEvent], None] | None = None
    top_k: int | None = None
    """A fixed number of chunks per search (the eval's peer baseline); None: the configured sizes."""
    side_quota: int = 0
    """Chunks each side of a comparison searches for on its own (0: no side searches)."""
    ledger: dict[str, LedgerEntry] = field(default_factory=dict)
    page_scores: dict[tuple[str, int, RetrieverName], float] = field(default_factory=dict)
    queries_run: list[str] = field(default_factory=list)
    listing: ListingResult | None = None
    census: tuple[CensusResult, ...] = ()
    """The labelled elements a census question counts, per document that holds any."""
    resolved_references: set[str] = field(default_factory=set)
    reparsed_pages: set[tuple[str, int]] = field(default_factory=set)
    value_missing: list[str] = field(default_factory=list)
    """Inputs of the arithmetic the question asks for that the evidence does not hold yet."""
    value_chunks: list[str] = field(default_factory=list)
    """Chunks the value searches found, best first: the pages a value is read from first."""
    last_hits: list[str] = field(default_factory=list)
    """Every chunk the last search returned (new or already held), best first."""
    iteration: int = 0
    layer1_indexes: list[DocumentIndex] = field(default_factory=list)
    """The documents as loaded (``indexes`` may hold adaptively re-parsed pages)."""

    def __post_init__(self) -> None:
        self.layer1_indexes = list(self.indexes)

    # ---- bookkeeping ------------------------------------------------------------------------

    @property
    def guard(self) -> LoopGuard:
        """The run's budget (shared with the backend calls)."""
        return self.llm.guard

    @property
    def rrf_k(self) -> int:
        return self.config.retrieval.rrf_k

    def notify(self, stage: str, message: str) -> None:
        if self.progress is not None:
            self.progress(ProgressEvent(stage=stage, message=message, iteration=self.iteration))  # type: ignore[arg-type]

    def file_names(self) -> dict[str, str]:
        return {ix.doc.doc_id: ix.doc.file_name for ix in self.indexes}

    def index_of(self, doc_id: str) -> DocumentIndex | None:
        return next((ix for ix in self.indexes if ix.doc.doc_id == doc_id), None)

    def layer1_index_of(self, doc_id: str) -> DocumentIndex | None:
        """The document as the library parsed it, before any adaptive re-parse of its pages (the table
        finder's cells lose the header lines a value's columns are read from)."""
        return next((ix for ix in self.layer1_indexes if ix.doc.doc_id == doc_id), None) or self.index_of(doc_id)

    def add(self, ranked: RankedList) -> list[str]:
        """Merge a ranked list into the ledger; returns the chunk ids it added."""
        added: list[str] = []
        for hit in ranked.hits:
            key = (hit.chunk.doc_id, hit.chunk.page, hit.retriever)
            self.page_scores[key] = max(self.page_scores.get(key, float("-inf")), hit.score)
            weight = 1.0 / (self.rrf_k + hit.rank)
            entry = self.ledger.get(hit.chunk.chunk_id)
            if entry is None:
                self.ledger[hit.chunk.chunk_id] = LedgerEntry(hit=hit, fused=weight, first_pass=self.iteration)
                added.append(hit.chunk.chunk_id)
            else:
                entry.fused += weight
        return added + self._announced_blocks(ranked, added)

    def _announced_blocks(self, ranked: RankedList, added: Sequence[str]) -> list[str]:
        """The blocks that new passages announce with a closing colon (the list under a lead, across a page
        break) join the evidence beside them."""
        blocks: list[Hit] = []
        for hit in (h for h in ranked.hits if h.chunk.chunk_id in added):
            index = self.index_of(hit.chunk.doc_id)
            # a list asked for is read whole, and so is one its lead announces ("the following steps:", "include:"):
            # quoting the lead with one item would state a part of the list as all of it; otherwise one block
            whole = self.parsed.intent == "listing" or announces(hit.chunk.text)
            for n, block in enumerate(announced(hit.chunk, _page_reader(index), whole) if index else (), start=1):
                if block.chunk_id not in self.ledger and all(b.chunk.chunk_id != block.chunk_id for b in blocks):
                    # ranked just below its lead, one place further each: a long list does not crowd the evidence
                    blocks.append(hit.model_copy(update={"chunk": block, "rank": hit.rank + n}))
        return self.add(ranked.model_copy(update={"hits": tuple(blocks)})) if blocks else []

    def replace_chunks(self, chunks: Sequence[Chunk]) -> None:
        """Swap in re-parsed chunks of some pages (adaptive parsing), keeping their pass numbers."""
        pages = {(c.doc_id, c.page) for c in chunks}
        dropped = [cid for cid, e in self.ledger.items() if (e.hit.chunk.doc_id, e.hit.chunk.page) in pages]
        best = max((self.ledger[cid].fused for cid in dropped), default=1.0 / self.rrf_k)
        first = min((self.ledger[cid].first_pass for cid in dropped), default=self.iteration)
        for cid in dropped:
            del self.ledger[cid]
        for rank, chunk in enumerate(chunks, start=1):
            hit = Hit(chunk=chunk, score=best, retriever="adaptive", rank=rank)
            self.ledger[chunk.chunk_id] = LedgerEntry(hit=hit, fused=best, first_pass=first)

    def context(self, max_tokens: int | None) -> ContextBundle:
        """The strongest evidence under ``max_tokens`` (None: the whole ledger, strongest first), each
        side's best passages first, taken in turn, so the answer sees every side the ledger holds."""
        ordered = sorted(self.ledger.values(), key=lambda e: (-e.fused, e.first_pass, e.hit.chunk.chunk_id))
        hits = [e.hit.model_copy(update={"score": round(e.fused * self.rrf_k, 4)}) for e in ordered]
        return assemble_context(hits, self.file_names(), max_tokens, reserved=self.side_leaders(ordered))

    def side_leaders(self, ordered: Sequence[LedgerEntry], per_side: int = 3) -> list[str]:
        """The best ``per_side`` chunks of each side, in turns: a document side's chunks ranked by how
        well their passages answer the side (from the whole ledger, whatever pass found them); a side
        of one document by retrieval among the chunks naming its label."""
        if len(self.parsed.sides) < 2:
            return []
        lists = [self._side_best(side, ordered)[:per_side] for side in self.parsed.sides]
        turns = [cid for rank in range(per_side) for chunks in lists if rank < len(chunks) for cid in [chunks[rank]]]
        return list(dict.fromkeys(turns))

    def by_pass(self) -> ContextBundle:
        """Every retrieved chunk in the order supporting citations use: pages fetched on purpose (a
        referenced table, the listed section) first, then by pass, then strongest.

        Later searches (new vocabulary, rephrasings) reach the answer's own citations; the supporting
        pages otherwise keep the first retrieval's order.
        """
        ordered = sorted(
            self.ledger.values(),
            key=lambda e: (e.hit.retriever not in TARGETED, e.first_pass, -e.fused, e.hit.chunk.chunk_id),
        )
        hits = [e.hit.model_copy(update={"score": float(len(ordered) - i)}) for i, e in enumerate(ordered)]
        return assemble_context(hits, self.file_names(), None)

    def question_strength(self, chunk_ids: Sequence[str]) -> float:
        """The largest share of the question's terms (and their document words) one passage of the
        chunks holds."""
        hits = [self.ledger[cid].hit for cid in chunk_ids if cid in self.ledger]
        units = split_units(assemble_context(hits, self.file_names(), None).evidence)
        terms = self.parsed.keywords + self.parsed.retrieval.expansions
        mark_coverage(units, self.parsed.model_copy(update={"keywords": terms}))
        return max((u.coverage for u in units), default=0.0)

    def side_passages(self, side: ComparisonSide, count: int = 2) -> list[str]:
        """The texts of the ``count`` chunks that best answer one side, from the whole ledger."""
        ordered = sorted(self.ledger.values(), key=lambda e: (-e.fused, e.first_pass, e.hit.chunk.chunk_id))
        return [self.ledger[cid].hit.chunk.text for cid in self._side_best(side, ordered)[:count]]

    def _side_best(self, side: ComparisonSide, ordered: Sequence[LedgerEntry]) -> list[str]:
        if side.doc_id is None:
            return [e.hit.chunk.chunk_id for e in ordered if side_holds(side, e.hit.chunk)]
        items = assemble_context([e.hit for e in ordered if e.hit.chunk.doc_id == side.doc_id], self.file_names(), None)
        best: dict[str, float] = {}
        for unit in side_units(items.evidence, self.parsed, side):
            best[unit.item.chunk_id] = max(best.get(unit.item.chunk_id, float("-inf")), unit.score)
        return sorted(best, key=lambda cid: -best[cid])

    def new_pages(self, chunk_ids: Iterable[str]) -> tuple[PageRef, ...]:
        """The pages of ``chunk_ids`` that no earlier pass had reached (the pages this pass added)."""
        ids = list(chunk_ids)
        fresh = set(ids)
        earlier = {
            (e.hit.chunk.doc_id, e.hit.chunk.page)
            for cid, e in self.ledger.items()
            if cid not in fresh and e.first_pass < self.iteration
        }
        return tuple(p for p in self.pages_of(ids) if (p.doc_id, p.page) not in earlier)

    def pages_of(self, chunk_ids: Iterable[str]) -> tuple[PageRef, ...]:
        names = self.file_names()
        seen: dict[tuple[str, int], None] = {}
        for cid in chunk_ids:
            chunk = self.ledger[cid].hit.chunk
            seen.setdefault((chunk.doc_id, chunk.page), None)
        return tuple(PageRef(doc_id=d, file_name=names.get(d, d), page=p) for d, p in seen)

    def page_score_list(self) -> tuple[PageScore, ...]:
        return tuple(
            PageScore(doc_id=d, page=p, retriever=r, score=round(s, 4))
            for (d, p, r), s in sorted(self.page_scores.items())
        )

    # ---- retrieval actions ------------------------------------------------------------------

    def search(
        self,
        query: str,
        *,
        k: int | None = None,
        docs: Sequence[DocumentIndex] | None = None,
        use_dense: bool | None = None,
        section_hint: str | None = None,
        pages: frozenset[int] | None = None,
    ) -> list[str]:
        """Run one fused query on each document the budget allows; returns the new chunk ids."""
        query = query.strip()
        if not query:
            return []
        dense = self.activations.is_on("dense_retrieval") if use_dense is None else use_dense
        added: list[str] = []
        self.last_hits = []
        for index in docs or self.indexes:
            if not self.guard.allows_retrieval(query):
                break
            ranked = index.search(query, "fused", k=k, pages=pages, section_hint=section_hint, use_dense=dense)
            self.guard.charge_retrieval(query, from_cache=ranked.from_cache)
            added += self.add(ranked)
            self.last_hits += [h.chunk.chunk_id for h in ranked.hits]
        self.queries_run.append(query)
        return added

    def follow_reference(self, reference: str) -> list[str]:
        """Two-hop: add the page holding ``reference`` ("Table 3") in each document that has it."""
        added: list[str] = []
        self.resolved_references.add(reference)
        for index in self.indexes:
            if resolve_reference(index.doc, reference) is None:
                continue
            if not self.guard.allows_retrieval(f"two-hop {reference} {index.doc.doc_id}"):
                break
            ranked = reference_hits(index, reference)
            self.guard.charge_retrieval(f"two-hop {reference} {index.doc.doc_id}")
            added += self.add(ranked)
        return added

    def continuation_of(self, chunk_id: str) -> tuple[Chunk, ...]:
        """The chunks not in the evidence yet that continue this chunk's section across a page break."""
        entry = self.ledger.get(chunk_id)
        index = self.index_of(entry.hit.chunk.doc_id) if entry else None
        if entry is None or index is None:
            return ()
        return tuple(c for c in continuation(entry.hit.chunk, _page_reader(index)) if c.chunk_id not in self.ledger)

    def read_continuation(self, chunks: Sequence[Chunk]) -> list[str]:
        """Add the continuation of a cited passage to the evidence (one retrieval call)."""
        label = "continuation " + " ".join(c.chunk_id for c in chunks)
        if not chunks or not self.guard.allows_retrieval(label):
            return []
        self.guard.charge_retrieval(label)
        hits = tuple(Hit(chunk=c, score=1.0, retriever="continuation", rank=i) for i, c in enumerate(chunks, 1))
        return self.add(RankedList(query=label, retriever="continuation", hits=hits))

    def aggregate_listing(self, widen: int = 0) -> list[str]:
        """Listing: collect the enumeration of the question's section; ``widen`` adds pages around it."""
        terms = tuple(self.parsed.retrieval.anchor_keywords or self.parsed.keywords)
        added: list[str] = []
        for index in self.indexes:
            label = f"listing {' '.join(terms)} {index.doc.doc_id} +{widen}"
            if not self.guard.allows_retrieval(label):
                break
            subject = listing_subject(self.parsed.original_question)
            pages = section_pages_for(index.doc, terms, self.parsed.retrieval.section_hint, subject)
            if not pages:
                pages = self._top_pages(index.doc.doc_id, 2)
            if widen and pages:
                lo, hi = max(1, min(pages) - widen), min(index.doc.total_pages, max(pages) + widen)
                pages = tuple(range(lo, hi + 1))
            result = aggregate_listing(index.doc, pages, terms)
            self.guard.charge_retrieval(label)
            self.listing = _merge_listing(self.listing, result)
            added += self.add(_listing_ranked(index, result, terms))
        return added

    def _top_pages(self, doc_id: str, n: int) -> tuple[int, ...]:
        ordered = sorted((e for e in self.ledger.values() if e.hit.chunk.doc_id == doc_id), key=lambda e: -e.fused)
        pages: dict[int, None] = {}
        for entry in ordered:
            pages.setdefault(entry.hit.chunk.page, None)
            if len(pages) >= n:
                break
        return tuple(pages)

    def adaptive_parse(self, pages: Iterable[tuple[str, int]]) -> list[tuple[str, int]]:
        """Re-parse the given (doc_id, page) pairs with the table finder; returns the pages re-parsed."""
        from engine.documents.parsing import reparse_pages  # parsing imports PyMuPDF; only loaded when used

        todo: dict[str, list[int]] = {}
        for doc_id, page in pages:
            if (doc_id, page) not in self.reparsed_pages:
                todo.setdefault(doc_id, []).append(page)
        done: list[tuple[str, int]] = []
        for doc_id, page_list in todo.items():
            index = self.index_of(doc_id)
            if index is None:
                continue
            new_doc = reparse_pages(self.pdf_bytes(doc_id), index.doc, page_list, self.config)
            new_index = index.with_document(new_doc)
            self.indexes[self.indexes.index(index)] = new_index
            self.replace_chunks(new_index.chunks_on_pages(page_list))
            done += [(doc_id, p) for p in page_list]
            self.reparsed_pages.update((doc_id, p) for p in page_list)
        return done


def _page_reader(index: DocumentIndex) -> Callable[[int], Sequence[Chunk]]:
    """The chunks of one page of ``index``, in position order."""
    return lambda page: index.chunks_on_pages([page])


def _merge_listing(old: ListingResult | None, new: ListingResult) -> ListingResult:
    if old is None:
        return new
    labels = {i.label.lower() for i in old.items}
    items = old.items + tuple(i for i in new.items if i.label.lower() not in labels)
    expected = old.expected_count if old.expected_count is not None else new.expected_count
    return ListingResult(
        items=items,
        expected_count=expected,
        cue=old.cue or new.cue,
        pages=tuple(sorted(set(old.pages) | set(new.pages))),
    )


def _listing_ranked(index: DocumentIndex, result: ListingResult, terms: Sequence[str]) -> RankedList:
    """The chunks that hold the listing's items and its cue, as a ranked list."""
    wanted: dict[str, None] = {item.chunk_id: None for item in result.items}
    if result.cue:
        cue = result.cue[:60]
        for chunk in index.chunks_on_pages(result.pages):
            if cue in " ".join(chunk.text.split()):
                wanted = {chunk.chunk_id: None, **wanted}
                break
    hits: list[Hit] = []
    for chunk_id in wanted:
        item = index.chunk(chunk_id)
        if item is not None:
            hits.append(Hit(chunk=item, score=1.0, retriever="listing", rank=len(hits) + 1))
    return RankedList(query="listing " + " ".join(terms), retriever="listing", hits=tuple(hits))
