"""A header whose column labels the text layer ran into one cell, and rows printing one value per period under it."""

from __future__ import annotations

from engine.contracts import EvidenceItem
from engine.reading.line_items import line_item_names
from engine.reading.table_rows import (
    peeled,
    period_columns,
    split_run_together,
    word_columns,
    wrapped_change_columns,
)
from engine.reading.table_values import table_cells
from engine.reading.value_answer import answer_value

RESULTS = [
    EvidenceItem(chunk_id="d:p9:b0", doc_id="d", file_name="harbour.pdf", page=9, text="RESULTS OF OPERATIONS"),
    EvidenceItem(
        chunk_id="d:p9:b1", doc_id="d", file_name="harbour.pdf", page=9,
        text="(Dollars in millions) | FISCAL 2031 FISCAL 2030 % CHANGE FISCAL 2029 % CHANGE\n"
        "Port revenues | $ 5,120 $ 4,671 | 10 % $ 4,453 | 5 %\n"
        "Gross profit | 2,229 | 2,147 | 4 % 1,996 | 8 %\n"
        "Gross margin | 43.5 % | 46.0 % | 44.8 %",
    ),
]  # fmt: skip


def test_run_together_column_labels_become_columns() -> None:
    header = ["(Dollars in millions)", "FISCAL 2031 FISCAL 2030 % CHANGE FISCAL 2029 % CHANGE"]
    assert split_run_together(header)[1:] == ["FISCAL 2031", "FISCAL 2030", "% CHANGE", "FISCAL 2029", "% CHANGE"]
    assert split_run_together(["", "Year ended March 31, 2031 2030"]) == ["", "Year ended March 31, 2031 2030"]


def test_a_row_of_one_value_per_period_skips_the_change_columns() -> None:
    header = ["", "FISCAL 2031", "FISCAL 2030", "% CHANGE", "FISCAL 2029", "% CHANGE"]
    assert period_columns(header, 3) == ["FISCAL 2031", "FISCAL 2030", "FISCAL 2029"]
    assert period_columns(header, 5) is None  # a full row: every column has its value


def test_each_value_is_read_in_its_own_column_and_period() -> None:
    read = {(c.label, c.column): c.raw for c in table_cells(RESULTS)}
    assert read[("Gross profit", "FISCAL 2030")] == "2,147" and read[("Gross profit", "FISCAL 2029")] == "1,996"
    assert read[("Gross margin", "FISCAL 2029")].startswith("44.8")
    answer = answer_value(
        "Did the gross margin decline from fiscal 2030 to fiscal 2031?", ["gross margin"], line_item_names, [RESULTS]
    )
    assert answer is not None and answer.statement.startswith("Yes: -2.5 percentage points"), answer


COSTS = [
    EvidenceItem(
        chunk_id="d:p11:b0", doc_id="d", file_name="harbour.pdf", page=11,
        text="(dollars in millions) | 2031 | 2030 | 2029\n% Change\n2031-2030\n"
        "Pilotage | 1,210 | 1,050 | 990 | 15 %\n"
        "Dredging | 640 | 655 | 600 | (2) %",
    ),
]  # fmt: skip


def test_a_change_column_the_header_printed_on_its_own_line_is_the_rows_last_value() -> None:
    assert wrapped_change_columns(["(dollars in millions)", "2031", "2030", "2029"], ["1,210", "1,050", "990", "15 %"])
    assert wrapped_change_columns(["", "2031", "2030"], ["12 %", "11 %", "1 %"]) is None  # a row of percentages
    rows = {(c.label, c.column): c.raw for c in table_cells(COSTS)}
    assert rows[("Pilotage", "2031")] == "1,210" and rows[("Pilotage", "2029")] == "990"
    assert rows[("Dredging", "2030")] == "655"


def test_one_word_column_labels_run_into_one_cell_head_the_values_one_each() -> None:
    assert word_columns(["Test run", "Hours Stops Faults"], 3) == ["Hours", "Stops", "Faults"]
    assert word_columns(["Test run", "Hours Stops Faults"], 2) is None, "as many words as values, or none"
    assert word_columns(["Test run", "Hours", "Stops"], 2) is None, "a header with a cell per value is read as is"
    trials = EvidenceItem(chunk_id="d:p4:b0", doc_id="d", file_name="trials.pdf", page=4,
                          text="Test run | Hours Stops Faults\nKestrel | 412 9 2\nOsprey | 388 14 5")  # fmt: skip
    answer = answer_value("How many stops did the Osprey make in its test run?", ["stops", "Osprey"],
                          line_item_names, [[trials]])  # fmt: skip
    assert answer is not None and answer.statement == "Osprey, Stops: 14", answer


def test_rows_under_a_heading_ending_in_a_preposition_finish_its_phrase() -> None:
    flows = EvidenceItem(chunk_id="d:p7:b0", doc_id="d", file_name="ferries.pdf", page=7,
                         text="(in millions) | 2031 | 2030\nProvision for income taxes | 900 | 800\n"
                              "Cash paid during the year for:\nInterest | $ 149 | $ 124\nIncome taxes, net | $ 527 | $ 452\n"
                              "NON-CASH FINANCING ACTIVITIES:\nDividends declared but not paid | 10 | 20")  # fmt: skip
    labels = {c.label for c in table_cells([flows])}
    assert "Cash paid during the year for: Income taxes, net" in labels and "Provision for income taxes" in labels
    assert "Dividends declared but not paid" in labels, "a heading that ends in a noun is not finished by its rows"
    answer = answer_value("How much cash did the ferry line pay for income taxes in 2031?",
                          ["income taxes", "cash", "pay", "2031"], line_item_names, [[flows]])  # fmt: skip
    assert answer is not None and "527" in answer.statement, answer


def test_names_printed_over_the_rows_without_cell_breaks_head_their_values() -> None:
    trials = EvidenceItem(chunk_id="d:p5:b0", doc_id="d", file_name="trials.pdf", page=5,
                          text="Table 4: Sea trials.\nKestrel Osprey Heron-2\nTop speed (knots) | 31.5 | 28.25 30.75\n"
                               "Range at sea (nmi) 410.5 | 388.0 402.25\nThe trials ran in March.")  # fmt: skip
    cells = {(c.label, c.column): c.raw for c in table_cells([trials])}
    assert cells[("Top speed (knots)", "Osprey")] == "28.25" and cells[("Top speed (knots)", "Heron-2")] == "30.75"
    assert cells[("Range at sea (nmi)", "Kestrel")] == "410.5", "the first value ran into the label"
    answer = answer_value("What top speed does the Osprey reach?", ["top speed", "Osprey"], line_item_names,
                          [[trials]])  # fmt: skip
    assert answer is not None and answer.statement.endswith("28.25"), answer
    prose = EvidenceItem(chunk_id="d:p5:b1", doc_id="d", file_name="trials.pdf", page=5,
                         text="Speeds by the hour\nCalm | 1.25 | 2.50")  # fmt: skip
    assert {c.column for c in table_cells([prose])} == {""}, "a line with a connective names no columns"


def test_a_ratio_a_table_prints_is_read_by_its_caption_not_computed() -> None:
    trials = EvidenceItem(chunk_id="d:p6:b0", doc_id="d", file_name="trials.pdf", page=6,
                          text="Table 3: Ratios of failures to trips across boats and seas.\nKestrel Osprey Heron\n"
                               "Calm seas | 0.12 | 0.20 0.15\nRough seas 0.45 | 0.61 0.52")  # fmt: skip
    assert {c.caption for c in table_cells([trials])} == {"Ratios of failures to trips across boats and seas."}
    answer = answer_value("What is the ratio of failures to trips for the Osprey in rough seas?",
                          ["failures", "trips", "Osprey", "rough seas"], line_item_names, [[trials]])  # fmt: skip
    assert answer is not None and answer.statement.endswith("0.61") and not answer.missing, answer


def test_amounts_with_their_currency_signs_run_into_the_label_are_the_row_s_first_values() -> None:
    assert peeled(["Net toll income ........ $ 81,201 $ 70,114", "$ 66,502"], 3) == [
        "Net toll income ........", "$ 81,201", "$ 70,114", "$ 66,502",
    ]  # fmt: skip
    assert peeled(["Notes due 2031", "5.2", "4.1"], 2) == ["Notes due 2031", "5.2", "4.1"], "a label's own number"
    years_only = [
        EvidenceItem(
            chunk_id="d:p12:b0", doc_id="d", file_name="harbour.pdf", page=12,
            text="Years Ended\nDecember 31, 2031 December 31, 2030 December 31, 2029\n"
            "Pilotage fees | $ 9,100 | $ 8,400 | $ 7,900\n"
            "Net toll income ........ $ 81,201 $ 70,114 | $ 66,502",
        )
    ]  # fmt: skip
    rows = {(c.label, c.periods[0].year): c.raw for c in table_cells(years_only) if c.periods}
    assert rows[("Net toll income", 2031)] == "$ 81,201" and rows[("Net toll income", 2029)] == "$ 66,502", rows
