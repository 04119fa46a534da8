"""The shape of answer a question asks for: a definition or a reason (made-up questions and sentences)."""

from __future__ import annotations

import pytest

from engine.reading.answer_shape import (
    CONTACT_BONUS,
    DEFINITION_BONUS,
    KIND_BONUS,
    NAMED_DEFINITION_BONUS,
    REASON_BONUS,
    WHERE_TITLE_BONUS,
    asked_form,
    asked_kind,
    defines,
    expands,
    searched_topic,
    shape_bonus,
    where_topic,
)
from engine.reading.question import parse_question


@pytest.mark.parametrize(
    ("question", "term"),
    [
        ("What is gated pooling?", "gated pooling"),
        ("What are sparse adapters?", "sparse adapters"),
        ("What does RTO stand for?", "RTO"),
        ("Define churn.", "churn"),
        ("Define revenue per available seat mile.", "revenue per available seat mile"),  # "define": any term
        ("How does Gull Line define adjusted loss per share in its 2041 annual report?", "adjusted loss per share"),
    ],
)
def test_a_question_asking_what_a_thing_is_asks_for_a_definition(question: str, term: str) -> None:
    assert asked_form(question) == ("definition", term)


@pytest.mark.parametrize(
    "question",
    [
        "What is the wingspan of the Heron 2?",  # an attribute of something: a value
        "What is the margin in 2021?",  # a period: a value
        "What is the difference between a pump and a valve?",  # a relation, not a term
        "What is the effect that doubling the learning rate has on the final validation loss?",  # too long a term
        "Which pump is larger?",
    ],
)
def test_an_attribute_a_relation_or_a_clause_is_no_definition(question: str) -> None:
    assert asked_form(question)[0] != "definition"


@pytest.mark.parametrize(
    "question", ["Why does the pump stall?", "How come the valve leaks?", "What was the main reason for the recall?"]
)
def test_why_how_come_and_the_reason_ask_for_a_reason(question: str) -> None:
    assert asked_form(question) == ("reason", "")


def test_a_sentence_with_the_term_as_subject_of_a_defining_verb_defines_it() -> None:
    assert defines("Gated pooling is a layer that keeps the largest gated activation.", "gated pooling")
    assert defines("In short, a sparse adapter refers to a low-rank update.", "sparse adapters")
    assert not defines("We add gated pooling to every block, which is cheap.", "gated pooling")


def test_an_appositive_after_the_term_defines_it() -> None:
    assert defines("We introduce Gauge, a profiler that samples kernel timings.", "Gauge")
    assert defines("Tidewatch (TW), an open buoy network, reports every hour.", "Tidewatch")
    assert not defines("After Gauge, the team ran the tests again.", "Gauge")


def test_the_bonus_goes_to_the_sentence_with_the_asked_shape_only() -> None:
    assert shape_bonus("Pooling is a layer.", "definition", "pooling") == DEFINITION_BONUS
    assert shape_bonus("Gated pooling is a layer.", "definition", "gated pooling") == NAMED_DEFINITION_BONUS
    assert shape_bonus("We use gated pooling.", "definition", "gated pooling") == 0.0
    assert shape_bonus("The pump stalls because the inlet clogs.", "reason") == REASON_BONUS
    assert shape_bonus("The pump stalls after an hour.", "reason") == 0.0
    assert shape_bonus("The pump stalls because the inlet clogs.", None) == 0.0


@pytest.mark.parametrize(
    ("question", "topic"),
    [
        ("Which section explains how to descale the kettle?", "how to descale the kettle"),
        ("In which chapter is battery care discussed?", "battery care"),
        ("Where does the handbook describe the refund policy?", "the refund policy"),
        ("Which sections of the manual deal with safety?", "safety"),
        ("On which page does the glossary section start?", "glossary"),
        ("What page is the kettle's warranty on?", "kettle's warranty"),
        ("Which page shows the wiring diagram?", "the wiring diagram"),
        ("Which note to the accounts covers the leases?", "the leases"),
        ("Which tutorial explains how to export a model?", "how to export a model"),
    ],
)
def test_a_where_question_is_searched_for_its_topic_not_its_frame(question: str, topic: str) -> None:
    assert where_topic(question) == topic
    assert asked_form(question) == ("where", topic)
    keywords = " ".join(parse_question(question).keywords).lower()
    assert "section" not in keywords and "chapter" not in keywords
    assert parse_question(question).retrieval.section_hint == topic


def test_a_place_in_the_world_is_no_where_question() -> None:
    assert where_topic("Where is the plant located?") is None
    assert asked_form("Where is the plant located?") == (None, "")


def test_a_section_titled_with_the_topic_gains_by_the_share_of_the_topic_it_names() -> None:
    assert shape_bonus("Fill to the line.", "where", "descale the kettle", "Descale the kettle") == WHERE_TITLE_BONUS
    assert shape_bonus("Fill to the line.", "where", "descale the kettle", "Descale") == WHERE_TITLE_BONUS / 2
    assert shape_bonus("Descale the kettle monthly.", "where", "descale the kettle", "Warranty") == 0.0


@pytest.mark.parametrize(
    "question",
    ["What is the telephone number of the Elm Street clinic?", "What is the e-mail address for support?",
     "Which website lists the store hours?"],
)  # fmt: skip
def test_a_question_for_a_phone_number_or_address_asks_for_a_contact(question: str) -> None:
    assert asked_form(question) == ("contact", "")


def test_a_passage_printing_a_contact_token_gains() -> None:
    assert shape_bonus("Call the clinic on 01632 960123 for bookings.", "contact") == CONTACT_BONUS
    assert shape_bonus("Write to help@example.org.", "contact") == CONTACT_BONUS
    assert shape_bonus("The clinic opened in 1998 and has 12 rooms.", "contact") == 0.0


def test_an_acronym_is_defined_by_the_words_that_spell_it_out() -> None:
    assert expands("We track Mean Time To Repair (MTTR) per site.", "MTTR")
    assert expands("the Gated Linear-Unit Encoder (GLUE) layer", "GLUE")
    assert not expands("the repair time (MTTR) per site", "MTTR")  # no words spell it
    assert not expands("Mean Time To Repair (MTTR)", "mttr")  # not written as an acronym
    assert shape_bonus("We track Mean Time To Repair (MTTR).", "definition", "MTTR") == DEFINITION_BONUS


def test_a_stand_for_question_is_searched_for_its_term_only() -> None:
    assert searched_topic("What does MTTR stand for?") == "MTTR"
    assert parse_question("What does MTTR stand for?").keywords == ("MTTR",)
    assert searched_topic("What is the plant's output?") is None


def test_a_question_that_only_mentions_an_address_does_not_ask_for_one() -> None:
    assert asked_form("How does the guide say where the service is hosted (its base URL) in each version?")[0] is None


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("Which solver was used for the flow simulation?", "solver"),
        ("What loss function does the tagger minimise?", "loss function"),
        ("Which harbour crane was inspected last?", "harbour crane"),
        ("What is a harbour crane?", ""),  # a definition
        ("What time does the ferry leave?", ""),  # a time, not a kind of thing
        ("What percentage of the fleet was idle?", ""),  # a value
        ("Which section describes the mooring?", ""),  # a place in the document
        ("Which of the two cranes lifts more?", ""),  # a choice between named things
    ],
)
def test_a_which_question_asks_for_an_instance_of_its_kind(question: str, kind: str) -> None:
    assert asked_kind(question) == kind
    assert (asked_form(question)[0] == "kind") == bool(kind)


def test_the_sentence_naming_the_kind_in_its_own_words_gains() -> None:
    named = "We ran the simulation with the Lattice-Boltzmann solver at 2 mm resolution."
    under_title = "Each run took about four hours on the cluster."
    assert shape_bonus(named, "kind", "solver") == KIND_BONUS
    assert shape_bonus(under_title, "kind", "solver", title="Solver") == 0.0


def test_a_course_part_asked_with_a_verb_of_covering_is_a_where_question() -> None:
    assert where_topic("Which unit covers tide tables and chart datums?") == "tide tables and chart datums"
    assert where_topic("Which module explains knot tying?") == "knot tying"
    assert where_topic("Which unit is the water depth measured in?") is None, "a unit of measure"


def test_how_a_company_defines_a_term_is_a_definition_ask() -> None:
    assert asked_form("How does Harbour Lines define adjusted fare revenue?") == ("definition", "adjusted fare revenue")
    assert asked_form("How did fare revenue change in 2041?") == (None, "")
    assert parse_question("How does Harbour Lines define adjusted fare revenue?").keywords == (
        "Harbour Lines", "adjusted fare revenue"
    )  # fmt: skip


def test_a_company_defining_the_very_term_defines_it_and_a_longer_term_does_not() -> None:
    assert defines(
        "The Company defines adjusted fare revenue as fares less refunds and vouchers.", "adjusted fare revenue"
    )
    assert not defines(
        "The Company defines adjusted fare revenue growth as the change in adjusted fare revenue.",
        "adjusted fare revenue",
    )


def test_a_filing_s_the_company_names_the_filer_its_file_is_named_for() -> None:
    from engine.contracts import EvidenceItem
    from engine.reading.passages import score_units, split_units

    def item(text: str, n: int) -> EvidenceItem:
        return EvidenceItem(chunk_id=f"d:p{n}:b0", doc_id="d", file_name="HARBOURLINES_2041_10K.pdf", page=n, text=text)

    units = split_units([
        item("Harbourlines reported strong adjusted fare revenue growth for the year.", 1),
        item("The Company defines adjusted fare revenue as fares less refunds and vouchers.", 2),
    ])  # fmt: skip
    score_units(units, parse_question("How does Harbourlines define adjusted fare revenue?"))
    best = max(units, key=lambda u: u.score)
    assert best.text.startswith("The Company defines"), [(u.text, u.score) for u in units]


def test_a_question_headed_by_an_evaluation_metric_asks_its_figure() -> None:
    from engine.reading.question import asks_for_value

    assert asks_for_value("What is the F1 of Tern-7 on the Lakes set with 10-shot?")
    assert not asks_for_value("What is recall?")  # a definition, not a figure
    assert not asks_for_value("Which methods does the paper use, and where does it show their effect on BLEU?")


def test_the_document_a_company_defines_a_term_in_is_not_part_of_the_term() -> None:
    question = "How does Harbour Lines define comparable fares in its fourth-quarter 2041 results release?"
    assert asked_form(question) == ("definition", "comparable fares")
    assert asked_form("How does Acme define churn for enterprise customers?") == (None, "")  # a qualified term


@pytest.mark.parametrize(
    ("question", "term"),
    [
        ("What are gated adapters in Kestrel 2.1?", "gated adapters"),  # a versioned name says where to read
        ("What is a tidal window in the Gull harbour manual?", "tidal window"),
        ("What does 'berth hold' (BH) mean in the harbour report?", "berth hold (BH)"),
        ("The survey team included a 'lay assessor' - what does the report mean by that?", "lay assessor"),
    ],
)
def test_a_definition_ask_reads_past_where_to_read_and_quotes(question: str, term: str) -> None:
    assert asked_form(question) == ("definition", term)


def test_an_attribute_in_a_place_or_year_is_no_definition_ask() -> None:
    assert asked_form("What are the risks in Europe?")[0] is None
    assert asked_form("What was the margin in 2041?")[0] is None


def test_a_term_with_its_short_form_is_defined_by_either() -> None:
    from engine.reading.answer_shape import defines

    assert defines("We define BH as the hours a ship waits at anchor.", "berth hold (BH)")
    assert defines("Berth hold is the time a ship waits at anchor.", "berth hold (BH)")


def test_what_a_document_means_by_a_term_is_no_value_ask() -> None:
    from engine.reading.value_asks import asks_for_value

    assert not asks_for_value("The survey team included a 'lay assessor' - what does the report mean by that?")
    assert not asks_for_value("What does 'berth hold' mean in the harbour report?")
    assert asks_for_value("What was the mean berth hold in 2041?")
