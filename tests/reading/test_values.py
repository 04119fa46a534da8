"""The value brick: table cells with their column period and scale, matching, and arithmetic."""

from __future__ import annotations

import pytest

from engine.contracts import EvidenceItem
from engine.documents.text import stems
from engine.reading.counts import counted_things
from engine.reading.formula_values import evaluate
from engine.reading.formulas import operands, parse_formula
from engine.reading.line_items import line_item_names, standard_definition
from engine.reading.periods import Period, periods_in
from engine.reading.sentence_values import cells_in
from engine.reading.table_values import parse_number, table_scale
from engine.reading.value_answer import answer_value
from engine.reading.value_match import narrows, period_match, rank_cells
from engine.reading.value_spec import value_spec


def item(text: str, page: int = 1, n: int = 0, section: tuple[str, ...] = ()) -> EvidenceItem:
    return EvidenceItem(
        chunk_id=f"d:p{page}:b{n}", doc_id="d", file_name="acme_10k.pdf", page=page, text=text, section_path=section
    )


CASH_FLOW = [
    item("Consolidated Statement of Cash Flows\n(Millions) | 2038 | 2037 | 2036", n=0),
    item(
        "Net cash provided by operating activities | 4,812 | 4,530 | 4,975\n"
        "Purchases of property, plant and equipment (PP&E) | (1,264) | (1,118) | (1,192)\n"
        "Proceeds from sale of PP&E | 187 | 36 | 41",
        n=1,
    ),
]
BALANCE = [
    item("CONSOLIDATED BALANCE SHEETS (amounts in millions)", page=2, n=0),
    item("August 26, 2035 August 27,", page=2, n=1),
    item("2034 ASSETS", page=2, n=2),
    item(
        "Total current assets | 21,740 | 20,315\nTotal assets | $ 43,912 | $ 40,687\n"
        "Total current liabilities | 21,506 | 18,233",
        page=2,
        n=3,
    ),
]


def test_periods_in_reads_fiscal_years_and_quarters():
    assert periods_in("FY2038 capex") == (Period(2038),)
    assert periods_in("fiscal 2022 and FY19") == (Period(2022), Period(2019))
    assert periods_in("Q2 2023 revenue") == (Period(2023, 2),)
    assert periods_in("the third quarter of fiscal 2016") == (Period(2016, 3),)
    assert periods_in("the second quarter") == ()


def test_parse_number_and_scale():
    assert parse_number("(1,264)")[0] == -1264.0
    assert parse_number("$ 4,871")[:2] == (4871.0, "$")
    assert parse_number("23.5%")[:2] == (23.5, "%")
    assert parse_number("$1.6 billion")[2] == "billion"
    assert table_scale("(in millions, except per share data)") == "million"
    assert table_scale("(Millions)") == "million"
    assert table_scale("Dollars in thousands") == "thousand"


def test_cells_carry_column_period_and_scale_across_chunks_of_a_page():
    cells = cells_in([CASH_FLOW])
    capex = [c for c in cells if c.label.startswith("Purchases")]
    assert [(c.column, c.value, c.scale) for c in capex] == [
        ("2038", -1264.0, "million"),
        ("2037", -1118.0, "million"),
        ("2036", -1192.0, "million"),
    ]
    assert capex[0].display() == "-1,264 million"


def test_column_years_from_caption_lines_when_no_header_row():
    cells = cells_in([BALANCE])
    total = [c for c in cells if c.label == "Total assets"]
    assert [(c.periods[0].year, c.value, c.unit) for c in total] == [(2035, 43912.0, "$"), (2034, 40687.0, "$")]


def test_the_asked_period_leads_and_a_quarter_never_stands_for_a_year():
    spec = value_spec("What were total assets in FY2034?", ["total assets"], line_item_names("total assets"))
    best = rank_cells(spec, cells_in([BALANCE]))[0]
    assert best.cell.value == 40687.0 and best.period_match is True
    quarter = cells_in([[item("Total assets | 1 | 2", n=0), item("Q4 2020 | 2020", n=1)]])
    assert all(period_match((Period(2020),), c) is not True for c in quarter if c.periods and c.periods[0].quarter)


def test_synonyms_name_the_line_item():
    spec = value_spec(
        "How large was the capital expenditure amount in FY2038?", ["capital expenditure"], line_item_names("capex")
    )
    best = rank_cells(spec, cells_in([CASH_FLOW]))[0]
    assert best.cell.label.startswith("Purchases of property") and best.cell.column == "2038"


def test_no_cell_when_no_label_names_the_metric():
    spec = value_spec("What was the headcount in 2038?", ["headcount"], line_item_names("headcount"))
    assert rank_cells(spec, cells_in([CASH_FLOW])) == []


def test_value_answer_states_label_period_value_and_restated_scale():
    answer = answer_value(
        "What is the FY2038 capex in USD billions?", ["capex"], line_item_names, [CASH_FLOW], ["acme"]
    )
    assert answer is not None and answer.period_ok
    assert "2038" in answer.statement and "1,264 million" in answer.statement and "1.264 billion" in answer.statement


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What is the FY2035 liquidity cover? Define liquidity cover as total current assets "
         "/ total current liabilities.", 21740 / 21506),
        ("What is the FY2035 total current assets less total current liabilities?", (21740 - 21506) * 1e6),
        ("What is the total assets growth rate from FY2034 to FY2035?", 100 * (43912 - 40687) / 40687),
    ],
)  # fmt: skip
def test_formulas_are_computed_from_cited_cells(question, expected):
    formula = parse_formula(question)
    assert formula is not None
    cells = cells_in([BALANCE])

    def lookup(phrase, period):
        spec = value_spec(f"{phrase} {period.label()}", [phrase], line_item_names(phrase))
        return next((m.cell for m in rank_cells(spec, cells) if m.period_match), None)

    working = evaluate(formula, lookup, Period(2035))
    assert working.value == pytest.approx(expected)
    assert working.inputs and not working.missing


def test_formula_shapes():
    avg = parse_formula("What is the FY2034 - FY2036 3 year average of R&D spending as a % of revenue?")
    assert avg is not None and avg.op == "avg" and [p.year for p in avg.periods] == [2034, 2035, 2036]
    assert avg.left is not None and avg.left.op == "pct_of"
    defined = parse_formula(
        "What is the FY2036 adjusted operating profit less capex? Define adjusted operating profit as operating "
        "income + restructuring charges."
    )
    assert defined is not None and defined.op == "-" and defined.left is not None and defined.left.op == "+"
    assert parse_formula("How large was the capital expenditure amount for Acme in FY2036?") is None
    terse = parse_formula("Acme FY2036 operating margin?", standard_definition)  # its metric alone, a definition
    assert terse is not None and terse.op == "pct_of", terse
    assert parse_formula("List the operating margins of the ferry lines.", standard_definition) is None
    named = "Kestrel's reef claim cites Table 4: what recall does Kestrel + Heron reach on the hard split?"
    assert parse_formula(named, standard_definition) is None  # "+" in a name is no sum
    share = parse_formula("Acme's freight cost as a share of net sales in 2036?")  # terse: no "what was"
    assert share is not None and share.op == "pct_of", share
    assert [o.lower() for o in operands(share)][:2] == ["freight cost", "net sales"], operands(share)
    assert parse_formula("What was the ferry fleet's fuel as a proportion of operating costs?") is not None
    assert parse_formula("What caused the drop in freight cost as a share of cargo income?") is None  # a cause


def test_missing_input_is_named_not_guessed():
    formula = parse_formula(
        "What is the FY2036 payables turnover? Defined as: COGS / average payables across FY2035 and FY2036."
    )
    assert formula is not None
    working = evaluate(formula, lambda phrase, period: None, Period(2036))
    assert working.value is None and any("COGS" in m for m in working.missing)


LEASES = [
    item("CONSOLIDATED BALANCE SHEETS (amounts in millions) | 2035 | 2034", page=3, n=0),
    item("Total lease assets | $ 2,715 | $ 2,460\nInventories | 12,384 | 11,072", page=3, n=1),
]


def test_a_row_naming_a_narrower_item_is_flagged_and_the_exact_row_is_not():
    question = "What were Acme's total assets when FY2035 closed?"
    narrow = answer_value(question, ["total assets"], line_item_names, [LEASES], ["acme"])
    assert narrow is not None and "Total lease assets" in narrow.statement and narrow.narrower
    whole = answer_value(question, ["total assets"], line_item_names, [BALANCE], ["acme"])
    assert whole is not None and "43,912" in whole.statement and not whole.narrower
    capex = answer_value("What is the FY2038 capex?", ["capex"], line_item_names, [CASH_FLOW], ["acme"])
    assert capex is not None and not capex.narrower  # "(PP&E)" is an abbreviation, not a narrower item


def test_an_amount_read_for_a_ratio_question_is_not_of_the_kind_asked():
    ratio = answer_value(
        "What is the inventory intensity ratio for FY2035?", ["inventory intensity ratio", "inventory"],
        line_item_names, [LEASES], ["acme"],
    )  # fmt: skip
    assert ratio is not None and "Inventories" in ratio.statement and not ratio.kind_ok
    # a textbook ratio is computed from its inputs, and one the evidence lacks is named, never guessed
    turnover = answer_value("What is the inventory turnover ratio for FY2035?", ["inventory turnover ratio"],
                            line_item_names, [LEASES], ["acme"])  # fmt: skip
    assert turnover is not None and not turnover.statement and turnover.missing == ("cost of sales (2035)",)
    amount = answer_value("How much inventory did Acme hold in FY2035?", ["inventory"], line_item_names, [LEASES])
    assert amount is not None and amount.kind_ok


INCOME = [
    item("CONSOLIDATED STATEMENTS OF INCOME (millions) | 2033 | 2032", page=4, n=0),
    item("Revenues | 52,406 | 38,915\nCost of sales | 19,733 | 7,962", page=4, n=1),
]


def test_a_company_total_read_for_a_qualified_metric_is_flagged_and_the_plain_metric_is_not() -> None:
    qualified = answer_value("What was Lumivax revenue in 2033?", ["Lumivax revenue"], line_item_names, [INCOME])
    assert qualified is not None and "52,406" in qualified.statement and qualified.narrower
    plain = answer_value("What was the revenue in 2033?", ["revenue"], line_item_names, [INCOME])
    assert plain is not None and "52,406" in plain.statement and not plain.narrower


SUMMARIES = [
    item("International Segment Performance Summary\n($ in millions) | 2037 | 2036\n"
         "Revenue | $ 2,847 | $ 3,106\nComparable sales % change | (4.1)% | 2.7 %", page=1, n=0,
         section=("International Segment",)),
    item("Consolidated Performance Summary\n($ in millions) | 2037 | 2036\n"
         "Revenue | $ 38,512 | $ 41,230\nComparable sales % change | (7.6)% | 8.9 %", page=2, n=0,
         section=("Consolidated Results",)),
]  # fmt: skip


def test_a_row_naming_the_qualified_metric_leads_the_broader_line_item() -> None:
    spec = value_spec("What was Acme's comparable sales change in 2037?", ["comparable sales change"],
                      line_item_names("sales"))  # fmt: skip
    best = rank_cells(spec, cells_in([SUMMARIES]))[0]
    assert best.cell.label == "Comparable sales % change", best.cell.label  # not "Revenue", the company's total


def test_a_segments_table_does_not_answer_for_the_company() -> None:
    spec = value_spec("What was the comparable sales change in 2037?", ["comparable sales change"], [])
    best = rank_cells(spec, cells_in([SUMMARIES]))[0]
    assert best.cell.page == 2 and best.cell.raw.startswith("(7.6)"), best.cell
    named = value_spec("What was the International comparable sales change in 2037?", ["comparable sales change"], [])
    assert rank_cells(named, cells_in([SUMMARIES]))[0].cell.page == 1  # unless the question names the segment


def test_a_sentence_about_another_item_is_broader_than_a_qualified_metric() -> None:
    sentence = item("Revenues from these contract manufacturing activities came to $245 million for 2033.", page=3)
    answer = answer_value("What was Lumivax revenue in 2033?", ["Lumivax revenue"], line_item_names, [[sentence]])
    assert answer is None or answer.narrower


def test_the_owner_and_the_quarter_are_not_metric_terms() -> None:
    spec = value_spec("What was Northwind's comparable sales change in the third quarter of fiscal 2036?",
                      ["Northwind", "comparable sales", "third quarter"], [])  # fmt: skip
    assert spec.terms == (frozenset(stems("comparable sales")),)


def test_a_modifier_narrows_only_when_the_evidence_names_the_metric_more_plainly() -> None:
    spec = value_spec("What is the endurance of the Heron 2?", ["endurance"], [])
    only = cells_in([[item("Item | Heron 2\nFlight endurance | 38 min")]])
    assert not narrows(spec, only[0], only)  # the document's one name for endurance
    both = cells_in([[item("Item | Heron 2\nFlight endurance | 38 min\nEndurance | 40 min")]])
    assert narrows(spec, both[0], both)


def test_the_statement_the_question_names_leads() -> None:
    income = item("(Millions) | 2035 | 2034\nDepreciation and amortization | 48 | 41", page=3,
                  section=("Consolidated Statements of Operations",))  # fmt: skip
    cash = item("(Millions) | 2035 | 2034\nDepreciation and amortization | 44 | 37", page=5,
                section=("Consolidated Statements of Cash Flows",))  # fmt: skip
    spec = value_spec(
        "What was D&A in FY2035, as the cash flow statement reports it?", ["depreciation and amortization"], []
    )
    assert rank_cells(spec, cells_in([[income], [cash]]))[0].cell.page == 5
    plain = value_spec("What was depreciation and amortization in FY2035?", ["depreciation and amortization"], [])
    assert rank_cells(plain, cells_in([[income], [cash]]))[0].cell.page == 3  # the better retrieved page


def test_a_statements_printed_title_is_the_context_of_its_rows() -> None:
    page = item("HARBOURLINE FERRIES, INC.\nCONSOLIDATED STATEMENTS OF CASH FLOWS\n(in thousands)\n"
                "(Thousands) | 2035 | 2034\nNet income | 87,314 | 141,260", page=42)  # fmt: skip
    cell = cells_in([[page]])[0]
    assert "CONSOLIDATED STATEMENTS OF CASH FLOWS" in cell.context


def test_an_input_read_in_the_named_statement_may_name_what_it_is_of() -> None:
    cash = item("CONSOLIDATED STATEMENTS OF CASH FLOWS\n(Thousands) | 2035 | 2034\n"
                "Depreciation and amortization of property, equipment and intangibles | 41,870 | 37,455", page=42)  # fmt: skip
    taxes = item("Deferred tax assets (liabilities):\n(Thousands) | 2035 | 2034\n"
                 "Depreciation and amortization | (29,118) | (8,460)", page=59, section=("10. Income Taxes",))  # fmt: skip
    income = item("CONSOLIDATED STATEMENTS OF OPERATIONS\n(Thousands) | 2035 | 2034\n"
                  "Revenues | 4,912,380 | 4,113,502\nOperating income | 218,655 | 276,940", page=40)  # fmt: skip
    question = ("What is Acme's EBITDA % margin in FY2035? Compute EBITDA from D&A (the cash flow statement's "
                "figure) plus operating income.")  # fmt: skip
    answer = answer_value(question, ["EBITDA margin"], line_item_names, [[income], [cash], [taxes]])
    assert answer is not None and answer.statement.startswith("5.3%"), answer


def test_a_ratio_of_two_named_terms_is_not_the_standard_metric_one_of_them_names() -> None:
    from engine.reading.line_items import standard_definition

    assert parse_formula("What is EBITDA for Acme in FY2035?", standard_definition) is not None
    for question, terms in (
        ("What is the net debt to EBITDA ratio for Acme in FY2036?", ("net debt", "EBITDA")),
        ("What is the revenue to working capital ratio for Acme?", ("revenue", "working capital")),
        ("What is Net Debt to Total Equity for Acme in FY2036?", ("Net Debt", "Total Equity")),
    ):
        tree = parse_formula(question, standard_definition)  # the two terms divided, neither one's definition
        assert tree is not None and tree.op == "/" and tree.left and tree.right, question
        assert tree.left.operand and tree.left.operand.phrase == terms[0]
        assert tree.right.operand and tree.right.operand.phrase.startswith(terms[1])
        assert not tree.right.operand.phrase.endswith((" in", " for")), "its period's preposition is no term"
    assert parse_formula("What is the maximum time to charge the Acme battery?", standard_definition) is None


def test_a_metric_qualified_after_its_name_is_not_the_textbook_metric() -> None:
    from engine.reading.line_items import standard_definition

    assert standard_definition("the FY2037 operating profit margin") == "operating income as a % of revenue"
    assert standard_definition("the FY2036 operating profit margin before fuel surcharges") is None
    assert standard_definition("free cash flow after dividends") is None
    assert (
        parse_formula("What is Acme's FY2036 Operating Profit Margin Before Fuel Surcharges?", standard_definition)
        is None
    )


def test_a_computation_read_in_columns_of_no_known_period_is_unchecked_when_the_question_names_none() -> None:
    income = [item("(Millions) | Current | Prior\nOperating income | 1,482 | 1,215\nInterest expense | 24 | 28")]
    unknown = answer_value("What is the interest coverage ratio for Acme?", ["interest coverage"], line_item_names,
                           [income], ["acme"])  # fmt: skip
    assert unknown is not None and unknown.statement.startswith("61.75") and not unknown.period_ok
    dated = [item("(Millions) | 2039 | 2038\nOperating income | 1,482 | 1,215\nInterest expense | 24 | 28")]
    for question in ("What is the interest coverage ratio for Acme?", "What is the FY2039 interest coverage ratio?"):
        known = answer_value(question, ["interest coverage"], line_item_names, [dated], ["acme"])
        assert known is not None and known.period_ok, question


def test_a_currency_amount_or_a_percentage_is_never_the_count_asked() -> None:
    paid = [item("Under the exhibits filed, the fund paid $72.32 per share.")]
    price = answer_value("How many exhibits were filed?", ["exhibits"], line_item_names, [paid])
    assert price is not None and not price.kind_ok, price
    prose = [item("The fund bought 12.5 million shares at $72.32 each, 4% of the float.")]
    shares = answer_value("How many shares did the fund buy?", ["shares"], line_item_names, [prose])
    assert shares is not None and shares.kind_ok and "12.5" in shares.statement, shares
    fired = [item("Over 5,000 employees were fired, the exhibits filed with the application show.")]
    staff = answer_value("How many exhibits were filed with the application?", ["exhibits"], line_item_names, [fired])
    assert staff is not None and not staff.kind_ok, "a count of employees is no count of exhibits"
    assert "exhibit" in (counted_things("How many exhibits were filed with the application?") or set())
    assert counted_things("How many US dollars did each share cost?") is None, "an amount of money is no count"
    dollars = answer_value("How many US dollars did each share cost?", ["share"], line_item_names, [prose])
    assert dollars is not None and dollars.kind_ok, dollars


def test_the_cost_of_sales_is_not_the_sales() -> None:
    assert "total net sales" not in line_item_names("cost of sales")
    assert "cost of goods sold" in line_item_names("the cost of revenue")
    assert "net sales" in line_item_names("net sales") and "net sales" in line_item_names("revenues and cost of sales")
    income = [item("(Millions) | 2037 | 2036\nTotal net sales | 142,530 | 118,204\nCost of sales | 89,617 | 74,381")]
    cost = answer_value("What was the cost of sales in FY2037?", ["cost of sales"], line_item_names, [income])
    assert cost is not None and "89,617" in cost.statement, cost


def test_a_cell_with_an_approximate_or_bounding_number_is_a_value_not_a_header() -> None:
    table = [item("Property | Heron 2\nFlight endurance | 38 min\nBattery swap | about 25 min\nRange | under 5 km")]
    cells = {c.label: c for c in cells_in([table])}
    assert cells["Battery swap"].value == 25 and cells["Battery swap"].column == "Heron 2"
    assert cells["Battery swap"].display() == "about 25 min" and cells["Range"].display() == "under 5 km"
    assert cells["Flight endurance"].display() == "38 min"


def test_how_long_asks_for_a_measure_and_names_no_line_item() -> None:
    spec = value_spec("How long does a battery swap take on the Heron 2?", ["battery swap", "long", "take"], [])
    assert spec.terms == (frozenset({"battery", "swap"}),)
    assert value_spec("What is the long-term debt?", ["long-term debt"], []).terms == (
        frozenset({"long-term", "debt"}),
    )


def test_a_bare_number_in_prose_answers_only_a_count_of_the_things_it_counts() -> None:
    prose = [item("Crews flew 64 survey flights over twelve sampling stations. The fleet has 3 aircraft.")]
    flights = answer_value("How many survey flights did crews fly?", ["survey flights", "crews fly"],
                           line_item_names, [prose])  # fmt: skip
    assert flights is not None and flights.cells[0].value == 64 and flights.cells[0].measure == "survey flights"
    assert answer_value("How many pilots did the office train?", ["pilots"], line_item_names, [prose]) is None
    assert answer_value("What speed did the survey flights reach?", ["speed", "survey flights"], line_item_names,
                        [prose]) is None  # fmt: skip


# a lease table whose last row is labelled "Total" alone, and a sentence stating the workforce
LEASE_AND_PEOPLE = [
    item("Lease costs\n(Millions) | 2031 | 2030\nOperating lease cost | $ 180 | $ 171\nVariable lease cost | 27 | 25\n"
         "Total | $ 207 | $ 196", page=2),
    item("At December 31, 2031, Zenith's headcount was 41,250 full-time employees.", page=3),
]  # fmt: skip


def test_a_row_labelled_total_alone_is_not_the_total_asked_for():
    value = answer_value("What was Zenith's total headcount in 2031?", ["total headcount"], line_item_names,
                         [LEASE_AND_PEOPLE[:1], LEASE_AND_PEOPLE[1:]])  # fmt: skip
    assert value is not None and "41,250" in value.statement and "207" not in value.statement, value
    lease_only = answer_value("What was Zenith's total headcount in 2031?", ["total headcount"], line_item_names,
                              [LEASE_AND_PEOPLE[:1]])  # fmt: skip
    assert lease_only is None or lease_only.label_cover < 0.5, lease_only


def test_a_decimal_stated_in_prose_is_a_value_and_a_reference_number_is_not():
    text = ("On the harbour survey, the tuned sonar reaches a detection score of 71.6, against 64.2 for the "
            "baseline (see Section 4.2 and Table 3).")  # fmt: skip
    raws = [c.raw for c in cells_in([[item(text)]])]
    assert "71.6" in raws and "64.2" in raws, raws
    assert not any(r.startswith(("4.2", "3")) for r in raws), raws
    value = answer_value("What detection score does the tuned sonar reach?", ["detection score", "tuned sonar"],
                         line_item_names, [[item(text)]])  # fmt: skip
    assert value is not None and value.statement.startswith("71.6"), value


def test_a_decimal_never_answers_how_many():
    text = "Over the contacts the sonar logged, its mean detection score was 0.8."
    value = answer_value("How many contacts did the sonar log?", ["contacts"], line_item_names, [[item(text)]])
    assert value is None or not value.statement.startswith("0.8"), value
    counted = "The sonar logged 14 contacts; its mean detection score was 0.8."
    value = answer_value("How many contacts did the sonar log?", ["contacts"], line_item_names, [[item(counted)]])
    assert value is not None and value.statement.startswith("14"), value


def test_a_section_number_opening_a_heading_is_not_a_value():
    text = "4.3 Results On The Harbour Set\nThe tuned sonar reaches a detection score of 71.6."
    raws = [c.raw for c in cells_in([[item(text)]])]
    assert "71.6" in raws and not any(r.startswith("4.3") for r in raws), raws


def test_a_count_of_fractional_units_is_still_read_for_how_many_units():
    text = "The tuned sonar improves on the baseline by 7.2 points on the harbour set."
    value = answer_value("By how many points does the tuned sonar improve on the baseline?", ["points"],
                         line_item_names, [[item(text)]])  # fmt: skip
    assert value is not None and value.statement.startswith("7.2 points"), value


def test_the_total_of_two_items_is_their_sum_and_a_change_as_a_percentage_is_a_growth() -> None:
    total = parse_formula("In 2031, what is the total of Freight Fees and Dock Fees?")
    assert total is not None and total.op == "+" and operands(total) == ["Freight Fees", "Dock Fees"]
    assert parse_formula("What were total freight fees and dock fees in 2031?") is None  # two items, no sum asked
    growth = parse_formula("Express as a percentage the change in Dock Fees from 2030 to 2031.")
    assert growth is not None and growth.op == "%" and operands(growth) == ["Dock Fees"]


def test_a_metric_qualified_by_a_name_is_read_from_the_row_naming_it() -> None:
    income = [item("Consolidated Statements of Income\n(millions) | 2031 | 2030\nRevenues | $ 64,917 | $ 47,203",
                   page=60)]  # fmt: skip
    products = [item("Revenues by product\n(millions) | 2031 | 2030\nZorbex | 28,446 | 212\nPrevix | 4,139 | 4,587",
                     page=30)]  # fmt: skip
    named = answer_value("What was Zorbex revenue in 2031?", ["Zorbex revenue"], line_item_names, [income, products])
    assert named is not None and named.statement.startswith("Zorbex, 2031: 28,446"), named
    total = answer_value("What were total revenues in 2031?", ["total revenues"], line_item_names, [income, products])
    assert total is not None and "64,917" in total.statement, total


def test_rupees_and_lakh_grouped_digits_are_one_amount() -> None:
    from engine.reading.table_values import parse_number

    assert parse_number("a commission of up to Rs.4,00,000/- each") == (400000.0, "Rs.", "", "Rs.4,00,000")
    assert parse_number("12,34,567.50") == (1234567.5, "", "", "12,34,567.50")
    assert parse_number("Mrs 5 cats") == (5.0, "", "", "5")  # a word ending in "rs" is no currency


def test_a_headers_second_line_keeps_the_columns_its_first_line_named() -> None:
    from engine.contracts import EvidenceItem
    from engine.reading.sentence_values import cells_in

    table = EvidenceItem(
        chunk_id="d:p7:b6", doc_id="d", file_name="board.pdf", page=7,
        text="(in thousands)\nMember | Base Travel Bonus Fees Total\nSalary and | Meeting\n"
        "A. Brook 204.00 28.51 204.00 | — 436.51",
    )  # fmt: skip
    read = [(c.label, c.column, c.raw) for c in cells_in([[table]])]
    assert ("A. Brook", "Total", "436.51") in read and ("A. Brook", "Base", "204.00") in read, read


def test_a_row_of_missing_figures_is_a_row_not_a_header() -> None:
    from engine.contracts import EvidenceItem
    from engine.reading.sentence_values import cells_in

    table = EvidenceItem(chunk_id="d:p3:b0", doc_id="d", file_name="county.pdf", page=3,
                         text="Year | Number of Wells\n1990 | 1,766\n2000 | NA\n2010 | 1,453")  # fmt: skip
    read = {(c.label, c.column, c.raw) for c in cells_in([[table]])}
    assert ("2010", "Number of Wells", "1,453") in read, read
