"""A list is its lead sentence and the items under it; a where-part is answered by a place; made-up passages."""

from __future__ import annotations

from engine.contracts import AnswerWithEvidence, EvidenceItem, TaskRequest, caveat
from engine.contracts import CaveatKind as K
from engine.llm.offline import OfflineBackend
from engine.reading.lists import counts_without_items, inline_items, items_after, split_inline
from engine.reading.passages import split_units
from engine.reading.question import parse_question
from engine.run.steps import NOT_ESTABLISHED, below_the_line

BACKEND = OfflineBackend()
SECTION = ("3 Maintenance",)


def ev(page: int, block: int, text: str, **kw) -> EvidenceItem:
    kw.setdefault("section_path", SECTION)
    return EvidenceItem(chunk_id=f"doc:p{page}:b{block}", doc_id="doc", file_name="manual.pdf", page=page,
                        text=text, **kw)  # fmt: skip


def ask(question: str, *evidence: EvidenceItem) -> AnswerWithEvidence:
    request = TaskRequest(question=question, parsed=parse_question(question), evidence=evidence)
    return BACKEND.run("answer", request, AnswerWithEvidence).value


LEAD = ev(4, 7, "The pump station crew carries out the following checks each week:", score=0.9)
FLOAT_CAPTION = ev(5, 0, "Table 6: Spare parts held at each station.", kind="caption", score=0.2)
FLOAT_ROW = ev(5, 1, "Impeller | 2 | 4", score=0.2)
ITEM_A = ev(5, 2, "Seal inspection. The shaft seals are checked for leaks. Worn seals are logged.",
            bold_terms=("Seal inspection.",), score=0.3)  # fmt: skip
ITEM_B = ev(5, 3, "• Bearing temperature is read on each motor.", score=0.2)
ITEM_C = ev(5, 4, "• The float switches are lifted by hand to test the alarm.", score=0.1)
AFTER = ev(5, 5, "Monthly work is planned by the district office and is not part of this routine.", score=0.3)
HEADING = ev(5, 6, "4 Staffing", kind="heading", section_path=("4 Staffing",))


def test_the_lead_sentence_is_answered_with_its_items_across_a_page_break_and_a_float():
    evidence = (LEAD, FLOAT_CAPTION, FLOAT_ROW, ITEM_A, ITEM_B, ITEM_C, AFTER, HEADING)
    answer = ask("Which weekly checks does the pump station crew carry out?", *evidence)
    lines = answer.text.splitlines()
    assert lines[0] == LEAD.text
    assert lines[1].startswith("1. Seal inspection.") and "Worn seals are logged." in lines[1]  # two sentences
    assert lines[2].startswith("2. Bearing temperature") and lines[3].startswith("3. The float switches")  # one marker
    assert len(lines) == 4, "the plain paragraph after the items ends the list; the table between is skipped"
    assert {c.page for c in answer.citations} >= {4, 5}
    assert answer.found_count == 3


def test_items_stop_at_a_heading_and_at_another_section():
    units = split_units([LEAD, ev(5, 0, "5 Staffing", kind="heading"), ITEM_B])
    lead = next(u for u in units if u.item is LEAD)
    assert items_after(lead, units) == []
    other = ev(5, 1, "• A check of another section.", section_path=("9 Other",))
    units = split_units([LEAD, other])
    assert items_after(next(u for u in units if u.item is LEAD), units) == []


def test_paragraphs_opening_with_title_case_heads_are_items_though_not_bold():
    lead = ev(6, 1, "The station pumps have three known weaknesses:", score=0.9)
    items = [ev(6, 2, "Seal Wear. The shaft seals wear within a season in salt water.", score=0.3),
             ev(6, 3, "Intake Clogging. Weed blocks the intake after storms.", score=0.2),
             ev(6, 4, "Cold Starts. Below freezing the motor stalls on its first start.", score=0.1)]  # fmt: skip
    answer = ask("What weaknesses do the station pumps have?", lead, *items)
    lines = answer.text.splitlines()
    assert lines[0] == lead.text and [line[:13] for line in lines[1:]] == ["1. Seal Wear.", "2. Intake Clo",
                                                                            "3. Cold Start"], lines  # fmt: skip


def test_a_heading_right_over_list_items_leads_them():
    parts = ("6 Spare Parts",)
    heading = ev(7, 0, "6 Spare Parts", kind="heading", section_path=parts, score=0.9)
    items = [ev(7, 1, "• Impeller, bronze", kind="list_item", section_path=parts, score=0.1),
             ev(7, 2, "• Shaft seal kit", kind="list_item", section_path=parts, score=0.1),
             ev(7, 3, "• Float switch", kind="list_item", section_path=parts, score=0.1)]  # fmt: skip
    lines = ask("List the spare parts of the pump.", heading, *items).text.splitlines()
    assert lines[1:] == ["1. Impeller, bronze", "2. Shaft seal kit", "3. Float switch"], lines


def test_a_lead_with_no_items_takes_the_one_passage_it_announces():
    table = ev(4, 8, "Flow meters are calibrated against the reference tank at the start of each week.")
    units = split_units([LEAD, table])
    lead = next(u for u in units if u.item is LEAD)
    assert [u.item.chunk_id for u in items_after(lead, units)] == [table.chunk_id]
    far = ev(6, 3, "A paragraph two pages on is not what the lead announces.")
    units = split_units([LEAD, far])
    assert items_after(next(u for u in units if u.item is LEAD), units) == []


def test_items_written_in_one_sentence_are_split():
    text = (
        "The levy is charged as follows: (a) a fixed fee per connection; (b) a rate per cubic metre; (c) a surcharge."
    )
    lead, items = split_inline(text) or ("", [])
    assert lead == "The levy is charged as follows:"
    assert items == ["(a) a fixed fee per connection", "(b) a rate per cubic metre", "(c) a surcharge"]
    assert inline_items("See (a) above.") == []
    answer = ask("How is the levy charged?", ev(2, 0, text))
    assert answer.text.splitlines()[1:] == ["1. (a) a fixed fee per connection", "2. (b) a rate per cubic metre",
                                            "3. (c) a surcharge"]  # fmt: skip


def test_a_counted_list_in_one_sentence_ends_at_its_last_item():
    text = (
        "The plant grew, and we group its history into three phases: Pilot, Expansion, and Export, as Figure 2 shows."
    )
    lead, items = split_inline(text) or ("", [])
    assert lead.endswith("three phases:") and items == ["Pilot", "Expansion", "Export"]
    assert split_inline("It has two parts: the pump, the valve and the float.") is None, "three named, two counted"


def test_the_sentence_naming_the_counted_items_answers_before_one_that_only_counts_them():
    counts = ev(1, 0, "This review of the plant's history summarizes three phases of the plant over forty years.",
                score=0.9)  # fmt: skip
    names = ev(2, 0, "We group the plant's history into three phases: Pilot, Expansion, and Export, as Figure 2 "
               "shows.", score=0.6)  # fmt: skip
    answer = ask("What are the three phases of the plant's history?", counts, names)
    assert answer.text.splitlines()[1:] == ["1. Pilot", "2. Expansion", "3. Export"], answer.text


TERMS = ev(7, 2, "We use two ways of damping vibration in the rotor:", section_path=("6 Damping",), score=0.8)
DAMPER = ev(8, 0, "Tuned mass dampers. A small mass on springs absorbs the blade-pass frequency.",
            section_path=("6 Damping",), bold_terms=("Tuned mass dampers.",), score=0.5)  # fmt: skip
SHIMS = ev(8, 1, "Elastomer shims. Rubber layers under the bearing housings soak up vibration energy.",
           section_path=("6 Damping",), bold_terms=("Elastomer shims.",), score=0.4)  # fmt: skip
RESULT = ev(11, 3, "Figure 9 compares the noise level with and without the dampers and the shims; the dampers "
            "lower the noise level most.", section_path=("8 Results",), score=0.3)  # fmt: skip
ELSEWHERE = ev(10, 1, "The noise level of the rotor was measured at four speeds.", section_path=("7 Setup",),
               score=0.35)  # fmt: skip


def test_a_where_part_is_answered_by_the_place_that_shows_the_listed_items():
    answer = ask("Which methods of damping vibration are used, and where do they show the noise level?",
                 TERMS, DAMPER, SHIMS, RESULT, ELSEWHERE)  # fmt: skip
    assert "1. Tuned mass dampers." in answer.text and "2. Elastomer shims." in answer.text
    assert answer.text.splitlines()[-1].startswith("Figure 9 compares the noise level"), "the place answers where"
    assert 11 in {c.page for c in answer.citations}
    assert not any(c.kind == K.PARTS_UNCOVERED for c in answer.caveats)


def test_a_where_part_with_no_place_in_the_evidence_stays_uncovered():
    answer = ask("Which methods of damping vibration are used, and where do they show the noise level?",
                 TERMS, DAMPER, SHIMS, ELSEWHERE)  # fmt: skip
    assert any(c.kind == K.PARTS_UNCOVERED for c in answer.caveats), "a sentence naming no figure says not where"


def test_a_count_cue_about_something_else_announces_nothing():
    other_cue = ev(2, 0, "The rotor has three blades of carbon fibre.", section_path=("2 Rotor",), score=0.9)
    answer = ask("List the ways of damping vibration.", other_cue, TERMS, DAMPER, SHIMS)
    assert answer.expected_count == 2 and answer.found_count == 2
    assert not any(c.kind == K.COUNT_SHORT for c in answer.caveats)


def test_an_answer_whose_passages_cover_the_question_is_stated_under_the_claim_line():
    base = AnswerWithEvidence(text="The crew checks the seals.", answer_found=True, confidence=0.3,
                              caveats=(caveat(K.COUNT_SHORT, figures=(3.0, 2.0)),))  # fmt: skip
    stated = below_the_line(base, 0.6)
    assert stated.text == base.text and any(c.kind == K.UNCLAIMED for c in stated.caveats)
    assert not stated.complete_answer_found
    weak = base.model_copy(update={"caveats": (caveat(K.PARTIAL_MATCH),)})
    partial = below_the_line(weak, 0.6)
    assert partial.text == base.text, "a reading matching only some key terms is stated, labelled"
    assert {c.kind for c in partial.caveats} == {K.PARTIAL_MATCH, K.UNCLAIMED}
    unmatched = below_the_line(base.model_copy(update={"caveats": (caveat(K.UNMATCHED),)}), 0.6)
    assert unmatched.text == base.text, "the best-effort reading of passages matching too few terms is stated"
    assert {c.kind for c in unmatched.caveats} == {K.UNMATCHED, K.UNCLAIMED}
    wrong_kind = base.model_copy(update={"caveats": (caveat(K.VALUE_NOT_COUNT),)})
    declined = below_the_line(wrong_kind, 0.6)
    assert declined.text.startswith(NOT_ESTABLISHED) and declined.text.endswith(base.text)


def test_a_question_asking_where_in_the_document_names_the_section_and_page():
    heading = ev(6, 0, "4.2 Bearing care", kind="heading", section_path=("Bearing care",))
    text = ev(6, 1, "Bearings are greased every 500 running hours with a lithium-based grease.",
              section_path=("Bearing care",), score=0.8)  # fmt: skip
    answer = ask("Which section describes how the bearings are greased?", heading, text)
    assert answer.text.startswith("4.2 Bearing care (page 6): Bearings are greased"), answer.text
    plain = ask("How often are the bearings greased?", heading, text)
    assert not plain.text.startswith("4.2 Bearing care"), "other questions quote the sentence alone"


def test_a_sentence_pointing_at_the_following_table_is_read_with_its_rows():
    lead = ev(9, 3, "The following table summarizes the changes in the reserve for fiscal 2023 and fiscal 2024.",
              score=0.9)  # fmt: skip
    table = ev(9, 4, "Reserve | 2024 | 2023\nBalance at start | 1,200 | 1,050\nAdditions | 310 | 260\n"
               "Balance at end | 1,410 | 1,200", kind="table", score=0.2)  # fmt: skip
    units = split_units([lead, table])
    rows = items_after(next(u for u in units if u.item is lead), units)
    assert [u.text for u in rows][-1] == "Balance at end | 1,410 | 1,200"
    answer = ask("What changes in the reserve does the company report?", lead, table)
    assert "Additions | 310 | 260" in answer.text


def test_each_side_of_a_comparison_in_prose_is_answered_by_a_passage_about_what_is_compared():
    intro = ev(1, 0, "The Kestrel and the Osprey are the two drones the agency flies.", score=0.9,
               section_path=("1 Fleet",))  # fmt: skip
    named = ev(2, 0, "The Kestrel entered service in 2019 after two years of trials.", score=0.8,
               section_path=("2 Kestrel",))  # fmt: skip
    kestrel = ev(2, 1, "On one charge the Kestrel has a range of 40 km.", score=0.3, section_path=("2 Kestrel",))
    osprey = ev(3, 0, "The Osprey reaches a range of 65 km with its larger battery.", score=0.3,
                section_path=("3 Osprey",))  # fmt: skip
    answer = ask("How did the range differ between the Kestrel and the Osprey?", intro, named, kestrel, osprey)
    lines = answer.text.splitlines()
    assert any(line.startswith("Kestrel:") and "40 km" in line for line in lines), answer.text
    assert any(line.startswith("Osprey:") and "65 km" in line for line in lines), answer.text


def test_a_sentence_opening_with_a_pronoun_is_matched_with_the_sentence_before_it():
    passage = ev(3, 2, "The storm-water levy funds the retention basins on the east bank. It is charged on every "
                 "paved square metre of a property.", score=0.9)  # fmt: skip
    answer = ask("How is the storm-water levy charged?", passage)
    assert "paved square metre" in answer.text
    assert not any(c.kind == K.PARTIAL_MATCH for c in answer.caveats), "the passage names the levy the sentence means"


def test_a_sentence_that_only_counts_or_announces_the_items_is_no_list():
    checks = {"check"}
    assert counts_without_items("The crew carries out five checks each week at every station.", checks)
    assert counts_without_items(LEAD.text, checks), "a lead says only that items follow"
    assert not counts_without_items("The crew carries out five checks: seals, bearings and floats.", checks)
    assert not counts_without_items("The crew checks the seals, the bearings, and the floats.", checks)
    assert not counts_without_items("The station has five pumps.", checks), "a count of something else"


def test_a_count_is_never_given_where_the_items_were_asked():
    count = ev(4, 2, "The crew carries out five checks each week at every pump station.", score=0.9)
    visit = ev(4, 3, "Each station is visited by a crew of two technicians.", score=0.5)
    answer = ask("Which checks does the crew carry out each week?", count, visit)
    assert not answer.answer_found and "five" not in answer.text
    assert count.chunk_id in {c.chunk_id for c in answer.citations if c.role == "support"}, "offered as closest"
    alone = ask("What checks does the pump station crew carry out each week?", LEAD, visit)
    assert not alone.answer_found, "a lead whose items are not in the evidence lists nothing"


def test_a_step_printed_twice_is_stated_once() -> None:
    from engine.contracts import EvidenceItem
    from engine.reading.answer_text import distinct
    from engine.reading.passages import split_units

    items = [
        EvidenceItem(
            chunk_id=f"c{page}",
            doc_id="d",
            file_name="guide.pdf",
            page=page,
            text="1 Hold the button to restart.",
            score=1.0,
        )
        for page in (3, 9)
    ]
    units = split_units(items)
    kept = distinct([("", u) for u in units])
    assert len(units) == 2 and [u.item.page for _, u in kept] == [3]


def test_two_sides_quoting_alike_keep_both_quotes() -> None:
    from engine.contracts import EvidenceItem
    from engine.reading.answer_text import distinct
    from engine.reading.passages import split_units

    items = [
        EvidenceItem(chunk_id=doc, doc_id=doc, file_name=f"{doc}.pdf", page=2, text="The host is optional.", score=1.0)
        for doc in ("v1", "v2")
    ]
    units = split_units(items)
    assert len(distinct([("v1", units[0]), ("v2", units[1])])) == 2


def test_a_lead_that_counts_its_items_names_them_after_its_colon() -> None:
    assert split_inline("The rig consists of two pumps: the feed pump and the drain pump.") == (
        "The rig consists of two pumps:",
        ["the feed pump", "the drain pump"],
    )
    assert split_inline("It checks three gauges: pressure, flow and level.") == (
        "It checks three gauges:",
        ["pressure", "flow", "level"],
    )
    assert split_inline("Note: the feed pump and the drain pump were replaced.") is None  # no count
    assert split_inline("The rig has three pumps: the feed pump and the drain pump.") is None  # count differs


def test_items_found_by_their_markers_are_stated_in_the_documents_order_not_by_score():
    cue = ev(3, 9, "The pump log distinguishes three grades of fault.", score=0.9)
    third = ev(3, 12, "Grade 3 (“stop”). The pump is stopped and the district office is called.",
               bold_terms=("Grade 3 (“stop”).",), score=0.8)  # fmt: skip
    first = ev(3, 10, "Grade 1 (“watch”). The fault is logged and checked at the next visit.",
               bold_terms=("Grade 1 (“watch”).",), score=0.5)  # fmt: skip
    second = ev(3, 11, "Grade 2 (“repair”). A repair is booked within the week.",
                bold_terms=("Grade 2 (“repair”).",), score=0.4)  # fmt: skip
    answer = ask("What are the three grades of fault in the pump log?", cue, third, first, second)
    grades = [line.split(". ", 1)[1][:7] for line in answer.text.splitlines() if line[:1].isdigit()]
    assert grades == ["Grade 1", "Grade 2", "Grade 3"], answer.text


def test_a_nested_list_ends_where_the_outer_list_goes_on() -> None:
    lead = ev(2, 3, "• Readings of the gauge drift in the following cases:", kind="list_item", score=0.9)
    inner = [ev(2, 4 + i, f"· {text}", kind="list_item", score=0.2) for i, text in
             enumerate(["Within an hour of a refill", "After a frost", "When the valve sticks"])]  # fmt: skip
    outer = ev(2, 7, "• Readings can also drift when the gauge is knocked.", kind="list_item", score=0.2)
    units = split_units([lead, *inner, outer])
    found = items_after(next(u for u in units if u.item is lead), units)
    assert [u.item for u in found] == inner, "the outer list's next item is no item of the nested list"
    plain = ev(2, 3, "Readings of the gauge drift in the following cases:", score=0.9)
    units = split_units([plain, *inner])
    assert [u.item for u in items_after(next(u for u in units if u.item is plain), units)] == inner


def test_the_group_a_question_names_is_answered_with_its_items_printed_in_columns():
    lead = ev(9, 0, "The following is a list of our depots, by the region they supply:", score=0.9,
              section_path=("Properties",))  # fmt: skip
    groups = []
    for block, (region, rows) in enumerate(
        [("Northern Region", ["• Leeds | • York | • Hull", "• Durham"]), ("Southern Region", ["• Dover | • Bath"])]
    ):
        section = ("Properties", region)
        groups.append(ev(9, 10 * (block + 1), region, kind="heading", section_path=section, score=0.0))
        groups += [ev(9, 10 * (block + 1) + n + 1, row, kind="list_item", section_path=section, score=0.2)
                   for n, row in enumerate(rows)]  # fmt: skip
    lines = ask("Where are the depots that supply the Northern Region?", lead, *groups).text.splitlines()
    assert lines[0] == "Northern Region" and lines[1:] == ["1. Leeds | • York | • Hull", "2. Durham"], lines


def test_a_counted_enumeration_after_a_dash_is_a_list() -> None:
    text = "Today there are three harbour boards – the Pilotage Board, the Dredging Board and the Berths Board."
    assert split_inline(text) == (
        "Today there are three harbour boards:",
        ["the Pilotage Board", "the Dredging Board", "the Berths Board"],
    )
    assert split_inline("The plan - adopted in 2041 - has merit and value.") is None  # a dash around an aside
    assert split_inline("There are three boards – the Pilotage Board and the Berths Board.") is None  # count unmet
