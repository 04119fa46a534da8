"""Periods and the spans a column covers: a quarter's or a year-to-date figure never stands for a year's."""

from __future__ import annotations

from engine.contracts import EvidenceItem
from engine.reading.line_items import line_item_names
from engine.reading.periods import Period, periods_in, span_headers, span_months, with_spans
from engine.reading.sentence_values import cells_in
from engine.reading.value_answer import answer_value
from engine.reading.value_match import period_match


def item(text: str, page: int = 1, n: int = 0) -> EvidenceItem:
    return EvidenceItem(chunk_id=f"d:p{page}:b{n}", doc_id="d", file_name="acme_q4.pdf", page=page, text=text)


EARNINGS = [
    item("RECONCILIATION OF NET INCOME\n(In thousands)\nThree months ended | Twelve months ended", n=0),
    item("December 31, 2036 December 31, 2035 December 31,\n2036 December 31,\n2035\n"
         "Net income | 192,410 | 88,275 | 1,086,530 | 912,648\n"
         "Interest expense | 101,245 | 148,390 | 437,820 | 588,105\n"
         "Operating income (loss) | (2,714) | 271,503 | 1,062,418 | 1,684,227", n=1),
]  # fmt: skip
"""An earnings release's reconciliation: each year printed twice, for the quarter and for the year."""


def test_a_year_after_a_span_phrase_is_that_part_of_the_year() -> None:
    assert periods_in("Three months ended December 31, 2022") == (Period(2022, months=3),)
    assert periods_in("For the nine months ended September 30, 2023 and 2022") == (
        Period(2023, months=9),
        Period(2022, months=9),
    )
    assert periods_in("Thirteen weeks ended January 30, 2037") == (Period(2037, months=3),)
    assert periods_in("Twelve months ended December 31, 2022") == (Period(2022),)  # a whole year is the year
    assert periods_in("Fiscal year ended June 30, 2021") == (Period(2021),)
    # a span in another sentence or another column does not reach the year
    assert periods_in("Sales rose in the three months ended March 31. In fiscal 2022 we sold more.") == (Period(2022),)
    assert periods_in("Six months ended | 2022") == (Period(2022),)
    assert Period(2022, months=9).label() == "9 months ended 2022" and Period(2022, 3).label() == "Q3 2022"
    for period in (Period(2041, months=3), Period(2041, months=6), Period(2041, 2), Period(2041)):
        assert periods_in(period.label()) == (period,)  # a computation's inputs are looked up by the label


def test_span_headers_are_read_from_header_lines_not_from_prose() -> None:
    assert span_headers("Three months ended | Twelve months ended") == ["Three months ended", "Twelve months ended"]
    assert span_headers("Quarter Ended Year Ended") == ["Quarter Ended", "Year Ended"]
    assert span_headers("Revenue in the three months ended March 31 rose because demand for our products grew") == []
    assert span_months("Nine Months Ended") == 9 and span_months("Fifty-two weeks ended") == 12
    assert span_months("Total revenue") is None


def test_year_columns_under_span_headers_carry_their_span() -> None:
    spans = ["Three months ended", "Twelve months ended"]
    assert with_spans(["2022", "2021", "2022", "2021"], spans) == [
        "Three months ended 2022",
        "Three months ended 2021",
        "Twelve months ended 2022",
        "Twelve months ended 2021",
    ]
    assert with_spans(["2022", "2021", "2020"], spans) == ["2022", "2021", "2020"]  # not evenly divided: unknown
    assert with_spans(["2022", "2021"], None) == ["2022", "2021"]


def test_a_fiscal_year_question_reads_the_twelve_months_column_not_the_quarter() -> None:
    cells = [c for c in cells_in([EARNINGS]) if c.label == "Operating income (loss)"]
    assert [c.periods for c in cells] == [
        (Period(2036, months=3),),
        (Period(2035, months=3),),
        (Period(2036),),
        (Period(2035),),
    ]
    assert [period_match([Period(2036)], c) for c in cells] == [False, False, True, False]
    answer = answer_value(
        "What was Acme's FY2036 operating income?", ["operating income"], line_item_names, [EARNINGS], ["acme"]
    )
    assert answer is not None and "1,062,418" in answer.statement, answer


def test_a_later_table_without_spans_does_not_inherit_them() -> None:
    later = item("Segment revenue\n(In thousands) | 2036 | 2035\nRetail | 5,000 | 4,000\nOnline | 3,000 | 2,000", n=2)
    cells = [c for c in cells_in([[*EARNINGS, later]]) if c.label == "Retail"]
    assert [c.periods for c in cells] == [(Period(2036),), (Period(2035),)]


def test_an_adjusted_measure_read_from_the_reported_row_is_not_claimed() -> None:
    income = [item("(Millions) | 2036 | 2035\nOperating income | 1,062 | 1,684\nInterest expense | 438 | 588")]
    question = "What was Acme's FY2036 Adjusted EBIT to interest expense ratio?"
    adjusted = answer_value(question, ["Adjusted EBIT", "interest expense"], line_item_names, [income], ["acme"])
    assert adjusted is not None and adjusted.narrower and adjusted.unsure == "Operating income", adjusted
    plain = answer_value(question.replace("Adjusted EBIT", "operating income"), ["operating income", "interest"],
                         line_item_names, [income], ["acme"])  # fmt: skip
    assert plain is not None and not plain.narrower and plain.statement.startswith("2.42"), plain


def test_a_three_month_column_is_the_fiscal_quarter_of_the_documents_own_calendar() -> None:
    from engine.reading.document_units import in_fiscal_quarters
    from engine.reading.periods import fiscal_quarter, fiscal_year_end_month

    # a retailer's fiscal year ends in late January or the first days of February (52/53 weeks)
    assert fiscal_year_end_month("the Form 10-K for the fiscal year ended January 30, 2037") == 1
    assert fiscal_year_end_month("this report covers the fiscal year ending February 2, 2038") == 1
    assert fiscal_year_end_month("Sales rose in fiscal 2037.") is None
    assert fiscal_quarter("Three Months Ended July 31, 2037", 1) == Period(2038, 2)
    assert fiscal_quarter("Three Months Ended February 2, 2038", 1) == Period(2038, 4)
    assert fiscal_quarter("Three months ended June 30, 2037", 12) == Period(2037, 2)
    assert fiscal_quarter("Three Months Ended July 1, 2037", 9) == Period(2037, 3)  # a September year
    assert fiscal_quarter("Six Months Ended July 31, 2037", 1) is None  # year to date, not a quarter
    table = item("Three Months Ended | Six Months Ended\nJuly 31, 2037 | July 30, 2036 | July 31, 2037 | July 30, 2036\n"
                 "Comparable sales % change | (4.8)% | (9.6)% | (5.9)% | (7.3)%")  # fmt: skip
    cells = in_fiscal_quarters(cells_in([[table]]), {"d": 1})
    assert [c.periods for c in cells] == [
        (Period(2038, 2), Period(2037, months=3)),  # the fiscal quarter, and the calendar span printed
        (Period(2037, 2), Period(2036, months=3)),
        (Period(2037, months=6),),
        (Period(2036, months=6),),
    ]
    # asked by the date the column prints ("the three months ended July 31, 2037"), the quarter's column answers
    assert [period_match([Period(2037, months=3)], c) for c in cells] == [True, False, False, False]
    assert in_fiscal_quarters(cells_in([[table]]), {}) == cells_in([[table]])  # no known calendar: as printed


def test_a_three_month_column_may_be_the_quarter_asked_when_the_calendar_is_unknown() -> None:
    cells = cells_in([[item("Three Months Ended | Six Months Ended\nJuly 31, 2037 | July 31, 2037\nSales | 9 | 19")]])
    assert [period_match([Period(2038, 2)], c) for c in cells] == [None, False]
    assert [period_match([Period(2037)], c) for c in cells] == [False, False]


def test_periods_are_kept_per_text_and_stay_the_same():
    from engine.reading.periods import Period, periods_in

    header = "Three months ended June 30, 2024 | Fiscal 2023"
    first = periods_in(header)
    assert first == (Period(2024, None, 3), Period(2023)) and periods_in(header) is first
    assert periods_in.cache_info().maxsize, "the kept texts are bounded"


def test_a_short_header_naming_a_year_and_apart_from_it_a_quarter_names_that_quarter() -> None:
    assert periods_in("Fiscal 2031 Kiosks at End of Third Quarter") == (Period(2031, 3),)
    assert periods_in("Fiscal 2031 Kiosks Opened") == (Period(2031),)


def test_a_sentence_naming_a_year_and_a_quarter_apart_keeps_the_year() -> None:
    text = "During fiscal 2031 the company opened kiosks in the first quarter and closed several others later on"
    assert periods_in(text) == (Period(2031),)


def test_a_year_named_whole_is_the_period_asked_not_a_word_of_the_item() -> None:
    from engine.reading.periods import period_words

    assert {"full"} <= period_words("What were fare sales for the full year 2041?")
    assert "full-year" in period_words("What were full-year 2041 fare sales?")


def test_a_row_is_read_for_the_full_year_asked() -> None:
    from engine.contracts import EvidenceItem
    from engine.reading.line_items import line_item_names
    from engine.reading.question import extract_keywords
    from engine.reading.value_answer import answer_value

    text = (
        "(In thousands) | Three Months Ended | Twelve Months Ended\n2041 | 2040 | 2041 | 2040\n"
        "Fares | 120,400 | 110,300 | 480,100 | 430,900\nCargo | 60,200 | 58,000 | 240,500 | 230,100\n"
        "Net revenues | 180,600 | 168,300 | 720,600 | 661,000"
    )
    page = [EvidenceItem(chunk_id="d:p9:b0", doc_id="d", file_name="gull_q4_release.pdf", page=9, text=text)]
    question = "What did Gull Line report as fares revenue for the full year 2041?"
    value = answer_value(question, extract_keywords(question), line_item_names, [page], ["Gull", "Line"])
    assert value is not None and value.cells[0].raw == "480,100", value


def test_full_dates_are_read_as_year_month_and_day() -> None:
    from engine.reading.periods import dates_named

    assert dates_named("the quarter ended June 30, 2041, and Dec. 31, 2040") == {(2041, 6, 30), (2040, 12, 31)}
    assert dates_named("fiscal 2041") == frozenset()


def test_a_row_s_undated_change_column_never_answers_for_a_period_asked() -> None:
    from engine.contracts import EvidenceItem
    from engine.reading.question import extract_keywords
    from engine.reading.table_values import table_cells
    from engine.reading.value_match import rank_cells
    from engine.reading.value_spec import value_spec

    text = "(in units) | 2041 | 2040 | Change\nNumber of harbour pilots | 2,462 | 2,418 | 2\nTugs | 31 | 30 | 3"
    page = [EvidenceItem(chunk_id="d:p31:b1", doc_id="d", file_name="gull_q1.pdf", page=31, text=text)]
    question = "How many harbour pilots did Gull have in the first quarter of 2041?"
    ranked = rank_cells(value_spec(question, extract_keywords(question), [], ["Gull"]), table_cells(page))
    assert all(m.cell.column != "Change" for m in ranked), [(m.cell.column, m.cell.raw) for m in ranked]
