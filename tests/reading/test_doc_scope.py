"""Which of several selected documents a question is about, and the names that label a document's side
(made-up companies and filings)."""

from __future__ import annotations

from engine.reading.doc_scope import previous_scope, scoped_doc_ids
from engine.reading.doc_sides import entity_name, identity, map_sides, names_in_question

COVER = "UNITED STATES SECURITIES AND EXCHANGE COMMISSION\nWashington, D.C. 20549\nFORM 10-K\n"
ACME = identity(
    "acme", "ACME_2031_10K.pdf",
    [COVER + "For the fiscal year ended December 31, 2031\nACME CORPORATION", "Acme Corporation sells sensors."],
    title="UNITED STATES SECURITIES AND EXCHANGE COMMISSION",
)  # fmt: skip
GLOBEX = identity(
    "globex", "GLOBEX_2031_10K.pdf",
    [COVER + "For the fiscal year ended June 30, 2031\nGlobex plc", "Globex plc makes packaging."],
    title="UNITED STATES SECURITIES AND EXCHANGE COMMISSION",
)  # fmt: skip
BOTH = [ACME, GLOBEX]


def test_a_question_naming_one_company_is_about_its_document_only():
    assert scoped_doc_ids("What was Acme's capital expenditure in 2031?", BOTH, comparison=False) == ["acme"]
    assert scoped_doc_ids("What does Globex plc make?", BOTH, comparison=False) == ["globex"]


def test_a_comparison_of_two_years_of_one_named_company_is_read_from_its_document():
    question = "Compare Acme's net sales in 2030 and 2031"
    assert scoped_doc_ids(question, BOTH, comparison=True) == ["acme"]


def test_a_question_naming_both_companies_or_pointing_at_the_other_keeps_both():
    assert scoped_doc_ids("Compare the capital expenditure of Acme and Globex", BOTH, comparison=True) == [
        "acme", "globex",
    ]  # fmt: skip
    assert scoped_doc_ids("Did Acme spend more than the other company?", BOTH, comparison=False) == [
        "acme", "globex",
    ]  # fmt: skip
    assert scoped_doc_ids("What were net sales in each company?", BOTH, comparison=False) == ["acme", "globex"]


def test_a_question_naming_no_document_keeps_them_all():
    assert scoped_doc_ids("What was the capital expenditure?", BOTH, comparison=False) == ["acme", "globex"]


def test_a_document_named_only_by_its_period_is_the_scope_unless_the_question_asks_across():
    years = [
        identity("a", "report_a.pdf", ["For the fiscal year ended December 31, 2029. Results..."]),
        identity("b", "report_b.pdf", ["For the fiscal year ended December 31, 2031. Results..."]),
    ]
    assert scoped_doc_ids("What was revenue in 2031?", years, comparison=False) == ["b"]
    # the other side of a change may be the document the question does not name
    assert scoped_doc_ids("How did revenue change in 2031?", years, comparison=False) == ["a", "b"]


def test_a_follow_up_keeps_the_one_document_its_previous_turn_was_read_from():
    assert previous_scope(["acme", "globex"], ["acme", "acme"], across=False) == ["acme"]
    assert previous_scope(["acme", "globex"], ["acme", "globex"], across=False) == ["acme", "globex"]
    assert previous_scope(["acme", "globex"], ["acme"], across=True) == ["acme", "globex"]


def test_a_document_is_named_as_its_pages_spell_its_file_name():
    assert ACME.name == "Acme" and GLOBEX.name == "Globex"
    pages = "FORM 10-K\nBARLOW & BARLOW\nPort Elsby"
    assert entity_name("BARLOW_BARLOW_2031_10K.pdf", pages, "Barlow & Barlow reported") == "Barlow & Barlow"
    # a name written without its space in the file name, set in capitals on the cover page
    assert entity_name("GREENLEAF_2031_10K.pdf", "GREEN LEAF INC.", "Green Leaf sells tea") == "Green Leaf"
    assert entity_name("report_2031.pdf", "Annual report of Zenith Ltd") == ""


def test_a_side_is_labelled_with_its_company_never_a_cover_line():
    sides = map_sides("What was the capital expenditure in fiscal 2031?", BOTH)
    assert [s.label for s in sides] == ["Acme", "Globex"]
    assert ACME.short_name == "Acme"
    nameless = identity(
        "x", "scan_0041.pdf", [COVER + "Annual report"], title="UNITED STATES SECURITIES AND EXCHANGE COMMISSION"
    )
    assert "SECURITIES" not in nameless.short_name


def test_two_documents_of_one_company_are_labelled_apart():
    release = identity("r", "ACME_2031Q4_EARNINGS.pdf", ["Acme Corporation reports fourth-quarter results"])
    sides = map_sides("What were net sales?", [ACME, release])
    assert sides[0].label != sides[1].label and all(s.label.startswith("Acme") for s in sides)


def test_a_name_of_ordinary_words_in_the_question_names_its_document():
    green = identity(
        "g", "GREENLEAF_2031_10K.pdf", [COVER + "December 31, 2031\nGREEN LEAF INC.", "Green Leaf sells tea."]
    )
    assert names_in_question("What were green leaf's sales?", [green, ACME]) == ["green leaf"]
    assert scoped_doc_ids("What were Green Leaf's sales in 2031?", [green, ACME], comparison=False) == ["g"]


def test_compared_years_of_one_company_are_the_sides_not_the_company_and_a_year():
    from engine.reading.question_sides import find_sides

    assert find_sides("Compare Acme's net sales in 2030 and 2031") == ["2030", "2031"]
    assert find_sides("Compare Acme's revenue in 2030 with 2031") == ["2030", "2031"]
    assert find_sides("Compare the net sales of Acme in 2031 and Globex in fiscal 2031") == ["Acme", "Globex"]


def test_a_change_asked_from_one_period_to_another_has_the_two_periods_as_sides():
    from engine.reading.question_sides import find_sides, is_comparison

    question = "How did Acme's spending on equipment change from 2030 to 2031?"
    assert find_sides(question) == ["2030", "2031"] and is_comparison(question, find_sides(question))
    assert find_sides("How did sales grow from fiscal 2030 to fiscal 2031?") == ["fiscal 2030", "fiscal 2031"]
    # one computed value is asked, or the span is an operand's, or the two ends are no periods
    assert find_sides("By what percentage did sales increase from 2030 to 2031?") == []
    assert find_sides("What is the turnover, revenue / average assets from 2030 to 2031?") == []
    assert find_sides("How did the ore change from raw rock to metal?") == []


def test_a_kind_of_report_names_the_document_of_that_kind_by_any_of_its_names():
    annual = identity("k", "ZENITH_2031_10K.pdf", [COVER + "ANNUAL REPORT for the fiscal year 2031\nZENITH INC."])
    release = identity("r", "ZENITH_2031Q4_EARNINGS.pdf", ["FOR IMMEDIATE RELEASE\nZenith reports its results"])
    sides = map_sides("What sales did the results release give, and the annual report?", [annual, release])
    assert [(s.doc_id, s.phrases) for s in sides] == [("k", ("annual report",)), ("r", ("results release",))]
