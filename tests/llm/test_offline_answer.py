"""Offline extractive answers and their feedback signals on hand-made evidence."""

from __future__ import annotations

from engine.contracts import AnswerWithEvidence, EvidenceItem, TaskRequest, caveat
from engine.contracts import CaveatKind as K
from engine.documents.text import normalize_space, stem
from engine.llm.offline import OfflineBackend
from engine.reading.extractive import NOT_FOUND
from engine.reading.generation import validate_citations
from engine.reading.question import parse_question
from engine.reading.signals import looks_garbled

BACKEND = OfflineBackend()


def ev(page: int, text: str, index: int = 0, **kw) -> EvidenceItem:
    return EvidenceItem(chunk_id=f"doc:p{page}:b{index}", doc_id="doc", file_name="report.pdf", page=page,
                        text=text, **kw)  # fmt: skip


def ask(question: str, *evidence: EvidenceItem) -> AnswerWithEvidence:
    request = TaskRequest(question=question, parsed=parse_question(question), evidence=evidence)
    return BACKEND.run("answer", request, AnswerWithEvidence).value


INTRO = ev(1, "The survey measured river turbidity at twelve stations. The measured results are in Table 3.", score=0.9)
TABLE = ev(3, "Table 3: Mean turbidity per station (NTU)\nStation A 4.2 3.1\nStation B 6.8 5.0\nStation C 2.9 3.3",
           kind="table", score=0.4)  # fmt: skip
CUE = ev(1, "We apply three kinds of filtering to the turbidity readings before analysis.", 1,
         section_path=("2 Filtering",), score=0.8)  # fmt: skip
MEDIAN = ev(2, "Median smoothing. Each reading is replaced by the median of its five neighbours.", 0,
            section_path=("2 Filtering",), bold_terms=("Median smoothing.",), score=0.5)  # fmt: skip
DRIFT = ev(2, "Drift correction. A linear drift from the calibration runs is subtracted from each series.", 1,
           section_path=("2 Filtering",), bold_terms=("Drift correction.",), score=0.4)  # fmt: skip
OUTLIER = ev(3, "Outlier rejection. Readings beyond four standard deviations are dropped.", 1,
             section_path=("2 Filtering",), bold_terms=("Outlier rejection.",), score=0.3)  # fmt: skip


def test_every_citation_quotes_its_chunk_exactly():
    answer = ask("What kinds of filtering are applied to the turbidity readings?", INTRO, CUE, MEDIAN, DRIFT, TABLE)
    assert answer.citations
    texts = {e.chunk_id: normalize_space(e.text) for e in (INTRO, CUE, MEDIAN, DRIFT, TABLE)}
    for citation in answer.citations:
        assert citation.quote in texts[citation.chunk_id]
    assert validate_citations(answer, (INTRO, CUE, MEDIAN, DRIFT, TABLE)) == answer


def test_value_question_prefers_the_table_row_with_the_number():
    answer = ask("What mean turbidity does Table 3 report for Station B?", INTRO, TABLE)
    assert "6.8" in answer.text
    assert answer.citations[0].chunk_id == TABLE.chunk_id and answer.citations[0].quote == "Station B 6.8 5.0"
    assert answer.pending_references == ()  # the caption chunk is present
    assert answer.complete_answer_found and answer.confidence > 0.45  # an unverified passage stays under 0.6


def test_value_question_prefers_the_sentence_with_a_number_over_prose():
    prose = ev(4, "Capital expenditure is discussed with the board every year and capital spending remains a priority.")
    number = ev(5, "Capital expenditure was $1,264 million in 2038, compared with $1,118 million in 2037.", score=0.1)
    answer = ask("What was the capital expenditure amount in 2038?", prose, number)
    assert answer.citations[0].chunk_id == number.chunk_id and "$1,264" in answer.text


def test_pending_reference_detected_when_the_target_is_missing():
    answer = ask("What are the measured turbidity results?", INTRO)
    assert answer.pending_references == ("Table 3",)
    assert not answer.complete_answer_found
    assert caveat(K.PENDING_REFERENCE, "Table 3") in answer.caveats


def test_reference_not_pending_when_the_caption_chunk_is_present():
    answer = ask("What are the measured turbidity results?", INTRO, TABLE)
    assert answer.pending_references == ()


def test_section_reference_present_through_heading_or_section_path():
    mention = ev(1, "Training details are given in Section 5.4 of this paper about dropout.")
    heading = ev(6, "5.4 Regularization We apply dropout to every sub-layer.", section_path=("5 Training",))
    assert ask("What dropout is used in training?", mention).pending_references == ("Section 5.4",)
    assert ask("What dropout is used in training?", mention, heading).pending_references == ()
    nested = ev(6, "We apply dropout to every sub-layer.", section_path=("5 Training", "5.4 Regularization"))
    assert ask("What dropout is used in training?", mention, nested).pending_references == ()


def test_cardinality_mismatch_is_flagged_and_resolved_when_all_items_are_there():
    partial = ask("What kinds of filtering are applied to the turbidity readings?", CUE, MEDIAN, DRIFT)
    assert (partial.expected_count, partial.found_count) == (3, 2)
    assert not partial.complete_answer_found
    assert any(c.kind == K.COUNT_SHORT and c.figures[0] == 3 for c in partial.caveats)
    full = ask("What kinds of filtering are applied to the turbidity readings?", CUE, MEDIAN, DRIFT, OUTLIER)
    assert (full.expected_count, full.found_count) == (3, 3)
    assert full.text.splitlines()[0].startswith("We apply three kinds")
    assert "1. Median smoothing." in full.text and "3. Outlier rejection." in full.text
    assert full.complete_answer_found and full.confidence > partial.confidence


def test_uncovered_comparison_side_is_reported():
    heron = ev(1, "The Heron survey measured a mean turbidity of 4.1 NTU across the river.")
    egret = ev(2, "The Egret survey measured a mean turbidity of 7.3 NTU near the estuary.")
    one_side = ask("Compare the Heron survey and the Egret survey turbidity results", heron)
    assert one_side.uncovered_sides == ("Egret",) and not one_side.complete_answer_found
    both = ask("Compare the Heron survey and the Egret survey turbidity results", heron, egret)
    assert both.uncovered_sides == ()
    assert {c.chunk_id for c in both.citations} == {heron.chunk_id, egret.chunk_id}
    assert "Heron:" in both.text and "Egret:" in both.text
    assert both.confidence > one_side.confidence


def test_garbled_context_is_detected_per_page():
    shredded = ev(7, "\n".join(["Net", "1", "2", "5", "4.", "Ca", "sh", "7", "$", "9", "0", "1"]), kind="text")
    cid = ev(8, "Revenue (cid:3)(cid:4) grew (cid:5) in the period")
    clean = ev(9, "Revenue grew by 4 percent in the period, driven by the industrial segment.")
    answer = ask("How much did revenue grow?", shredded, cid, clean)
    assert not answer.context_structured
    assert answer.garbled_pages == (7, 8)
    assert ask("How much did revenue grow?", clean).context_structured


def test_garbled_detection_spares_real_tables_and_prose():
    assert not looks_garbled(TABLE.text)
    assert not looks_garbled(INTRO.text)
    assert looks_garbled("T o t a l  r e v e n u e  f o r  t h e  y e a r")


def test_no_answer_when_nothing_matches():
    answer = ask("Who won the chess championship in 1972?", INTRO, TABLE)
    assert answer.text == NOT_FOUND and not answer.answer_found and not answer.citations
    assert answer.confidence <= 0.2 and not answer.complete_answer_found
    assert ask("Who won the chess championship in 1972?").caveats == (caveat(K.NO_EVIDENCE),)


def test_discovered_keywords_come_from_relevant_evidence_not_the_question():
    defined = ev(4, "We use label smoothing regularization (LSR) during training of the turbidity model.")
    answer = ask("How is the turbidity model trained?", defined, MEDIAN)
    assert "LSR" in answer.discovered_keywords
    assert all("turbidity" not in k.lower() for k in answer.discovered_keywords)
    unrelated = ask("Who won the chess championship in 1972?", MEDIAN)
    assert unrelated.discovered_keywords == ()


def test_stemming_is_light_and_consistent():
    assert stem("readings") == stem("reading") == "read"
    assert stem("applied") == stem("apply")
    assert stem("process") == "process"


def test_a_part_of_a_multi_part_question_left_uncovered_makes_the_answer_incomplete():
    bleu = ev(8, "The big model reaches 28.4 BLEU on the translation task, as shown in Table 2.")
    caption = ev(8, "Table 2: BLEU scores of the models on the translation task.", 1)
    question = "What regularization does the model use, and where is the impact on BLEU shown?"
    answer = ask(question, bleu, caption)
    assert not answer.complete_answer_found
    assert any(c.kind == K.PARTS_UNCOVERED and "regularization" in c.subject for c in answer.caveats)
    dropout = ev(7, "Residual Dropout. We apply dropout regularization to the output of each sub-layer.", 2,
                 bold_terms=("Residual Dropout.",))  # fmt: skip
    fuller = ask(question, bleu, caption, dropout)
    assert not any(c.kind == K.PARTS_UNCOVERED for c in fuller.caveats)


def test_numbered_headings_are_not_counted_as_list_items():
    heading = ev(5, "5.1 Training Data and Batching", kind="heading")
    answer = ask("What regularization techniques are used during training?",
                 ev(5, "We employ three types of regularization during training.", 1), heading)  # fmt: skip
    assert answer.found_count == 0 and answer.expected_count == 3
    assert "Training Data" not in answer.text.split("\n", 1)[-1] or not answer.text.startswith("1.")


def test_a_term_every_passage_shares_weighs_less_than_a_rare_one():
    # "model" is in every passage (the document's subject); "dropout" only in one: it decides the answer
    question = "Which dropout rate does the model use?"
    passages = [ev(p, f"The model {text}.", 0) for p, text in ((2, "has six layers and eight heads"),
                (3, "is trained on eight GPUs"), (7, "applies a dropout rate of 0.1 to each sub-layer"))]  # fmt: skip
    answer = ask(question, *passages)
    assert answer.citations[0].page == 7


def test_the_count_cue_naming_the_listed_subject_wins():
    from engine.documents.text import listing_subject

    assert listing_subject("What regularization techniques does the paper use?") == "regularization techniques"
    assert listing_subject("List all countries that are mentioned") == "countries"
    assert listing_subject("How tall is the tower?") is None
    answer = ask("What regularization techniques does the Transformer use?",
                 ev(5, "The Transformer uses attention in three different ways.", 0),
                 ev(7, "We employ two types of regularization during training.", 0))  # fmt: skip
    assert answer.expected_count == 2


def test_format_instructions_are_not_parts_of_the_question_to_cover():
    answer = ask("What is the mean turbidity at Station B? Round the result to one decimal.", TABLE)
    assert not any(c.kind == K.PARTS_UNCOVERED for c in answer.caveats)


def test_an_announced_list_is_filled_from_run_in_items_after_the_cue():
    cue = ev(5, "We use three kinds of sensors on the survey flights.", 0, score=0.9)
    probe = ev(5, "Turbidity probe. A weighted probe on a tether measures turbidity at each station.", 1,
               bold_terms=("Turbidity probe",), score=0.8)  # fmt: skip
    camera = ev(5, "Thermal camera. An infrared camera maps water temperature along the sensor track.", 2,
                bold_terms=("Thermal camera",), score=0.7)  # fmt: skip
    imager = ev(6, "Multispectral imager. A four-band imager estimates chlorophyll.", 3,
                bold_terms=("Multispectral imager",), score=0.1)  # fmt: skip
    before = ev(3, "Property Heron 2. Flight endurance 38 min.", 4, bold_terms=("Property Heron 2",))
    answer = ask("What three kinds of sensors do the survey flights use?", cue, probe, camera, imager, before)
    assert "Multispectral imager" in answer.text, "an item need not repeat the question's words"
    assert "Property Heron 2" not in answer.text, "run-ins before the cue's page are not items"
    assert answer.found_count == 3 and answer.expected_count == 3


def test_a_list_longer_than_the_count_announced_is_not_a_verified_count():
    cue = ev(5, "We use two kinds of sensors on the survey flights.", 0, score=0.9)
    items = [ev(5, f"{name}. It is one of the sensors on the survey flights.", n, bold_terms=(name,), score=0.8)
             for n, name in enumerate(("Turbidity probe", "Thermal camera", "Multispectral imager", "Wind vane"), 1)]  # fmt: skip
    longer = ask("What kinds of sensors do the survey flights use?", cue, *items)
    assert longer.expected_count == 2 and longer.found_count == 4
    exact = ask("What kinds of sensors do the survey flights use?", cue, *items[:2])
    assert exact.found_count == 2 and longer.confidence < exact.confidence * 0.6, (longer.confidence, exact.confidence)


def test_a_question_whose_rare_term_no_passage_holds_is_not_answered_but_shows_the_closest_passages():
    spec = ev(2, "The aircraft has a wingspan of 1.9 metres and a take-off mass of 4.1 kilograms.", 0)
    other = ev(3, "Each aircraft flies at most two pods on a survey day.", 1)
    answer = ask("What is the purchase price of one aircraft?", spec, other)
    assert answer.text == NOT_FOUND and not answer.answer_found
    assert answer.citations and all(c.role == "support" for c in answer.citations)
    assert {c.page for c in answer.citations} <= {2, 3}
    priced = ask("What is the purchase price of one aircraft?", spec,
                 ev(4, "The purchase price of one aircraft is 48,000 euros.", 2))  # fmt: skip
    assert priced.answer_found and priced.citations[0].page == 4 and priced.citations[0].role == "answer"


def test_fiscal_labels_match_the_years_documents_write():
    from engine.reading.passages import term_stems

    assert term_stems(["FY2018", "FY19", "fiscal"]) == [{"2018"}, {"2019"}, {"fiscal"}]
