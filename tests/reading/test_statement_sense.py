"""Statement sense: which table a figure is printed in, and how a value is stated (made-up filings)."""

from __future__ import annotations

from engine.contracts import EvidenceItem
from engine.reading.document_units import with_document_scale
from engine.reading.line_items import line_item_names
from engine.reading.sentence_values import cells_in
from engine.reading.signed_amounts import signed_amount
from engine.reading.statement_sense import in_primary_statement, percent_caption, percent_column, summary_kind
from engine.reading.value_answer import answer_from_cells


def item(text: str, page: int = 1, n: int = 0, section: tuple[str, ...] = ()) -> EvidenceItem:
    return EvidenceItem(
        chunk_id=f"d:p{page}:b{n}", doc_id="d", file_name="zenith_10k.pdf", page=page, text=text, section_path=section
    )


# a discussion table of each line as a share of sales, then the income statement, then a guarantor summary
PERCENT_PAGE = [
    item("Operating Expenses\n(Percent of net sales) | 2031 | 2030 | 2031 | 2030\n"
         "Cost of sales | 48.2 % | 47.9 % | 0.3 % | (0.2)%\n"
         "Research and development expenses | 6.1 | 6.4 | (0.3) | 0.1", page=3),
]  # fmt: skip
INCOME_PAGE = [
    item("Zenith Corp. Consolidated Statement of Incom e\n(Millions, except per share amounts) | 2031 | 2030", page=9),
    item("Net sales | $ 20,410 | $ 19,880\nCost of sales | 9,830 | 9,512\n"
         "Research and development expenses | 1,244 | 1,199\nNet earnings | $ 2,105 | $ 1,987\n"
         "Net earnings per share - diluted | $ 4.12 | $ 3.90", page=9, n=1),
]  # fmt: skip
GUARANTOR_PAGE = [
    item("Statement of Income for the Guarantor Group\n(in millions)\nFor the year ended | 2031\n"
         "Total net sales | $ 812\nNet earnings | $ 1,402", page=4),
]  # fmt: skip


def _answer(question: str, keywords: list[str], pages: list[list[EvidenceItem]]) -> str:
    cells = with_document_scale(cells_in(pages))
    value = answer_from_cells(question, keywords, line_item_names, cells)
    assert value is not None
    return value.statement


def test_a_percent_of_sales_table_is_read_as_percentages_never_as_amounts():
    cells = cells_in([PERCENT_PAGE])
    rd = [c for c in cells if c.label.startswith("Research")]
    assert rd and all(c.unit == "%" for c in rd), rd
    statement = _answer("What were Zenith's research and development expenses in 2031?",
                        ["research and development expenses"], [PERCENT_PAGE, INCOME_PAGE])  # fmt: skip
    assert "1,244" in statement and "$" in statement and "6.1" not in statement, statement


def test_the_consolidated_statement_leads_over_a_guarantor_groups_summary():
    statement = _answer("What were Zenith's net sales in 2031?", ["net sales"], [GUARANTOR_PAGE, INCOME_PAGE])
    assert "20,410" in statement, statement
    asked = _answer("What were the guarantor group's net sales in 2031?", ["net sales"], [GUARANTOR_PAGE, INCOME_PAGE])
    assert "812" in asked, asked


def test_a_per_share_row_never_answers_for_the_total():
    statement = _answer("What were Zenith's net earnings in 2031?", ["net earnings"], [INCOME_PAGE])
    assert "2,105" in statement, statement
    per_share = _answer("What were Zenith's diluted net earnings per share in 2031?", ["net earnings per share"],
                        [INCOME_PAGE])  # fmt: skip
    assert "4.12" in per_share, per_share


def test_table_kinds_from_captions_and_sections():
    assert summary_kind("Balance Sheet for Obligor Group") == "guarantor"
    assert summary_kind("Condensed Consolidating Statement of Operations") == "guarantor"
    assert summary_kind("Deed of Cross Guarantee Consolidated Balance Sheets") == "guarantor"
    assert summary_kind("Unaudited Quarterly Financial Data") == "quarterly"
    assert summary_kind("Note 18. Business Segment Information") == "segment"
    assert summary_kind("Consolidated Balance Sheets") == ""
    assert in_primary_statement("Consolidated Statement of Incom e")
    assert not in_primary_statement("Statement of Income for Obligor Group")
    assert percent_caption("(Percent of net sales)") and percent_caption("As a percentage of revenue")
    assert not percent_caption("(Millions, except per share amounts)")
    assert percent_column("% Change") and not percent_column("2031")


def test_a_cash_outflow_is_stated_as_money_spent_with_the_printed_figure():
    page = [item("Consolidated Statements of Cash Flows\n(in millions) | 2031 | 2030\n"
                 "Net cash provided by operating activities | $ 3,020 | $ 2,870\n"
                 "Cash flows from investing activities:\nCapital expenditures | (911) | (870)", page=12)]  # fmt: skip
    cells = with_document_scale(cells_in([page]))
    capex = next(c for c in cells if c.label == "Capital expenditures" and c.column == "2031")  # a full label
    assert signed_amount(capex) == "$911 million spent (a cash outflow; printed as (911))"
    statement = _answer("What were Zenith's capital expenditures in 2031?", ["capital expenditures"], [page])
    assert statement.endswith("$911 million spent (a cash outflow; printed as (911))"), statement


def test_a_loss_keeps_its_sign():
    page = [item("Consolidated Statements of Operations\n(in thousands) | 2031 | 2030\n"
                 "Revenues | $ 5,100 | $ 4,800\nNet loss | (312) | (95)", page=2)]  # fmt: skip
    cells = with_document_scale(cells_in([page]))
    loss = next(c for c in cells if c.label == "Net loss" and c.column == "2031")
    assert signed_amount(loss) == "-$312 thousand (printed as (312))"


def test_count_rows_take_the_scale_but_not_the_currency():
    page = [item("Consolidated Statement of Earnings\n(in millions) | 2031\nNet sales | $ 900\n"
                 "Weighted average shares outstanding | 210.5", page=2)]  # fmt: skip
    cells = with_document_scale(cells_in([page]))
    shares = next(c for c in cells if c.label.startswith("Weighted"))
    assert shares.unit == "" and shares.scale == "million"


def test_a_row_that_qualifies_a_line_item_gives_way_to_the_plain_row():
    income = [item("Consolidated Statements of Income\n(in millions) | 2031 | 2030\n"
                   "Other income (loss) - net | 37 | (12)\nIncome before taxes | 2,900 | 2,700\n"
                   "Net earnings attributable to Zenith shareholders | $ 2,211 | $ 2,050", page=5)]  # fmt: skip
    statement = _answer("What was Zenith's net income in 2031?", ["net income"], [income])
    assert "2,211" in statement, statement
    other = _answer("What was Zenith's other income (loss) in 2031?", ["other income"], [income])
    assert "37" in other, other


def test_question_reading_and_value_reading_share_one_table_of_terms():
    from engine.reading.glossary import expansions
    from engine.reading.line_items import standard_definition
    from engine.reading.reporting_terms import REPORTING_TERMS, split_words

    for term in REPORTING_TERMS:
        assert term.reason.strip() and (term.names or term.search or term.definition), term
    words, statements = expansions("What was the capex in 2031?")
    assert set(line_item_names("capex")[:2]) <= set(words) and statements == ("cash flow statement",)
    assert standard_definition("the current ratio") == standard_definition("the working capital ratio")
    names = [n for term in REPORTING_TERMS for n in split_words(term.names)]
    assert len(names) == len(set(names)), "a row label names one quantity only"


def test_a_count_row_without_a_scale_of_its_own_never_takes_the_documents_money_scale():
    stores = [item("Store count\nSegment | 2031 | 2030\nTotal Domestic segment stores | 978 | 991", page=8)]
    cells = with_document_scale(cells_in([INCOME_PAGE, stores]))
    count = next(c for c in cells if c.label.startswith("Total Domestic") and c.column == "2031")
    assert count.scale == "" and count.unit == "" and count.display() == "978"


BALANCE_PAGE = [
    item("Consolidated Balance Sheets\n(in millions)\nDecember 31,\n2031 2030", page=6),
    item("Inventories (Notes 1 and 3) | 3,100 | 2,900\nTotal assets | $ 30,100 | $ 28,400", page=6, n=1),
]
EARNINGS_PAGE = [
    item("Consolidated Statements of Income\n(in millions) | 2031 | 2030 | 2029\n"
         "Net sales | $ 20,410 | $ 19,880 | $ 18,000\nCost of sales | 12,000 | 11,000 | 10,000\n"
         "Net income | $ 2,211 | $ 2,050 | $ 1,900", page=7),
]  # fmt: skip


def test_an_average_balance_is_the_mean_of_the_years_opening_and_closing_balance():
    from engine.reading.value_answer import answer_value

    turnover = answer_value("What was Zenith's inventory turnover in FY2031?", ["inventory turnover"], line_item_names,
                            [BALANCE_PAGE, EARNINGS_PAGE])  # fmt: skip
    assert turnover is not None and turnover.statement.startswith("4.00"), turnover  # 12,000 / mean(3,100, 2,900)
    assert {c.periods[0].year for c in turnover.cells if c.label.startswith("Inventories")} == {2031, 2030}
    average = answer_value("What was Zenith's FY2031 return on average total assets?", ["return on average assets"],
                           line_item_names, [BALANCE_PAGE, EARNINGS_PAGE])  # fmt: skip
    plain = answer_value("What was Zenith's FY2031 return on assets?", ["return on assets"], line_item_names,
                         [BALANCE_PAGE, EARNINGS_PAGE])  # fmt: skip
    assert average is not None and plain is not None
    assert [c.periods[0].year for c in plain.cells if c.label == "Total assets"] == [2031]  # never the prior year's
    assert {c.periods[0].year for c in average.cells if c.label == "Total assets"} == {2031, 2030}


def test_sub_columns_under_a_header_of_period_groups_take_their_groups_period():
    release = [item("Reconciliation of non-GAAP measures\n"
                    "Twelve Months Ended June 30, 2030 | Twelve Months Ended June 30, 2031\n"
                    "($ million) | EBITDA | EBIT | EBITDA | EBIT\n"
                    "Net income | 700 | 700 | 810 | 810\nAdjusted EBITDA, EBIT | 1,950 | 1,420 | 2,040 | 1,515\n"
                    "% growth - Adjusted EBITDA | (3) | (2)\nAdjusted EBITDA | 1,950 | 2,040", page=11)]  # fmt: skip
    cells = cells_in([release])
    adjusted = [(c.column[-4:], c.raw) for c in cells if c.label == "Adjusted EBITDA"]
    assert adjusted == [("2030", "1,950"), ("2031", "2,040")], adjusted
    grouped = [(c.column[-4:], c.raw) for c in cells if c.label == "Adjusted EBITDA, EBIT"]
    assert grouped == [("2030", "1,950"), ("2030", "1,420"), ("2031", "2,040"), ("2031", "1,515")], grouped
    assert all(c.unit == "%" for c in cells if c.label.startswith("% growth"))
    statement = _answer("What was Zenith's adjusted EBITDA for fiscal 2031?", ["adjusted EBITDA"], [release])
    assert "2,040" in statement, statement


def test_a_cell_holding_several_amounts_is_split_into_its_columns_and_parts_take_their_headings_name():
    page = [item("CONSOLIDATED STATEMENTS OF INCOME\n(In millions, except per share data) | 2031 | 2030 | 2029\n"
                 "Revenues | $ 8,100 $ 7,700 $ 7,050\nNET INCOME | $ 910 $ 870 $ 640\n"
                 "Earnings per common share:\nBasic | $ 2.11 $ 2.02 $ 1.50\nDiluted | $ 2.09 $ 1.99 $ 1.48\n"
                 "Weighted average common shares outstanding:\nDiluted | 435.2 437.9 432.0", page=3)]  # fmt: skip
    cells = cells_in([page])
    revenue = [(c.column, c.raw) for c in cells if c.label == "Revenues"]
    assert revenue == [("2031", "$ 8,100"), ("2030", "$ 7,700"), ("2029", "$ 7,050")], revenue
    diluted = next(c for c in cells if c.label == "Earnings per common share: Diluted" and c.column == "2031")
    assert diluted.raw == "$ 2.09" and diluted.scale == "" and diluted.display() == "$2.09"
    statement = _answer("What was Zenith's diluted earnings per share in 2030?", ["diluted earnings per share"], [page])
    assert "1.99" in statement, statement


def test_a_cell_of_digits_and_words_is_one_cell():
    from engine.reading.table_rows import row_cells

    # read in linear time: a run of digits is never tried as many amounts
    assert row_cells("Plan | " + "1234567890" * 4 + " units") == ["Plan", "1234567890" * 4 + " units"]
    assert row_cells("Codes | " + " ".join(str(n) for n in range(60)) + " apply")[1].endswith("apply")


def test_a_notes_table_gives_way_to_the_primary_statement():
    note = [item("Amounts reclassified from hedges\n(In millions) | 2031 | 2030\nCost of sales | 9,830 | 9,512",
                 page=2, section=("Notes to Consolidated Financial Statements", "Risk Management"))]  # fmt: skip
    cells = with_document_scale(cells_in([note, INCOME_PAGE]))
    from engine.reading.value_match import rank_cells
    from engine.reading.value_spec import value_spec

    spec = value_spec("What was Zenith's cost of sales in 2031?", ["cost of sales"], line_item_names("cost of sales"))
    assert rank_cells(spec, cells)[0].cell.page == 9  # the income statement's row, though the note came first


def test_a_measure_that_is_a_ratio_by_definition_is_answered_by_a_percentage():
    prose = [item("On the harbour set the tuned tagger reaches an accuracy of 91.4%, 6.2 points above the baseline.")]
    value = answer_from_cells("What accuracy does the tuned tagger reach?", ["accuracy", "tuned tagger"],
                              line_item_names, cells_in([prose]))  # fmt: skip
    assert value is not None and value.statement.startswith("91.4%"), value


def test_a_share_of_a_whole_is_read_as_a_percentage_not_as_the_parts_amount() -> None:
    table = item("Harbour segment results (in millions) | 2031 | 2030\nNet sales | $ 7,620 | $ 7,100", page=30,
                 section=("Segment results", "Harbour segment"))  # fmt: skip
    said = item("The Harbour segment accounted for approximately 37% of consolidated net sales in fiscal 2031.", page=5)
    asked = "What share of Zenith's 2031 consolidated net sales came from the Harbour segment?"
    assert _answer(asked, ["net sales", "Harbour segment"], [[table], [said]]).startswith("37%")
    assert _answer("What were the Harbour segment's net sales in 2031?", ["net sales"], [[table], [said]]).startswith(
        "Net sales, 2031: $7,620"
    )


def test_a_part_asked_is_read_from_its_own_row_not_the_tables_total() -> None:
    table = [
        item("We have three segments: Harbour, Inland, and Airport. Fees by segment are as follows:", page=41),
        item("(in millions) | 2031 | 2030\nHarbour | $ 7,620 | $ 7,100\nInland | 1,204 | 1,180\nAirport | 123 | 146\n"
             "Total fees | $ 8,947 | $ 8,426", page=41, n=1),
    ]  # fmt: skip
    assert _answer(
        "What were the fees of the Airport segment in 2031?", ["fees", "Airport segment"], [table]
    ).startswith("Airport, 2031: $123")
    assert _answer("What were the total fees in 2031?", ["total fees"], [table]).startswith("Total fees, 2031: $8,947")


def test_a_title_line_over_a_table_says_what_its_rows_measure() -> None:
    table = [
        item("Details of Pay of the Directors for the year ended 31st March, 2031\n(Rs. in Lakhs)\n"
             "Director | Salary Bonus Fees Total\nA. Brook 204.00 28.51 | — 232.51\nC. Dale 94.50 21.10 | 1.85 117.45",
             page=7),
    ]  # fmt: skip
    assert _answer("What was C. Dale's total pay for the year ended 31 March 2031?", ["total pay"], [table]).startswith(
        "C. Dale, Total: 117.45"
    )


def test_a_units_row_under_a_title_naming_the_line_item_is_not_broader_than_asked() -> None:
    units = [
        item("Net sales for our retail units are shown in the following table:\n"
             "In Millions | Fiscal 2031 | Fiscal 2030\nHarbour Goods | $ 4,408.5 | $ 3,839.8\nInland Foods | 2,434.1 | 2,255.4\n"
             "Total | $ 6,842.6 | $ 6,095.2", page=23),
    ]  # fmt: skip
    statement = [
        item("Zenith Corp. Consolidated Statements of Earnings\n(In Millions) | Fiscal 2031 | Fiscal 2030\n"
             "Net sales | $ 17,626.6 | $ 16,865.2", page=48),
    ]  # fmt: skip
    asked = "What were Inland Foods net sales in fiscal 2031?"
    assert _answer(asked, ["Inland Foods", "net sales"], [statement, units]).startswith(
        "Inland Foods, Fiscal 2031: $2,434"
    )


def test_earnings_per_ordinary_share_asks_for_the_per_share_row() -> None:
    from engine.reading.statement_sense import total_for_per_share, unasked_per_share

    per_share = next(c for c in cells_in([INCOME_PAGE]) if c.label.startswith("Net earnings per share"))
    total = next(c for c in cells_in([INCOME_PAGE]) if c.label == "Net earnings")
    asked = "How much did Zenith earn per common share (diluted) for 2031?"
    assert not unasked_per_share(per_share, asked) and total_for_per_share(total, asked)


def test_a_row_labelled_by_a_year_is_that_years() -> None:
    schedule = [
        item("Expected benefit payments are as follows:\n(dollars in millions) Year | Pension | Health Care\n"
             "2032 | 2,049 | 1,011\n2033 | 1,104 | 947\n2034 | 1,097 | 862", page=94),
    ]  # fmt: skip
    assert _answer("How much pension did Zenith expect to pay in 2034?", ["pension", "pay"], [schedule]).startswith(
        "2034, Pension: 1,097 million"
    )
