"""Sides of a cross-document question mapped to their documents."""

from __future__ import annotations

from engine.reading.doc_sides import aspect_of, candidate_phrases, identity, map_sides, plain_names

ANNUAL_2018 = identity(
    "a",
    "acme_2018_10k.pdf",
    ["FORM 10-K ANNUAL REPORT For the fiscal year ended December 31, 2018", "In 2018 sales..."],
)
ANNUAL_2022 = identity(
    "b",
    "acme_2022_10k.pdf",
    ["FORM 10-K ANNUAL REPORT For the fiscal year ended December 31, 2022", "Compared with 2021"],
)


def test_years_go_to_the_report_of_that_year():
    sides = map_sides("How did headcount move from the close of 2018 to the close of 2022?", [ANNUAL_2018, ANNUAL_2022])
    assert [(s.doc_id, s.label) for s in sides] == [("a", "2018"), ("b", "2022")]


def test_a_year_only_the_title_page_states_still_names_its_report():
    renamed = [
        identity("a", "report.pdf", ["For the fiscal year ended December 31, 2018. Results..."]),
        identity("b", "report (1).pdf", ["For the fiscal year ended December 31, 2022. Results for 2022 and 2021"]),
    ]
    sides = map_sides("Which report shows higher R&D, 2018 or 2022?", renamed)
    assert [s.label for s in sides] == ["2018", "2022"]


def test_versions_kinds_and_names():
    specs = [
        identity("v2", "Spec_v2.0.pdf", ["Specification Version 2.0", "uses OAuth 2.0 flows"]),
        identity("v3", "Spec_v3.1.0.pdf", ["Specification Version 3.1.0", "OAuth 2.0 flows and OpenAPI 2.0 docs"]),
    ]
    sides = map_sides("How does Spec 2.0 describe servers, versus Spec 3.1.0?", specs)
    assert [s.doc_id for s in sides] == ["v2", "v3"] and "2.0" in sides[0].label and "3.1.0" in sides[1].label
    filings = [
        identity("k", "co_10k.pdf", ["FORM 10-K annual report", "net earnings per share"]),
        identity("r", "co_q4_release.pdf", ["FOR IMMEDIATE RELEASE fourth-quarter results", "earnings release"]),
    ]
    sides = map_sides("Do the earnings release figures match the 10-K?", filings)
    assert [s.label for s in sides] == ["10-K", "earnings release"]
    watches = [
        identity("h", "kestrel_band_pro.pdf", ["KESTREL Band Pro OnlineHelp ORBIT DEVICES"]),
        identity("w", "orbit_watch_k.pdf", ["ORBIT WATCH K USER GUIDE", "Press the Down button on your watch"]),
    ]
    sides = map_sides("What does the Down button open on the KESTREL Band Pro and on the ORBIT WATCH K?", watches)
    assert [s.label for s in sides] == ["KESTREL Band Pro", "ORBIT WATCH K"]


def test_a_document_named_by_nothing_is_labelled_by_its_title_or_file_name():
    docs = [
        identity("a", "alpha_notes.pdf", ["Alpha notes"], title="Alpha Field Notes"),
        identity("b", "beta.pdf", ["Beta"]),
    ]
    sides = map_sides("What do the two documents say about rainfall?", docs)
    assert [s.label for s in sides] == ["Alpha Field Notes", "Beta"] and all(not s.phrases for s in sides)


def test_acronyms_are_what_is_compared_not_sides():
    assert "EPS" not in candidate_phrases("Did the EPS in the release match the 10-K?")


def test_aspect_keeps_names_and_drops_period_markers():
    sides = map_sides("How did headcount change between 2018 and 2022?", [ANNUAL_2018, ANNUAL_2022])
    assert (
        aspect_of("How did headcount change between 2018 and 2022?", sides) == "How did headcount change between and ?"
    )


def test_one_document_has_no_document_sides():
    assert map_sides("How does A compare with B?", [ANNUAL_2018]) == []


def test_the_phrase_for_all_sides_together():
    from engine.reading.doc_sides import collective_noun

    assert collective_noun("Which field names changed between the two versions?") == "versions"
    assert collective_noun("Both printer manuals name a setting. What is it?") == "printer manuals"
    assert collective_noun("Which components does each system rely on?") == "system"
    assert collective_noun("Atlas and Boreal both split a request into steps.") == ""  # "both" before a verb
    assert collective_noun("What did revenue do in 2018 and 2022?") == ""


def test_a_company_named_by_its_file_name_names_its_document_and_cover_lines_never_label_a_side():
    acme = identity(
        "a", "ACME_2031_10K.pdf", ["Acme Corp. annual report 2031"], "UNITED STATES SECURITIES AND EXCHANGE COMMISSION"
    )
    zenith = identity(
        "z",
        "ZENITH_2031_10K.pdf",
        ["Zenith plc annual report 2031"],
        "UNITED STATES SECURITIES AND EXCHANGE COMMISSION",
    )
    sides = map_sides("What was Acme's capital expenditure in 2031?", [acme, zenith])
    assert [(s.doc_id, s.label, bool(s.phrases)) for s in sides] == [
        ("a", "Acme", True),
        ("z", "Zenith", False),  # whose document it is, as its pages spell it
    ]
    both = map_sides("Compare the net sales of Acme and Zenith", [acme, zenith])
    assert [s.label for s in both] == ["Acme", "Zenith"]
    # a word both file names share ("2031", "10K") names neither document
    assert all(not s.phrases for s in map_sides("What did the 10K report in total?", [acme, zenith]))


def test_a_plain_name_one_document_uses_throughout_names_its_side() -> None:
    docs = [
        identity("k", "KESTRELAIR_2031_10K.pdf", ["Kestrel Air annual report", "Kestrel Air flights grew. Kestrel Air"]),
        identity("p", "HARBOURCO_2030_10K.pdf", ["Harbour Co annual report", "Pelican sellers use Pelican. Pelican"]),
    ]  # fmt: skip
    sides = map_sides("Who spent more on fuel - Kestrel Air in 2031 or Pelican in 2030?", docs)
    assert [(s.doc_id, s.label) for s in sides] == [("k", "Kestrel Air"), ("p", "Pelican")]
    assert plain_names("Compare the Fuel costs of Kestrel Air with Pelican.") == ["Fuel", "Kestrel Air", "Pelican"]


def test_a_plain_word_only_the_body_of_a_document_uses_names_no_side() -> None:
    cover = "FORM 10-K ANNUAL REPORT Kestrel Air " + "notes " * 600
    docs = [
        identity("k", "kestrel_2031_10k.pdf", [cover, "The Coastal plants were sold. Coastal Coastal Coastal"]),
        identity("r", "kestrel_2031q4_release.pdf", ["FOR IMMEDIATE RELEASE Kestrel Air fourth-quarter results"]),
    ]  # fmt: skip
    sides = map_sides("What did the 10-K say about the sale of the Coastal plants, and the release?", docs)
    assert "Coastal" not in [s.label for s in sides]
