"""Statement sense in a computation's inputs and in a row's choice (made-up filings): every input is the line
item named, for one period; a change column is no year's value; a row that shares only a common word with the
item asked does not name it."""

from __future__ import annotations

from engine.contracts import EvidenceItem
from engine.documents.text import stems
from engine.reading.answer_type import value_never_answers
from engine.reading.document_units import with_document_scale
from engine.reading.line_items import line_item_names, names_reporting_term
from engine.reading.question import asks_for_value
from engine.reading.sentence_values import cells_in
from engine.reading.value_answer import ValueAnswer, answer_from_cells


def item(text: str, page: int = 1, n: int = 0) -> EvidenceItem:
    return EvidenceItem(chunk_id=f"d:p{page}:b{n}", doc_id="d", file_name="tarn_10k.pdf", page=page, text=text)


HIGHLIGHTS = [item("Financial Highlights\n(in millions, except per share data) | 2041 | 2040\n"
                   "Net income per share - diluted | $ 4.12 | $ 3.90\nNet revenues | 20,410 | 19,880", page=3)]  # fmt: skip
OTHER_ONLY = [item("Tarn Corp. Consolidated Statements of Operations\n(in millions) | 2041 | 2040\n"
                   "Net revenues | 20,410 | 19,880\nOther income (loss) — net | (45) | 12", page=40)]  # fmt: skip
INCOME = [item("Tarn Corp. Consolidated Statements of Operations\n(in millions) | 2041 | 2040\n"
               "Net revenues | 20,410 | 19,880\nOther income (loss) — net | (45) | 12\nNet income | 2,105 | 1,987",
               page=40)]  # fmt: skip
BALANCE_2040 = [item("Tarn Corp. Consolidated Balance Sheets\n(in millions) | December 31, 2040 | December 31, 2039\n"
                     "Total assets | 28,000 | 26,000", page=41)]  # fmt: skip
BALANCE = [item("Tarn Corp. Consolidated Balance Sheets\n(in millions) | December 31, 2041 | December 31, 2040\n"
                "Total assets | 30,000 | 28,000", page=41)]  # fmt: skip
CHANGES = [item("Results of Operations\n(in millions) | 2041 vs. 2040 | 2041 | 2040\n"
                "Net revenues | 530 | 20,410 | 19,880\nOperating income | 150 | 3,100 | 2,950", page=25)]  # fmt: skip


def _value(question: str, keywords: list[str], pages: list[list[EvidenceItem]]) -> ValueAnswer:
    value = answer_from_cells(question, keywords, line_item_names, with_document_scale(cells_in(pages)))
    assert value is not None
    return value


def test_a_per_share_or_qualified_row_is_never_an_input_of_a_computation() -> None:
    margin = _value("What was Tarn's net profit margin in 2041?", ["net profit margin"], [HIGHLIGHTS, OTHER_ONLY])
    assert not margin.statement and any("net income" in m for m in margin.missing), margin
    found = _value("What was Tarn's net profit margin in 2041?", ["net profit margin"], [HIGHLIGHTS, INCOME])
    assert found.statement.startswith("10.3%") and "Net income, 2041" in found.statement, found


def test_a_change_column_between_two_years_is_neither_years_value() -> None:
    for year, amount in (("2040", "19,880"), ("2041", "20,410")):
        value = _value(f"What were Tarn's net revenues in {year}?", ["net revenues"], [CHANGES])
        assert amount in value.statement and "530" not in value.statement, value


def test_inputs_read_for_different_years_are_read_again_for_the_latest() -> None:
    value = _value("What is Tarn's return on assets?", ["return on assets"], [INCOME, BALANCE_2040, BALANCE])
    assert "Total assets, 2041" in value.statement and value.statement.startswith("7.0%"), value
    mixed = _value("What is Tarn's return on assets?", ["return on assets"], [INCOME, BALANCE_2040])
    assert not mixed.period_ok, mixed  # this year's income over last year's assets is never claimed


def test_a_row_sharing_only_a_common_word_does_not_name_the_item() -> None:
    # a statement of many cost rows: "restructuring" tells the item asked from its siblings, "costs" does not
    rows = "\n".join(f"Cost of {kind} | {100 + n} | {90 + n}" for n, kind in enumerate(
        ["sales", "services", "licenses", "hardware", "subscriptions", "support", "freight", "royalties", "rentals",
         "training", "materials", "parts", "labor", "energy", "packaging", "warranties", "shipping", "fuel", "data",
         "content", "devices"]))  # fmt: skip
    page = [item(f"Tarn Corp. Consolidated Statements of Operations\n(in millions) | 2041 | 2040\n{rows}", page=40)]
    assert answer_from_cells("What were Tarn's restructuring costs in 2041?", ["restructuring costs"],
                             line_item_names, with_document_scale(cells_in([page]))) is None  # fmt: skip
    charges = [item("Note 4 Restructuring\n(in millions) | 2041 | 2040\nRestructuring charges | 411 | 289", page=70)]
    value = _value("What were Tarn's restructuring costs in 2041?", ["restructuring costs"], [page, charges])
    assert "411" in value.statement, value


def test_a_line_item_named_in_a_what_was_question_asks_for_its_value() -> None:
    assert names_reporting_term("What was the adjusted EBITDA for fiscal 2041?")
    assert not names_reporting_term("What was the main risk named in the report?")
    assert asks_for_value("What were the restructuring costs in 2041?")
    assert value_never_answers("What drove the change in operating margin in 2041?")


def test_adjusted_and_non_gaap_name_one_measure_the_label_need_not_repeat() -> None:
    page = [item("Reconciliation of Non-GAAP Measures\n(in millions) | 2041 | 2040\n"
                 "Operating income | 1,700 | 1,650\nAdjusted EBITDA | 2,018 | 2,117", page=12)]  # fmt: skip
    value = _value("Give Tarn's non-GAAP adjusted EBITDA for 2041.", ["non-GAAP adjusted EBITDA"], [page])
    assert "2,018" in value.statement and value.label_cover >= 0.99, value


CASH_FLOWS = [item("Tarn Corp. Consolidated Statements of Cash Flows\n(in millions) | 2041 | 2040\n"
                   "Net income | 2,105 | 1,987\nAccounts receivable | (305) | (245)\n"
                   "Net cash provided by operating activities | 3,400 | 3,100", page=42)]  # fmt: skip
ASSETS = [item("Tarn Corp. Consolidated Balance Sheets\n(in millions) | December 31, 2041 | December 31, 2040\n"
               "Accounts receivable — net of allowances of $95 and $91 | 5,020 | 4,911\nTotal assets | 30,000 | 28,000",
               page=41)]  # fmt: skip


def test_a_balance_is_read_from_the_balance_sheet_never_as_its_change_in_a_cash_flow_table() -> None:
    value = _value("What were Tarn's accounts receivable at the end of 2041?", ["accounts receivable"],
                   [CASH_FLOWS, ASSETS])  # fmt: skip
    assert "5,020" in value.statement and not value.narrower, value
    alone = _value("What were Tarn's accounts receivable at the end of 2041?", ["accounts receivable"], [CASH_FLOWS])
    assert alone.doubts and "change" in alone.doubts[0], alone
    days = _value("What were Tarn's days sales outstanding in 2041?", ["days sales outstanding"],
                  [CASH_FLOWS, INCOME, ASSETS])  # fmt: skip
    assert days.statement.startswith("88.80") and "305" not in days.statement, days  # 365 x 4,965.5 / 20,410


def test_fixed_asset_turnover_divides_sales_by_fixed_assets_not_by_all_assets() -> None:
    fixed = [item("Tarn Corp. Consolidated Balance Sheets\n(in millions) | December 31, 2041 | December 31, 2040\n"
                  "Property, plant and equipment, net | 8,000 | 7,000\nTotal assets | 30,000 | 28,000", page=41)]  # fmt: skip
    value = _value("What was Tarn's fixed asset turnover in 2041?", ["fixed asset turnover"], [INCOME, fixed])
    assert value.statement.startswith("2.72") and "Total assets" not in value.statement, value  # 20,410 / 7,500


def test_a_number_a_sentence_states_as_a_change_is_not_the_amount() -> None:
    page = [item("Tarn Corp. Consolidated Statements of Operations\n(in millions, except per share data) | 2041 | 2040\n"
                 "Net revenues | 20,410 | 19,880\nDiluted earnings per share | $ 0.705 | $ 0.529", page=40),
            item("Diluted earnings per share (\"Diluted EPS\") increased by $0.176, or 33%, in 2041.", page=30)]  # fmt: skip
    value = _value("What was Tarn's diluted EPS in 2041?", ["diluted EPS"], [page])
    assert "0.705" in value.statement and "0.176" not in value.statement, value
    prose = [item("In 2041 diluted earnings per share increased by $0.176 to $0.705.", page=30)]
    assert "0.705" in _value("What was Tarn's diluted EPS in 2041?", ["diluted EPS"], [prose]).statement


def test_the_owners_share_of_net_income_leads_over_the_consolidated_total() -> None:
    page = [item("Tarn Corp. Consolidated Statements of Operations\n(in millions) | 2041 | 2040\n"
                 "Net revenues | 20,410 | 19,880\nNet income | 1,058 | 815\n"
                 "Net income attributable to non-controlling interests | (10) | (10)\n"
                 "Net income attributable to Tarn Corp. | 1,048 | 805", page=40)]  # fmt: skip
    value = _value("What was Tarn's net income in 2041?", ["net income"], [page])
    assert "1,048" in value.statement, value


def test_an_input_is_read_from_the_row_that_names_it_plainly_before_a_narrower_one() -> None:
    page = [item("Tarn Corp. Consolidated Statements of Cash Flows\n(in millions) | 2041 | 2040\n"
                 "Operating cash flows from operating leases | 781 | 760\n"
                 "Total cash provided by operating activities | 1,824 | 3,252\n"
                 "Capital expenditures | (930) | (737)", page=42)]  # fmt: skip
    value = _value("What was Tarn's free cash flow in 2041?", ["free cash flow"], [page])
    assert value.statement.startswith("$894") or value.statement.startswith("894"), value


LOSS = [item("Tarn Corp. Consolidated Statements of Operations\n(in millions) | 2041 | 2040\n"
             "Total revenues | 66,608 | 62,286\nCost of sales | (63,106) | (59,237)\n"
             "Loss from operations | (3,547) | (2,902)\nNet loss | 4,935 | 4,202", page=40)]  # fmt: skip


def test_a_loss_enters_a_computation_negative_and_money_spent_as_spent() -> None:
    margin = _value("What was Tarn's operating margin in 2041?", ["operating margin"], [LOSS])
    assert margin.statement.startswith("-5.3%"), margin
    net = _value("What was Tarn's net profit margin in 2041?", ["net profit margin"], [LOSS])
    assert net.statement.startswith("-7.4%"), net  # a row titled as a loss states the loss's size
    gross = _value("What was Tarn's gross margin in 2041?", ["gross margin"], [LOSS])
    assert gross.statement.startswith("5.3%"), gross  # no gross profit printed: revenue less the cost of sales


def test_an_income_statement_may_title_the_gross_profit_amount_gross_margin() -> None:
    page = [item("Tarn Corp. Consolidated Statements of Income\n(in millions) | 2041 | 2040\n"
                 "Total revenue | 195,929 | 166,761\nMerchandise costs | 174,561 | 148,480\n"
                 "Gross margin | 21,368 | 18,281", page=36)]  # fmt: skip
    value = _value("What was Tarn's gross margin in 2041?", ["gross margin"], [page])
    assert value.statement.startswith("10.9%"), value


def test_a_row_printed_as_plain_text_is_read_in_its_tables_columns() -> None:
    page = [item("Tarn Corp. Consolidated Statements of Income\n(dollars in millions, except per share amounts)\n"
                 "Years Ended December 31, | 2041 | 2040 | 2039\nTotal Operating Revenues | 136,835 | 133,613 | 128,292\n"
                 "Operating Income 30,467 32,448 28,798\nNet income attributable to Tarn | 21,256 | 22,065 | 17,801\n"
                 "Diluted Earnings Per Common Share\nNet income attributable to Tarn | $ 5.06 | $ 5.32 | $ 4.30",
                 page=54)]  # fmt: skip
    income = _value("What was Tarn's operating income in 2040?", ["operating income"], [page])
    assert "32,448" in income.statement, income
    net = _value("What was Tarn's net income in 2041?", ["net income"], [page])
    assert "21,256" in net.statement, net
    eps = _value("What was Tarn's diluted EPS in 2041?", ["diluted EPS"], [page])
    assert "5.06" in eps.statement and "million" not in eps.statement, eps  # rows under a per-share heading
    prose = [item("Years Ended December 31, | 2041 | 2040\nNet revenues | 20,410 | 19,880\n"
                  "We opened 12 stores in 2041 and 9", page=9)]  # fmt: skip
    cells = cells_in([prose])
    assert not any(c.is_row and c.label.startswith("We opened") for c in cells)  # a sentence is no row


SEGMENTS = [item("The following tables provide operating financial information for our two reportable segments:\n"
                 "(dollars in millions)\n2041 | Retail | Wholesale\nTotal Reportable\nSegments\n"
                 "Total Operating Revenues | 103,506 | 31,072 | 134,578\nOperating Income | $ 28,846 | $ 2,631 $ 31,477",
                 page=101)]  # fmt: skip
CONSOLIDATED = [item("Tarn Corp. Consolidated Statements of Income\n(dollars in millions)\n"
                     "Years Ended December 31, | 2041 | 2040\nTotal Operating Revenues | 136,835 | 133,613\n"
                     "Operating Income | 30,467 | 32,448", page=54)]  # fmt: skip


def test_a_segment_table_headed_by_its_year_reads_each_column_as_a_segment_of_that_year() -> None:
    cells = [c for c in cells_in([SEGMENTS]) if c.label == "Operating Income"]
    assert [(c.column, c.raw.replace("$", "").strip()) for c in cells] == [
        ("2041 Retail", "28,846"), ("2041 Wholesale", "2,631"), ("", "31,477")]  # fmt: skip


def test_the_segment_asked_is_answered_by_its_own_figure_and_the_company_by_the_consolidated_one() -> None:
    company = _value("What was Tarn's operating income in 2041?", ["operating income"], [SEGMENTS, CONSOLIDATED])
    assert "30,467" in company.statement, company
    segment = _value("What was the operating income of Tarn's Wholesale segment in 2041?",
                     ["operating income", "Wholesale segment"], [CONSOLIDATED, SEGMENTS])  # fmt: skip
    assert "2,631" in segment.statement, segment
    alone = _value("What was the operating income of Tarn's Wholesale segment in 2041?",
                   ["operating income", "Wholesale segment"], [CONSOLIDATED])  # fmt: skip
    assert any("Wholesale segment" in d for d in alone.doubts), alone  # the company's total is not the segment's


def test_a_joint_ventures_combined_figures_are_theirs_not_the_filers() -> None:
    ventures = [item("Summary combined financial information for the joint ventures on a 100 percent basis is as "
                     "follows:\nIn Millions | 2041 | 2040\nNet sales:\nCPW | $ 1,654.3 | $ 1,647.7\n"
                     "Total net sales | 2,045.6 | 2,043.9", page=60)]  # fmt: skip
    earnings = [item("Consolidated Statements of Earnings\nIn Millions | 2041 | 2040\n"
                     "Net sales | $ 17,626.6 | $ 16,865.2", page=48)]  # fmt: skip
    company = _value("What were Tarn's total net sales in 2041?", ["total net sales"], [ventures, earnings])
    assert "17,626.6" in company.statement, company
    theirs = _value("What were the total net sales of Tarn's joint ventures in 2041?", ["total net sales"],
                    [earnings, ventures])  # fmt: skip
    assert "2,045.6" in theirs.statement and not theirs.doubts, theirs
    alone = _value("What were the total net sales of Tarn's joint ventures in 2041?", ["total net sales"], [earnings])
    assert alone.doubts, alone


def test_income_from_continuing_operations_is_not_operating_income_and_a_stated_increase_is_no_input() -> None:
    page = [item("Tarn Corp. Consolidated Statements of Income\n(millions) | 2041 | 2040\n"
                 "Revenues | 64,917 | 47,203\nIncome from continuing operations | 18,512 | 6,130", page=57),
            item("The increase in Income from continuing operations before taxes on income of $12.4 billion in 2041 "
                 "was primarily attributable to higher revenues.", page=34)]  # fmt: skip
    margin = _value("What was Tarn's operating margin in 2041?", ["operating margin"], [page])
    assert not margin.statement and margin.missing, margin


def test_a_balance_sheet_date_is_the_fiscal_quarter_it_closes() -> None:
    from engine.reading.periods import Period, fiscal_instant, periods_in

    assert fiscal_instant("July 29, 2041", 1) == (Period(2042, 2),)  # a year ending in January
    assert fiscal_instant("January 28, 2041", 1) == (Period(2041), Period(2041, 4))
    assert fiscal_instant("March 31, 2041", 12) == (Period(2041, 1),)
    assert fiscal_instant("Three months ended March 31, 2041", 12) == ()  # a span, read as a flow's quarter
    assert fiscal_instant("May 15, 2041", 12) == ()  # no quarter ends in mid-May
    assert periods_in("in Q2 of fiscal 2042") == (Period(2042, 2),)


def test_a_footnote_marker_is_no_part_of_a_label_and_an_introduced_vie_table_is_a_subset() -> None:
    page = [item("Tarn Corp. Consolidated balance sheets\n(in millions) | March 31, 2041 | December 31, 2040\n"
                 "Total assets(b) | $ 3,689,336 | $ 3,384,757\n"
                 "(b) The following table presents information on assets and liabilities related to VIEs that are "
                 "consolidated by the Firm at March 31, 2041, and December 31, 2040. The assets of the consolidated "
                 "VIEs are used to settle the liabilities of those entities.\n"
                 "(in millions) | March 31, 2041 | December 31, 2040\nTotal assets | $ 36,204 | $ 40,234", page=81)]  # fmt: skip
    assert any(c.label == "Total assets" and c.raw.endswith("3,689,336") for c in cells_in([page]))
    value = _value("What were Tarn's total assets at March 31, 2041?", ["total assets"], [page])
    assert "3,689,336" in value.statement, value


def test_a_header_date_split_over_two_lines_keeps_its_month_and_day() -> None:
    page = [item("TARN CORP. CONDENSED CONSOLIDATED BALANCE SHEETS\n(MILLIONS) July 2,\n"
                 "2041 December 31, 2040 (Unaudited) Assets\nTotal assets | $ 220,168 | $ 197,205", page=10)]  # fmt: skip
    columns = [c.column for c in cells_in([page]) if c.label == "Total assets"]
    assert columns == ["July 2, 2041", "December 31, 2040"], columns


def test_the_verb_of_how_a_metric_moved_names_no_line_item() -> None:
    page = [item("Tarn Corp. Results of Operations\n(in millions) | 2041 | 2040\n"
                 "Provision for income taxes | (411) | (491)\nEffective tax rate | 23% | 20%\n"
                 "Audit settlements & change in reserve | 3.7 | 1.6", page=24)]  # fmt: skip
    value = _value("By how much has Tarn's effective tax rate changed in 2041?", ["effective tax rate", "changed"],
                   [page])  # fmt: skip
    assert "23%" in value.statement, value
    from engine.reading.value_spec import value_spec

    spec = value_spec("How much has the tax rate changed?", ["tax rate", "changed"], [])
    assert spec.terms == (frozenset(stems("tax rate")),), spec.terms  # "changed" asks how it moved
    noun = value_spec("How big was the change in working capital?", ["change in working capital"], [])
    assert any(len(term) == 3 for term in noun.terms), noun.terms  # the noun may name a line item


def test_a_scale_caption_that_mentions_per_share_data_heads_no_per_share_rows() -> None:
    page = [item("Tarn Corp. Consolidated Statements of Operations\n(Dollars in millions, except per share data)\n"
                 "Years ended December 31, | 2041 | 2040\nTotal revenues | 66,608 | 62,286\n"
                 "Net loss attributable to Tarn Shareholders | (4,935) | (4,202)", page=55)]  # fmt: skip
    labels = {c.label for c in cells_in([page])}
    assert "Net loss attributable to Tarn Shareholders" in labels, labels


def test_a_section_titled_with_a_segments_name_is_that_segments_table() -> None:
    from engine.reading.statement_sense import summary_kind

    assert summary_kind("Financial Results Regulated Businesses Segment Years Ended 2041") == "segment"
    assert summary_kind("The Company operates in one segment") == ""
    section = (
        "Item 7. Management's Discussion",
        "Financial Results",
        "Operating Revenues",
        "Regulated Businesses Segment",
    )
    segment = [EvidenceItem(chunk_id="d:p59:b0", doc_id="d", file_name="tarn_10k.pdf", page=59, section_path=section,
                            text="For the Years Ended December 31, | 2041 | 2040\n"
                                 "Total operating revenues | $ 3,505 | $ 3,384")]  # fmt: skip
    company = [item("Selected Financial Data\n(In millions) | 2041 | 2040\n"
                    "Operating revenues | $ 3,792 | $ 3,762\nOperating income | 1,273 | 1,197", page=83)]  # fmt: skip
    margin = _value("What was Tarn's operating margin in 2041?", ["operating margin"], [segment, company])
    assert margin.statement.startswith("33.6%"), margin  # 1,273 / 3,792: the company's revenues, not a segment's
    asked = _value("What were the operating revenues of Tarn's Regulated Businesses segment in 2041?",
                   ["operating revenues", "Regulated Businesses segment"], [company, segment])  # fmt: skip
    assert "3,505" in asked.statement, asked


def test_other_printings_of_the_value_that_agree_with_it_are_kept_to_cite() -> None:
    note = [item("Note 6 Income Taxes\n(in millions) | 2041 | 2040\nEffective tax rate | 22.9% | 20.2%", page=77)]
    summary = [item("Results of Operations\n(in millions) | 2041 | 2040\nEffective tax rate | 23% | 20%", page=24)]
    other = [item("Segment Results\n(in millions) | 2041 | 2040\nEffective tax rate | 25% | 21%", page=30)]
    value = _value("What effective tax rate did Tarn report for 2041?", ["effective tax rate"], [note, summary, other])
    assert "22.9%" in value.statement and [c.page for c in value.also] == [24], value.also  # 25% disagrees


def test_a_table_of_contents_row_holds_a_page_number_not_a_value() -> None:
    contents = [EvidenceItem(chunk_id="d:p2:b0", doc_id="d", file_name="tarn_manual.pdf", page=2,
                             section_path=("Contents",), text="Pairing the strap sensor | 7\nCleaning the lens | 9")]  # fmt: skip
    cells = with_document_scale(cells_in([contents]))
    assert answer_from_cells("How many steps does pairing the strap sensor take?", ["pairing", "strap sensor"],
                             line_item_names, cells) is None  # fmt: skip


def test_a_singular_scale_after_a_currency_sign_states_the_tables_scale() -> None:
    from engine.reading.table_values import table_scale

    assert table_scale("($ million)") == "million" and table_scale("(US$ thousand)") == "thousand"
    assert table_scale("(in millions, except per share data)") == "million" and table_scale("(Percent)") == ""


def test_a_header_that_prints_the_same_year_twice_reads_neither_figure_for_that_year() -> None:
    release = [item("(Dollars in millions) | 2041 | 2040 | 2041 | 2040\n"
                    "Net sales | $ 3,226.8 | $ 2,729.4 | $ 10,208.6 | $ 8,630.9", page=1)]  # fmt: skip
    cells = [c for c in cells_in([release]) if c.label == "Net sales"]
    assert cells and all(not c.periods for c in cells), cells  # the quarter's and the year's spans were lost


def test_numbers_listed_after_a_verb_of_change_are_amounts_moved_not_levels() -> None:
    question = "What accuracy does the tuned sonar reach on the reef set?"
    level = "On the reef set, the accuracy of the tuned sonar reaches 68.7%."
    listed = "The tuned sonar improves the accuracy across the board: 7% on the harbour set, 27% on the reef set."
    value = _value(question, ["accuracy", "tuned sonar", "reef set"], [[item(f"{listed} {level}", page=12)]])
    assert value.statement.startswith("68.7%"), value
    by = "The tuned sonar improves the accuracy on the harbour set by 7% and on the reef set by 27%."
    value = _value(question, ["accuracy", "tuned sonar", "reef set"], [[item(f"{by} {level}", page=12)]])
    assert value.statement.startswith("68.7%"), value


PERFORMANCE = [item("Comparison of 5-year cumulative total return\nBlue Ferry, Inc. | $ 100.00 | $ 171.35 | $ 158.92",
                    page=29)]  # fmt: skip
FERRY_BALANCE = [item("Blue Ferry, Inc. Consolidated Balance Sheets\n(in millions) | At December 31, 2041 | "
                      "At December 31, 2040\nCash and cash equivalents | $ 4,318 | $ 3,176\nTotal assets | 16,420 | "
                      "14,760", page=69)]  # fmt: skip


def test_a_company_name_a_file_name_runs_together_names_who_not_the_line_item() -> None:
    question = "How much cash and cash equivalents did Blue Ferry hold at the end of 2041?"
    cells = with_document_scale(cells_in([PERFORMANCE, FERRY_BALANCE]))
    keywords = ["Blue Ferry", "cash equivalents", "hold", "end", "2041"]
    value = answer_from_cells(question, keywords, line_item_names, cells, entity_words=["BLUEFERRY", "K"])
    assert value is not None and value.statement == "Cash and cash equivalents, At December 31, 2041: $4,318 million"
    assert value.label_cover == 1.0, "the line item is all the row must name: not the company, not 'hold'"
    unnamed = answer_from_cells(question, keywords, line_item_names, cells, entity_words=["K"])
    assert unnamed is not None and unnamed.statement == value.statement, "the statement's title names the company"
