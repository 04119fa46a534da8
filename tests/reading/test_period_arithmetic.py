"""Arithmetic over one line item's values in the periods a question names: a change, a percentage change, a mean.

An analyst's "change in X from 2030 to 2031" is the later value less the earlier one, in X's own unit; only a
question that asks for a percentage, a rate or growth wants the relative change. "The average X for 2030 and
2031" is the mean of the two values. Made-up tables throughout.
"""

from __future__ import annotations

import pytest

from engine.contracts import EvidenceItem
from engine.reading.changes import asked_direction
from engine.reading.formula_values import evaluate
from engine.reading.formulas import operands, parse_formula
from engine.reading.line_items import line_item_names
from engine.reading.periods import Period
from engine.reading.sentence_values import cells_in
from engine.reading.value_answer import answer_value
from engine.reading.value_match import rank_cells
from engine.reading.value_spec import value_spec


def item(text: str, n: int = 0) -> EvidenceItem:
    return EvidenceItem(chunk_id=f"d:p4:b{n}", doc_id="d", file_name="harbour.pdf", page=4, text=text)


FEES = [
    item("Port fees (in thousands) | 2031 | 2030 | 2029", n=0),
    item(
        "Dock fees | 1,250 | 1,000 | 800\nPilotage fees | 420 | 460 | 500\nTotal port fees | 1,670 | 1,460 | 1,300", n=1
    ),
]


def computed(question: str) -> float | None:
    formula = parse_formula(question)
    assert formula is not None, question
    cells = cells_in([FEES])

    def lookup(phrase: str, period: Period | None) -> object:
        spec = value_spec(f"{phrase} {period.label() if period else ''}", [phrase], line_item_names(phrase))
        return next((m.cell for m in rank_cells(spec, cells) if m.period_match), None)

    return evaluate(formula, lookup, Period(2031)).value  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What was the change in Dock fees from 2030 to 2031?", 250_000),
        ("How large was the net change in pilotage fees between 2029 and 2031?", -80_000),
        ("What is the difference in dock fees between 2029 and 2031?", 450_000),
        ("By how much did dock fees increase from 2029 to 2030?", 200_000),
        ("How much did pilotage fees decrease between 2030 and 2031?", -40_000),
    ],
)
def test_a_change_between_two_named_periods_is_the_later_value_less_the_earlier(question, expected) -> None:
    formula = parse_formula(question)
    assert formula is not None and formula.op == "-", formula
    assert computed(question) == pytest.approx(expected)


@pytest.mark.parametrize(
    "question",
    [
        "What was the percentage change in dock fees from 2030 to 2031?",
        "Express as a percentage the change in dock fees from 2030 to 2031.",
        "What is the dock fees growth rate from 2030 to 2031?",
        "By what percent did dock fees increase from 2030 to 2031?",
        "What was the change in dock fees from 2030 to 2031, in %?",
    ],
)
def test_a_change_asked_as_a_percentage_or_a_rate_is_relative(question) -> None:
    formula = parse_formula(question)
    assert formula is not None and formula.op == "%", formula
    assert computed(question) == pytest.approx(25.0)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What was the average dock fees for 2030 and 2031?", 1_125_000),
        ("What is the average of pilotage fees between 2029 and 2031?", 460_000),
    ],
)
def test_an_average_over_named_periods_is_the_mean_of_their_values(question, expected) -> None:
    assert computed(question) == pytest.approx(expected)
    assert operands(parse_formula(question)) in (["dock fees"], ["pilotage fees"])


def test_one_period_asks_for_no_arithmetic() -> None:
    assert parse_formula("What were dock fees in 2031?") is None
    assert parse_formula("What was the average dock fee in 2031?") is None  # a mean the document states, if any


def test_the_answer_states_a_change_in_the_items_unit_with_both_inputs() -> None:
    answer = answer_value("What was the change in dock fees from 2030 to 2031?", ["dock fees"], line_item_names, [FEES])
    assert answer is not None, answer
    assert answer.statement.startswith("250 thousand") or answer.statement.startswith("250,000"), answer.statement
    assert "1,250" in answer.statement and "1,000" in answer.statement, answer.statement
    assert "%" not in answer.statement.split("(")[0], answer.statement


RATES = [
    item("Blended rates | 2031 | 2030", n=0),
    item("Blended levy rate | 18.5% | 21.0%\nLevy paid | 312 | 298", n=1),
]


def test_a_change_asked_in_the_past_tense_is_read_too() -> None:
    formula = parse_formula("How much has the blended levy rate changed between 2030 and 2031?")
    assert formula is not None and formula.op == "-" and operands(formula) == ["blended levy rate"], formula


def test_a_change_of_a_percentage_is_stated_in_percentage_points() -> None:
    answer = answer_value(
        "How much has the blended levy rate changed between 2030 and 2031?", ["blended levy rate"],
        line_item_names, [RATES],
    )  # fmt: skip
    assert answer is not None and answer.statement.startswith("-2.5 percentage points"), answer
    assert "18.5%" in answer.statement and "21.0%" in answer.statement, answer.statement


def test_numbers_stated_respectively_for_named_periods_are_each_of_its_own_period() -> None:
    said = [item("The blended levy rate was 19.4 percent and 22.1 percent for 2031 and 2030, respectively.")]
    cells = cells_in([said])
    assert [(c.raw, [p.year for p in c.periods]) for c in cells] == [("19.4 percent", [2031]), ("22.1 percent", [2030])]
    answer = answer_value(
        "How much has the blended levy rate changed between 2030 and 2031?", ["blended levy rate"],
        line_item_names, [said],
    )  # fmt: skip
    assert answer is not None and answer.statement.startswith("-2.7 percentage points"), answer


def test_without_respectively_a_sentence_s_numbers_keep_all_its_periods() -> None:
    said = [item("Levies were 19.4 percent and 22.1 percent in 2031 and 2030 as rates changed.")]
    assert all(len(c.periods) == 2 for c in cells_in([said]))
    mixed = [item("Levies reached $4.1 million in 2031, up 8 percent from 2030.")]
    assert all(len(c.periods) == 2 for c in cells_in([mixed])), "an amount and its change are no two periods' figures"


def test_each_number_followed_by_a_period_of_its_own_is_that_period_s() -> None:
    said = [item("Levies rose to 19.4 percent in 2031 from 22.1 percent in 2030 as rates changed.")]
    cells = cells_in([said])
    assert [(c.raw, [p.year for p in c.periods]) for c in cells] == [("19.4 percent", [2031]), ("22.1 percent", [2030])]


def test_one_number_is_never_both_periods_values_of_a_change() -> None:
    said = [item("The blended levy rate reached 19.4 percent in 2031, its highest since 2030.")]
    answer = answer_value(
        "How much has the blended levy rate changed between 2030 and 2031?", ["blended levy rate"],
        line_item_names, [said],
    )  # fmt: skip
    assert answer is None or not answer.statement, answer


@pytest.mark.parametrize(
    ("question", "lead"),
    [
        ("Did dock fees grow between 2030 and 2031?", "Yes: "),
        ("Did pilotage fees increase from 2029 to 2031?", "No: -80 thousand"),
        ("Was there a fall in pilotage fees between 2029 and 2031?", "Yes: -80 thousand (-16.0%)"),
        ("Has the harbour reduced its pilotage fees from 2030 to 2031?", "Yes: -40 thousand"),
        ("Did dock fees change between 2030 and 2031?", "Yes: 250 thousand (+25.0%)"),
    ],
)
def test_a_yes_no_question_whether_an_item_moved_is_answered_by_the_change(question: str, lead: str) -> None:
    keyword = "dock fees" if "dock" in question else "pilotage fees"
    answer = answer_value(question, [keyword], line_item_names, [FEES])
    assert answer is not None and answer.statement.startswith(lead), answer


def test_a_mean_is_stated_to_the_places_it_needs() -> None:
    halves = [item("Berth fees (in thousands) | 2031 | 2030"), item("Berth fees | 545 | 242", n=1)]
    answer = answer_value(
        "What was the average berth fees for 2030 and 2031?", ["berth fees"], line_item_names, [halves]
    )
    assert answer is not None and answer.statement.startswith("393.50 thousand"), answer


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("How high was the growth rate in dock fees in 2031?", 25.0),
        ("What was the net change in dock fees for 2030?", 200_000),
    ],
)
def test_a_change_asked_as_a_number_for_one_year_is_over_the_year_before(question: str, expected: float) -> None:
    assert computed(question) == pytest.approx(expected)


def test_a_plain_change_in_one_year_may_ask_what_changed() -> None:
    assert parse_formula("Describe the change in fee policy in 2031.") is None


def test_a_yes_no_question_about_growth_in_one_year_asks_no_arithmetic() -> None:
    assert parse_formula("Is growth in dock fees expected to slow in 2031?") is None


REVENUE = [item("Income statement (in millions) | 2031 | 2030"), item("Net revenues | $ 5,070 | $ 6,046", n=1)]


@pytest.mark.parametrize(
    ("question", "lead"),
    [
        ("Were net revenues in 2031 higher than in 2030?", "No: -$976 million"),
        ("Were net revenues in 2031 lower than they were in 2030?", "Yes: -$976 million"),
        ("Were net revenues in 2030 greater than in 2031?", "Yes: $976 million"),
    ],
)
def test_a_yes_no_question_whether_one_period_was_higher_than_another(question: str, lead: str) -> None:
    answer = answer_value(question, ["net revenues"], line_item_names, [REVENUE])
    assert answer is not None and answer.statement.startswith(lead), answer


RESULTS = [
    item("Statement of operations (in millions) | 2031 | 2030"),
    item(
        "Net revenues | $ 5,000 | $ 4,000\nGross profit | 2,000 | 1,800\nOperating income | 600 | 500\n"
        "Crew wages | 450 | 300",
        n=1,
    ),
]


@pytest.mark.parametrize(
    ("question", "keyword", "lead"),
    [
        # a margin by its textbook definition, computed in each year, then compared
        ("Is the harbour showing an improving gross margin in 2031?", "gross margin",
         "No: -5.0 percentage points, from 45.0% in 2030 to 40.0% in 2031"),
        ("Was the operating margin growing during fiscal 2031?", "operating margin",
         "No: -0.5 percentage points, from 12.5% in 2030 to 12.0% in 2031"),
        # the item's own arithmetic, and a question that names both ways gets the way it went
        ("Did crew wages as a percentage of net revenues rise or fall in 2031?", "crew wages",
         "Increased: 1.5 percentage points, from 7.5% in 2030 to 9.0% in 2031"),
        ("Has the operating margin increased or decreased between 2030 and 2031?", "operating margin",
         "Decreased: -0.5 percentage points"),
        # a printed line item in one year: over the year before
        ("Did operating income increase in 2031?", "operating income", "Yes: 100 million"),
    ],
)  # fmt: skip
def test_whether_an_item_moved_in_one_year_compares_it_with_the_year_before(
    question: str, keyword: str, lead: str
) -> None:
    answer = answer_value(question, [keyword], line_item_names, [RESULTS])
    assert answer is not None and answer.statement.startswith(lead), answer


def test_a_word_after_a_metric_s_name_makes_another_metric() -> None:
    from engine.reading.line_items import standard_definition

    margin = parse_formula("Did the harbour's gross margin improve in 2031?", standard_definition)
    assert margin is not None and margin.left is not None and margin.left.op == "at"
    other = parse_formula("Did the harbour's free cash flow conversion improve in 2031?", standard_definition)
    assert other is not None and other.left is not None and other.left.operand is not None
    assert other.left.operand.phrase == "free cash flow conversion"


def test_a_margin_whose_profit_is_not_printed_is_computed_the_textbook_s_other_way() -> None:
    costs = [
        item("Statement of operations (in millions) | 2031 | 2030"),
        item("Net revenues | $ 5,000 | $ 4,000\nCost of sales | 3,000 | 2,200\nOperating income | 600 | 500", n=1),
    ]
    answer = answer_value("Did the gross margin improve in 2031?", ["gross margin"], line_item_names, [costs])
    assert answer is not None and answer.statement.startswith("No: -5.0 percentage points, from 45.0%"), answer


BALANCES = [
    item("Balance sheet (in millions) | 2031 | 2030"),
    item(
        "Cash and cash equivalents | 300 | 200\nAccounts receivable, net | 500 | 400\nInventories | 900 | 800\n"
        "Total current assets | 1,900 | 1,600\nTotal current liabilities | 1,000 | 1,000",
        n=1,
    ),
]
RESULTS_WITH_COST = [
    item("Statement of operations (in millions) | 2031 | 2030"),
    item("Net revenues | $ 5,000 | $ 4,000\nCost of sales | 3,000 | 2,200\nGross profit | 2,000 | 1,800", n=1),
]


def test_a_ratio_of_balances_is_compared_in_its_own_units() -> None:
    balances = BALANCES
    answer = answer_value(
        "Did the harbour's quick ratio rise or fall from 2030 to 2031?", ["quick ratio"], line_item_names,
        [balances],
    )  # fmt: skip
    assert answer is not None and answer.statement.startswith("Increased: 0.20 (+33.3%), from 0.60 in 2030 to 0.80"), (
        answer
    )


def test_a_metric_textbooks_define_two_ways_states_both_values_and_is_doubted() -> None:
    answer = answer_value("What was the quick ratio in 2031?", ["quick ratio"], line_item_names, [BALANCES])
    assert answer is not None and answer.statement.startswith("0.80 (computed from"), answer
    assert "computed as (total current assets - inventories) / total current liabilities: 1.00" in answer.statement
    assert answer.doubts and "1.00" in answer.doubts[0]


def test_definitions_that_agree_state_one_value_without_doubt() -> None:
    answer = answer_value("What was the gross margin in 2031?", ["gross margin"], line_item_names, [RESULTS_WITH_COST])
    assert answer is not None and answer.statement.startswith("40.0% (computed from"), answer
    assert "computed as" not in answer.statement and not answer.doubts, answer


def test_a_metric_whose_other_textbook_measure_is_not_printed_is_doubted_without_a_second_value() -> None:
    short = [
        item("Balance sheet (in millions) | 2031 | 2030"),
        item(
            "Cash and cash equivalents | 300 | 200\nAccounts receivable, net | 500 | 400\n"
            "Total current liabilities | 1,000 | 1,000",
            n=1,
        ),
    ]
    answer = answer_value("What was the quick ratio in 2031?", ["quick ratio"], line_item_names, [short])
    assert answer is not None and answer.statement.startswith("0.80 (computed from"), answer
    assert "computed as" not in answer.statement
    assert answer.doubts and "does not give" in answer.doubts[0]


def test_a_judgement_based_on_a_standard_metric_computes_it_and_on_anything_else_computes_nothing() -> None:
    from engine.reading.line_items import standard_definition

    ratio = parse_formula("Is the harbour's liquidity sound, based on its current ratio for 2031?", standard_definition)
    assert ratio is not None and ratio.op == "/", ratio
    assert parse_formula("Is the harbour doing well based on its fleet?", standard_definition) is None


def test_a_question_whether_a_company_has_a_level_of_a_standard_metric_computes_it() -> None:
    from engine.reading.line_items import standard_definition

    asked = parse_formula("Does the harbour show a positive working capital for 2031?", standard_definition)
    assert asked is not None and asked.op == "-", asked
    assert parse_formula("Does the harbour have a working crane in 2031?", standard_definition) is None


@pytest.mark.parametrize("owner", ["Blue Ferry Co's", "the harbour's", "Acme's"])
def test_whose_item_it_is_is_not_part_of_its_name(owner: str) -> None:
    from engine.reading.changes import asked_change

    question = f"Did {owner} crew wages as a percentage of net revenues rise or fall in 2031?"
    change = asked_change(question, question)
    assert change is not None and change.subject == "crew wages as a percentage of net revenues", change


def test_each_figure_of_one_kind_in_a_clause_naming_one_period_is_that_period_s() -> None:
    said = [item("We ended 2041 with 6.2 million members, up 12% from 3.5 million at the end of 2040.")]
    found = {c.raw: [p.year for p in c.periods] for c in cells_in([said])}
    assert found == {"6.2 million": [2041], "12%": [2041, 2040], "3.5 million": [2040]}
    dated = [item("Margins were 33% for the year ended December 31, 2041, against 27% for December 31, 2040.")]
    assert [[p.year for p in c.periods] for c in cells_in([dated])] == [[2041], [2040]], "a date's comma is no clause"


def test_a_list_s_items_are_of_the_one_period_their_lead_names() -> None:
    page = [
        EvidenceItem(chunk_id="d:p4:b0", doc_id="d", file_name="f.pdf", page=4,
                     text="Fleets grew. In 2031, the yard invested $2.6 billion, as follows:"),
        EvidenceItem(chunk_id="d:p4:b1", doc_id="d", file_name="f.pdf", page=4, kind="list_item",
                     text="• $2.3 billion in the docks; and"),
        EvidenceItem(chunk_id="d:p4:b2", doc_id="d", file_name="f.pdf", page=4, kind="list_item",
                     text="• $0.3 billion in 2030 orders."),
    ]  # fmt: skip
    found = {c.raw: [p.year for p in c.periods] for c in cells_in([page])}
    assert found["$2.3 billion"] == [2031] and found["$0.3 billion"] == [2030], found


@pytest.mark.parametrize(
    ("question", "direction"),
    [("Did the ferry line's fuel cost go up or down from 2030 to 2031?", "either"),
     ("Did the fuel cost go down between 2030 and 2031?", "down"),
     ("Has the berth fee gone up from 2030 to 2031?", "up")],
)  # fmt: skip
def test_going_up_or_down_is_a_way_an_item_moves(question: str, direction: str) -> None:
    assert asked_direction(question) == direction
