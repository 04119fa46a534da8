"""Numbers in running text: a part of the document named in lower case labels, it never measures."""

from __future__ import annotations

from engine.contracts import EvidenceItem
from engine.documents.text import reference_spans, stems
from engine.reading.line_items import line_item_names
from engine.reading.metric_words import condition_words, frame_words
from engine.reading.sentence_values import cells_in, nearness
from engine.reading.value_answer import answer_value


def item(text: str) -> EvidenceItem:
    return EvidenceItem(chunk_id="d:p2:b0", doc_id="d", file_name="sonar.pdf", page=2, text=text)


def test_a_lower_case_section_table_or_figure_number_is_a_reference() -> None:
    text = "We tuned the gain (section 3.2) as in table 4 and figure 2.1; the 5.250% notes 4.5 are not parts of it."
    named = [text[a:b] for a, b in reference_spans(text)]
    assert named == ["section 3.2", "table 4", "figure 2.1"], named


def test_the_number_of_a_section_named_in_passing_never_answers_a_value_question() -> None:
    said = [item("We chose the gain and the filter width on the harbour set (see section 5.4), then froze them.")]
    assert not [c for c in cells_in([said]) if c.raw.startswith("5.4")]
    answer = answer_value("What is the gain of the sonar?", ["gain"], line_item_names, [said])
    assert answer is None or not answer.statement.startswith("5.4"), answer


def test_a_number_stated_for_another_thing_than_the_name_asked_is_doubted_and_comes_last() -> None:
    said = [item("The tuned SONAR-2 reaches a detection rate of 71.6%, which beats the baseline SONAR-1 on the reef "
                 "set. On the reef set the baseline SONAR-1 reaches a detection rate of 64.2%.")]  # fmt: skip
    answer = answer_value("What detection rate does SONAR-1 reach on the reef set?", ["detection rate", "SONAR-1"],
                          line_item_names, [said])  # fmt: skip
    assert answer is not None and answer.statement.startswith("64.2%"), answer
    alone = [
        item("The tuned SONAR-2 reaches a detection rate of 71.6%, which beats the baseline SONAR-1 on the reef set.")
    ]
    doubted = answer_value("What detection rate does SONAR-1 reach on the reef set?", ["detection rate", "SONAR-1"],
                           line_item_names, [alone])  # fmt: skip
    assert doubted is not None and any("SONAR-1" in d for d in doubted.doubts), doubted


def test_a_number_spelled_before_a_unit_of_measure_is_a_stated_value() -> None:
    said = [item("Charging time. The sonar buoy is fully charged within three hours. The status light blinks for "
                 "2 seconds when charging starts.")]  # fmt: skip
    spelled = [c for c in cells_in([said]) if c.raw == "three"]
    assert len(spelled) == 1 and spelled[0].value == 3.0 and spelled[0].measure == "hours"
    answer = answer_value("How long does it take to fully charge the sonar buoy?", ["fully charged", "sonar buoy"],
                          line_item_names, [said])  # fmt: skip
    assert answer is not None and answer.statement.startswith("3 hours"), answer
    assert not [c for c in cells_in([[item("One of the buoys drifted; three of them stayed.")]]) if c.raw == "three"]


def test_a_number_in_another_clause_than_the_metric_is_not_its_value() -> None:
    said = [item("Nearly half of the pilots rate the new berths as safe, while 24% rate them as crowded.")]
    answer = answer_value("What share of the pilots rate the new berths as safe?", ["safe"], line_item_names, [said])
    assert answer is None or "24%" not in answer.statement.split(":")[0], answer
    crowded = answer_value("What share of the pilots rate the berths as crowded?", ["crowded"], line_item_names, [said])
    assert crowded is not None and crowded.statement.startswith("24%"), crowded


def test_a_bare_count_takes_a_noun_with_two_modifiers() -> None:
    said = [item("In this work we employ k = 4 parallel sonar beams, or channels, on each buoy.")]
    answer = answer_value("How many sonar beams does each buoy use?", ["sonar beams"], line_item_names, [said])
    assert answer is not None and answer.statement.startswith("4 parallel sonar beams"), answer


def test_a_count_spelled_before_a_plural_noun_answers_a_question_counting_that_noun() -> None:
    said = [item("We tested the sonar on seven coastal reefs with two survey crews; one of the reefs was closed.")]
    counts = {c.raw: c for c in cells_in([said]) if c.bare}
    assert set(counts) == {"seven", "two"} and counts["seven"].measure == "coastal reefs", counts
    answer = answer_value("How many reefs was the sonar tested on?", ["reefs", "sonar"], line_item_names, [said])
    assert answer is not None and answer.statement.startswith("7 coastal reefs"), answer
    asked = answer_value("What share of the reef was surveyed?", ["share", "reef"], line_item_names, [said])
    assert asked is None or not asked.statement.startswith(("7", "2")), asked


def test_a_number_in_parentheses_after_the_same_number_spelled_out_restates_it() -> None:
    said = [item("The sonar offers the crew eight (8) scan presets and keeps logs for thirty (30) days.")]
    values = sorted(c.value for c in cells_in([said]))
    assert values == [8.0, 30.0], values
    loss = [item("The fleet reported a loss of (8) boats and a (30) hour delay.")]
    assert sorted(c.value for c in cells_in([loss]) if c.value < 0), "a bare parenthesised number stays negative"


def test_a_number_stated_for_a_variant_of_the_name_asked_comes_after_the_name_s_own() -> None:
    said = [item("With extra harbour data the SONAR-1+Tide model lifts its detection rate to 66.0%. "
                 "The plain SONAR-1 model reaches a detection rate of 64.2% on the reef set.")]  # fmt: skip
    answer = answer_value("What detection rate does the SONAR-1 model reach?", ["detection rate", "SONAR-1"],
                          line_item_names, [said])  # fmt: skip
    assert answer is not None and answer.statement.startswith("64.2%"), answer
    variant = [item("With extra harbour data the SONAR-1+Tide model lifts its detection rate to 66.0%.")]
    doubted = answer_value("What detection rate does the SONAR-1 model reach?", ["detection rate", "SONAR-1"],
                           line_item_names, [variant])  # fmt: skip
    assert doubted is not None and any("SONAR-1" in d for d in doubted.doubts), doubted


def test_a_thing_named_after_well_below_or_versus_is_in_another_clause() -> None:
    said = [item("The tide-only detector has a detection rate of 51.0%, well below the SONAR-1 model. "
                 "The SONAR-1 model reaches a detection rate of 64.2% on the reef set.")]  # fmt: skip
    answer = answer_value("What detection rate does the SONAR-1 model reach?", ["detection rate", "SONAR-1"],
                          line_item_names, [said])  # fmt: skip
    assert answer is not None and answer.statement.startswith("64.2%"), answer


def test_of_one_sentence_s_numbers_the_one_whose_own_phrase_names_the_thing_asked_is_read() -> None:
    said = [item("The sonar's hit rate is 0.61 for the shallow reef survey (40 dives) and 0.74 for the deep "
                 "wreck survey (52 dives).")]  # fmt: skip
    answer = answer_value("What is the sonar's hit rate for the deep wreck survey?", ["hit rate", "deep wreck survey"],
                          line_item_names, [said])  # fmt: skip
    assert answer is not None and answer.statement.startswith("0.74"), answer
    first = answer_value("What is the sonar's hit rate for the shallow reef survey?", ["hit rate", "shallow reef"],
                         line_item_names, [said])  # fmt: skip
    assert first is not None and first.statement.startswith("0.61"), first


def test_a_range_is_stated_from_its_low_end_and_its_dash_is_no_minus_sign() -> None:
    said = [item("Soak the filter for 10–15 minutes, and rinse the hose every one to two weeks.")]
    cells = {c.measure: c for c in cells_in([said])}
    assert cells["minutes"].value == 15.0 and cells["minutes"].bound == "10 to", cells
    assert cells["weeks"].value == 2.0 and cells["weeks"].bound == "1 to", cells
    answer = answer_value("How often should the hose be rinsed?", ["hose", "rinsed"], line_item_names, [said])
    assert answer is not None and answer.statement.startswith("1 to 2 weeks"), answer
    alone = [item("The crossing lost 15 minutes; the ferry was -2 knots under its speed.")]
    assert all(not c.bound for c in cells_in([alone])), "no range without a low end"


def test_a_sample_size_is_not_the_figure_its_sentence_states() -> None:
    said = [item("The error margin for harbour pilots (n=812) is plus or minus 3.4 percentage points.")]
    assert [c.value for c in cells_in([said])] == [3.4]
    answer = answer_value("What is the error margin for harbour pilots?", ["error margin", "harbour pilots"],
                          line_item_names, [said])  # fmt: skip
    assert answer is not None and answer.statement.startswith("3.4"), answer
    alone = [item("The survey of harbour pilots (N = 812 respondents) ran in May.")]
    assert [c.value for c in cells_in([alone])] == [812.0], "a size stated alone is the sample's count"


def test_a_number_that_completes_is_after_the_metric_sits_near_it_however_long_the_subject() -> None:
    said = [
        item("The error margin reported for the whole panel of retired harbour pilots is plus or minus 3.4 points.")
    ]
    (cell,) = cells_in([said])
    assert nearness(cell, stems("error margin")) == 0.2
    assert nearness(cell, stems("fleet size")) == -0.2, "a subject that names another metric"


def test_a_count_or_an_amount_written_with_a_k_is_in_thousands() -> None:
    said = [item("The harbour log holds 48k sonar pings and cost $12k; the 4K videos and the 5K run are names.")]
    read = sorted((c.raw, c.scale, c.measure) for c in cells_in([said]))
    assert read == [("$12k", "thousand", ""), ("48k", "thousand", "sonar pings")], read
    answer = answer_value("How many sonar pings does the harbour log hold?", ["sonar pings", "harbour log"],
                          line_item_names, [said])  # fmt: skip
    assert answer is not None and answer.statement.startswith("48 thousand sonar pings"), answer


def test_the_words_of_a_condition_need_not_be_in_the_value_s_sentence() -> None:
    said = [item("Fill the ballast tank before the crossing. Ballast pump cycle 20–25 minutes.")]
    asked = "How long does the ballast pump cycle take when the tank is full?"
    answer = answer_value(asked, ["ballast pump cycle", "tank", "full"], line_item_names, [said])
    assert answer is not None and answer.statement.startswith("20 to 25 minutes"), answer
    assert condition_words("If the tank is full, how long does the pump cycle take?") == stems("tank full")
    assert condition_words("How long does the pump cycle take?") == set()
    assert condition_words("When does the pump run?") == set(), "a question that is all condition keeps its words"
    assert condition_words("What would the fare be if the ferry ran at night?") == set(), "hypothetical: computed"
    assert condition_words("What is the fare if the ferry runs at night?") == set(), "a one-word metric keeps them"


def test_of_two_coordinated_clauses_the_number_in_the_clause_naming_the_thing_asked_is_read() -> None:
    said = [item("We surveyed 412 harbour pilots in Oslo during May, and a partner surveyed 380 harbour pilots in "
                 "Bergen during June.")]  # fmt: skip
    answer = answer_value("How many harbour pilots were surveyed in Bergen?", ["harbour pilots", "Bergen"],
                          line_item_names, [said])  # fmt: skip
    assert answer is not None and answer.statement.startswith("380"), answer


def test_the_share_frame_of_a_question_is_not_part_of_the_metric() -> None:
    assert frame_words("What share of pilots say the harbour is safe?") == stems("share")
    assert frame_words("What percentage of ferries run late?") == stems("percentage")
    assert frame_words("What is the ferry line's market share?") == set()


def test_of_two_shares_the_one_whose_own_verb_the_question_uses_is_read() -> None:
    said = [item("Of the harbour pilots asked about the new quay, 40% favored the quay and 54% opposed the plan.")]
    answer = answer_value("What share of harbour pilots opposed the new quay?", ["harbour pilots", "new quay",
                          "opposed"], line_item_names, [said])  # fmt: skip
    assert answer is not None and answer.statement.startswith("54%"), answer
    favored = answer_value("What share of harbour pilots favored the new quay?", ["harbour pilots", "new quay",
                           "favored"], line_item_names, [said])  # fmt: skip
    assert favored is not None and favored.statement.startswith("40%"), favored


def test_a_number_whose_own_phrase_names_the_thing_asked_sits_near_it() -> None:
    said = [item("Raising the gain improves the hit rate of the sonar across the board: 7% and 11% on the two reef "
                 "sets, 27% on WreckSet, and 5% on the open sea.")]  # fmt: skip
    answer = answer_value("By how much does raising the gain improve the hit rate on WreckSet?", ["hit rate",
                          "WreckSet", "gain"], line_item_names, [said])  # fmt: skip
    assert answer is not None and answer.statement.startswith("27%"), answer
    far = [item("Just 7% of pilots decline to dock at night, a share that has changed little.")]
    (cell,) = cells_in([far])
    assert nearness(cell, stems("dock night")) == -0.2, "words further along its phrase are not near it"


def test_digits_glued_to_letters_are_part_of_a_name_not_a_value() -> None:
    said = [item("Table 6: The accuracy of the taggers on the SetB2.0 test set and on CO2 reports is 71.5%.")]
    assert [c.raw for c in cells_in([said])] == ["71.5%"]
    noted = [item("Sonar gain matters in reef surveys.12 It was tuned twice13,14 to a gain of 0.91.")]
    assert [c.raw for c in cells_in([noted])] == ["0.91"]  # a superscript note's number is no value


def test_a_count_before_a_model_designation_and_an_acronym_plural_counts_that_noun() -> None:
    said = [item("The sonar model was trained for two days on six Z90 GPUs at the harbour lab.")]
    counts = {c.raw: c for c in cells_in([said]) if c.bare}
    assert counts["six"].measure == "Z90 GPUs", counts
    answer = answer_value("How many GPUs were used to train the sonar model?", ["GPUs", "sonar model"],
                          line_item_names, [said])  # fmt: skip
    assert answer is not None and answer.statement.startswith("6"), answer
