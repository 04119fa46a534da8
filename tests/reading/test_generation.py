"""Context assembly under a token budget, the answer step, and the programmatic citation check."""

from __future__ import annotations

from engine.config import GenerationConfig
from engine.contracts import AnswerWithEvidence, Chunk, Citation, EvidenceItem, Hit
from engine.documents.text import estimate_tokens
from engine.llm.offline import OfflineBackend
from engine.reading.generation import ContextBundle, answer_request, assemble_context, validate_citations
from engine.reading.question import parse_question


def chunk(page: int, index: int, text: str, doc: str = "a" * 64) -> Chunk:
    return Chunk(chunk_id=f"{doc[:16]}:p{page}:b{index}", doc_id=doc, page=page, index=index, text=text,
                 bboxes=((0, 0, 1, 1),), section_path=("2 Methods",), kind="text", bold_terms=("Bold",))  # fmt: skip


def hit(c: Chunk, score: float, rank: int = 1) -> Hit:
    return Hit(chunk=c, score=score, retriever="keyword", rank=rank)


A, B, C = chunk(1, 0, "alpha " * 40), chunk(2, 0, "beta " * 40), chunk(3, 0, "gamma " * 40)


def test_dedupes_by_chunk_keeping_the_best_score_strongest_first():
    bundle = assemble_context([hit(B, 0.2), hit(A, 0.5), hit(B, 0.9), hit(C, 0.5)], {A.doc_id: "r.pdf"}, 10_000)
    assert [e.chunk_id for e in bundle.evidence] == [B.chunk_id, A.chunk_id, C.chunk_id]
    assert bundle.evidence[0].score == 0.9 and bundle.evidence[0].file_name == "r.pdf"
    first = bundle.evidence[0]
    assert (first.section_path, first.bold_terms, first.kind, first.retriever) == (
        ("2 Methods",),
        ("Bold",),
        "text",
        "keyword",
    )
    assert bundle.tokens == sum(estimate_tokens(c.text) for c in (A, B, C)) and bundle.dropped == ()


def test_equal_scores_keep_input_order():
    bundle = assemble_context([hit(C, 0.5), hit(A, 0.5), hit(B, 0.5)], {}, 10_000)
    assert [e.chunk_id for e in bundle.evidence] == [C.chunk_id, A.chunk_id, B.chunk_id]
    assert bundle.evidence[0].file_name == C.doc_id  # unknown file name falls back to the id


def test_stops_at_the_token_budget_and_records_what_was_dropped():
    small = chunk(4, 1, "tiny text")
    per = estimate_tokens(A.text)
    bundle = assemble_context([hit(A, 0.9), hit(B, 0.8), hit(small, 0.1)], {}, per + estimate_tokens(small.text))
    assert [e.chunk_id for e in bundle.evidence] == [A.chunk_id, small.chunk_id]
    assert bundle.dropped == (B.chunk_id,)
    assert bundle.tokens <= per + estimate_tokens(small.text)
    empty = assemble_context([hit(A, 0.9)], {}, 0)
    assert empty.evidence == () and empty.dropped == (A.chunk_id,) and empty.tokens == 0


EVIDENCE = (
    EvidenceItem(chunk_id="d:p1:b0", doc_id="d", file_name="f.pdf", page=1,
                 text="The model uses   dropout of 0.1.\nIt trains for 12 hours."),
)  # fmt: skip


def answer_with(*citations: Citation) -> AnswerWithEvidence:
    return AnswerWithEvidence(text="x", citations=citations, confidence=0.5)


def test_valid_citations_survive_whitespace_differences():
    good = Citation(chunk_id="d:p1:b0", doc_id="d", page=1, quote="uses dropout of 0.1. It trains")
    checked = validate_citations(answer_with(good), EVIDENCE)
    assert checked.citations == (good,) and checked.validation_failures == ()


def test_citations_outside_the_evidence_or_misquoted_are_dropped_and_recorded():
    good = Citation(chunk_id="d:p1:b0", page=1, quote="It trains for 12 hours.")
    foreign = Citation(chunk_id="d:p9:b0", page=9, quote="It trains for 12 hours.")
    wrong = Citation(chunk_id="d:p1:b0", page=1, quote="It trains for 24 hours.")
    case = Citation(chunk_id="d:p1:b0", page=1, quote="it trains for 12 hours.")
    checked = validate_citations(answer_with(good, foreign, wrong, case), EVIDENCE)
    assert checked.citations == (good,)
    assert len(checked.validation_failures) == 3
    assert "not in the evidence" in checked.validation_failures[0]
    assert (checked.text, checked.confidence) == ("x", 0.5)  # nothing else is re-derived


def test_answer_request_carries_the_context_and_the_answer_shape():
    parsed = parse_question("What dropout does the model use?")
    context = ContextBundle(evidence=EVIDENCE, tokens=20)
    settings = GenerationConfig(max_answer_sentences=3, max_citations=4)
    request = answer_request("What dropout does the model use?", parsed, context, settings)
    assert request.evidence == EVIDENCE and request.parsed == parsed
    assert (request.max_sentences, request.max_citations, request.time_limit_seconds) == (3, 4, None)


def test_an_offline_answer_passes_the_citation_check_and_a_made_up_one_does_not():
    parsed = parse_question("What dropout does the model use?")
    request = answer_request("What dropout does the model use?", parsed, ContextBundle(evidence=EVIDENCE, tokens=20))
    honest = OfflineBackend().run("answer", request, AnswerWithEvidence).value
    checked = validate_citations(honest, EVIDENCE)
    assert checked.citations and checked.validation_failures == () and "0.1" in checked.text
    lied = validate_citations(answer_with(Citation(chunk_id="zz:p1:b0", page=1, quote="made up")), EVIDENCE)
    assert lied.citations == () and len(lied.validation_failures) == 1


def _ev(page: int, text: str, index: int = 0, kind: str = "text") -> EvidenceItem:
    return EvidenceItem(chunk_id=f"d:p{page}:b{index}", doc_id="d", file_name="r.pdf", page=page, text=text, kind=kind)


def test_support_cites_the_closest_passage_of_further_pages_in_evidence_order():
    from engine.reading.generation import add_support

    parsed = parse_question("How does the median filter treat turbidity spikes?")
    evidence = [
        _ev(4, "The median filter removes turbidity spikes from the readings."),
        _ev(9, "Turbidity spikes follow storms; the median filter keeps the trend."),
        _ev(2, "Median filter settings per station are listed below."),
        _ev(7, "Budget approved by the council in March."),  # shares no term: never support
        _ev(5, "Median Filtering", kind="heading"),  # headings are not quotes
    ]
    answer = AnswerWithEvidence(text="...", citations=(Citation(chunk_id="d:p4:b0", doc_id="d", page=4,
                                quote=evidence[0].text),), answer_found=True)  # fmt: skip
    supported = add_support(answer, parsed, evidence, max_pages=5, min_share=0.0)
    assert [(c.page, c.role) for c in supported.citations] == [(4, "answer"), (9, "support"), (2, "support")]
    assert supported.text == answer.text and supported.confidence == answer.confidence
    assert [c.page for c in add_support(answer, parsed, evidence, 2, 0.0).citations] == [4, 9], "page cap"
    assert add_support(answer, parsed, evidence, 1, 0.0) is answer
    strict = add_support(answer, parsed, evidence, 5, 0.9)
    assert [c.page for c in strict.citations] == [4, 9], "weak candidates below the share of the best are left out"
    assert all(c.quote in {e.text for e in evidence} for c in supported.citations)


def test_support_reads_the_glossary_words_of_the_question():
    from engine.reading.focus import enrich
    from engine.reading.generation import add_support

    parsed = enrich(parse_question("What was the FY2021 capex of the group?"))
    evidence = [_ev(3, "Purchases of property and equipment (1,234) (1,100)")]
    answer = AnswerWithEvidence(text="not found", answer_found=False)
    assert [c.page for c in add_support(answer, parsed, evidence, 5, 0.0).citations] == [3]
