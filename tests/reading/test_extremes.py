"""Superlative questions over tables: the loose table reader, the ask, and the pick (made-up tables)."""

from __future__ import annotations

import pytest

from engine.contracts import EvidenceItem
from engine.reading.extremes import extreme_ask, lower_is_better, names, pick_extreme, pick_statement
from engine.reading.loose_tables import loose_tables
from engine.reading.table_values import table_cells


def item(text: str, n: int = 0, page: int = 4) -> EvidenceItem:
    return EvidenceItem(chunk_id=f"d:p{page}:b{n}", doc_id="d", file_name="paper.pdf", page=page, text=text)


RESULTS = [
    item(
        "Model | Acc. Prec. Rec. F1\n"
        "Kestrel (0.2) 81.5(1.1) 70.2 66.0 68.0 Kestrel (0.7) 79.9(0.4) 72.8 61.5 66.7 Osprey-9B 64.0 58.1 "
        "69.9 63.4\nWren-2B | 55.3 49.0 71.2 58.0\n"
        "Table 2: Accuracy, precision, recall and F1 on the held-out split."
    )
]


def rows_of(cells) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for cell in cells:
        out.setdefault(cell.label, {})[cell.column] = cell.raw
    return out


def test_rows_run_together_on_one_line_are_split_by_the_header_column_count() -> None:
    (table,) = loose_tables(RESULTS)
    rows = rows_of(table)
    assert list(rows) == ["Kestrel (0.2)", "Kestrel (0.7)", "Osprey-9B", "Wren-2B"]
    assert rows["Kestrel (0.2)"] == {"Acc.": "81.5", "Prec.": "70.2", "Rec.": "66.0", "F1": "68.0"}
    assert rows["Wren-2B"]["F1"] == "58.0"
    first = next(c for c in table if c.label == "Osprey-9B")
    assert first.quote == "Osprey-9B 64.0 58.1 69.9 63.4", "the quote is the row as printed, not the line's rest"


def test_a_row_cut_short_ends_the_table_and_two_whole_rows_are_needed() -> None:
    cut = [item("Model | Acc. F1\nHeron 61.0 55.2 Egret 59.0 50.0 Ibis 60.1 Crane 58.0 52.1")]
    (table,) = loose_tables(cut)
    assert list(rows_of(table)) == ["Heron", "Egret"], "never guessed past a row that does not fit"
    assert loose_tables([item("Model | Acc. F1\nHeron 61.0 55.2\nThe rest is prose with 3 numbers.")]) == []


def test_a_spanning_header_names_groups_of_the_columns_below() -> None:
    grouped = [item("Method | Lakes | Rivers\nSplit | R@1 R@5 R@1 R@5\nBaseline 0.41 0.62 0.30 0.55\n"
                    "Ours 0.47 0.66 0.29 0.58")]  # fmt: skip
    rows = rows_of(loose_tables(grouped)[0])
    assert rows["Ours"] == {"Lakes R@1": "0.47", "Lakes R@5": "0.66", "Rivers R@1": "0.29", "Rivers R@5": "0.58"}


def test_a_label_of_marks_only_names_no_row() -> None:
    marks = [item("Trait | HR NDCG\nCalm 0.81 0.70\n- 0.75 0.61\nBold 0.88 0.72")]
    assert list(rows_of(loose_tables(marks)[0])) == ["Calm", "Bold"]


@pytest.mark.parametrize(
    ("question", "direction", "measure"),
    [
        ("Which setting gives Kestrel the highest accuracy?", "max", ("accuracy",)),
        ("Which model does best on the Lakes split?", "best", ("Lakes", "split")),
        ("What is the lowest F1 of Osprey-9B?", "min", ("F1",)),
        ("Which one has the worst recall?", "worst", ("recall",)),
        ("Which is smaller, Heron or Ibis?", "min", ()),
    ],
)
def test_the_ask_reads_direction_and_measure(question: str, direction: str, measure: tuple[str, ...]) -> None:
    ask = extreme_ask(question)
    assert ask is not None and ask.direction == direction and ask.measure == measure


@pytest.mark.parametrize(
    "question",
    ["Is Kestrel the best model?", "How many models have the highest recall?", "Which are the top 3 models?",
     "What is the F1 of Wren-2B?"],
)  # fmt: skip
def test_no_pick_is_asked_by_a_verdict_a_count_several_or_no_superlative(question: str) -> None:
    assert extreme_ask(question) is None


def test_a_header_abbreviation_names_the_word_it_shortens() -> None:
    assert names("Acc.", "accuracy") and names("Prec.", "precision") and names("F1", "f1")
    assert not names("Rec", "record"), "three letters without a period are a word, not an abbreviation"
    assert not names("F1", "F10")


def pick_text(question: str, tables) -> str:
    ask = extreme_ask(question)
    assert ask is not None
    pick = pick_extreme(ask, tables)
    return pick_statement(pick, ask) if pick else ""


def test_the_highest_of_the_column_named_is_picked_among_the_rows_named() -> None:
    table = loose_tables(RESULTS)
    assert pick_text("Which setting gives Kestrel the highest accuracy?", table).startswith("Kestrel (0.2): Acc. 81.5")
    assert pick_text("Which model has the highest recall?", table).startswith("Wren-2B: Rec. 71.2 (the highest of 4")
    assert pick_text("Which model has the lowest precision?", table).startswith("Wren-2B: Prec. 49.0")


def test_best_is_the_highest_unless_the_header_says_lower_is_better() -> None:
    scores = [item("System | BLEU WER\nAlpha 30.1 12.5\nBeta 28.4 9.8\nGamma 31.0 14.0")]
    assert pick_text("Which system has the best BLEU?", loose_tables(scores)).startswith("Gamma: BLEU 31.0")
    assert pick_text("Which system has the best WER?", loose_tables(scores)).startswith("Beta: WER 9.8")
    assert pick_text("Which system has the worst WER?", loose_tables(scores)).startswith("Gamma: WER 14.0")
    assert lower_is_better("Time ↓") and not lower_is_better("Error reduction ↑") and not lower_is_better("Acc.")


def test_one_row_named_picks_among_its_columns_that_name_the_measure() -> None:
    twice = [item("Model | F1 Acc. F1\nKestrel 60.2 70.0 64.9\nOsprey 58.0 69.1 57.3")]
    assert pick_text("What is the highest F1 of Osprey?", loose_tables(twice)).startswith("F1: Osprey 58.0")
    assert pick_text("What is the highest F1 of Kestrel?", loose_tables(twice)).startswith("F1 #2: Kestrel 64.9")


def test_no_pick_without_a_header_naming_the_measure_or_for_a_single_cell() -> None:
    table = loose_tables(RESULTS)
    assert pick_text("Which model has the highest latency?", table) == ""
    assert pick_text("Which is the highest accuracy of Osprey-9B?", table) == "", "one row, one column: a lookup"


def test_the_table_naming_more_of_the_question_wins() -> None:
    other = loose_tables([item("Model | Speed Memory\nKestrel 12 3.1\nOsprey 20 2.2", page=9)])
    tables = [*other, *loose_tables(RESULTS)]
    assert pick_text("Which setting gives Kestrel the highest accuracy?", tables).startswith("Kestrel (0.2)")


def test_rows_the_table_finder_split_into_cells_are_not_read_loosely() -> None:
    split = [item("Group | North South\nAdults | 51 | 40\nMinors | 49 | 60")]
    assert loose_tables(split) == []


def test_a_header_naming_only_part_of_the_measure_is_not_its_column() -> None:
    table = loose_tables([item("Segment | Net Margin\nRetail 120 4.1\nWholesale 95 6.3")])
    assert pick_text("Which segment posted the lowest net revenue?", table) == ""
    assert pick_text("Which segment had the lowest net?", table).startswith("Wholesale: Net 95")


def test_a_comparative_between_two_named_rows_picks_between_them() -> None:
    table = loose_tables(RESULTS)
    text = pick_text("Which has higher recall, Osprey or Wren?", table)
    assert text.startswith("Wren-2B: Rec. 71.2 (the highest of 2 rows)"), "a family name names its sized members"
    assert pick_text("Which has lower F1, Kestrel or Osprey?", table).startswith("Osprey-9B: F1 63.4 (the lowest of 3")


def test_a_comparative_naming_no_measure_reads_a_table_of_one_value_column() -> None:
    one = [table_cells([item("Bird | Wingspan\nHeron | 1.8\nIbis | 1.0\nStork | 2.1")])]  # split cells
    assert pick_text("Which is smaller, Heron or Ibis?", one).startswith("Ibis: Wingspan 1.0 (the lowest of 2 rows)")
    two = loose_tables([item("Bird | Wingspan Weight\nHeron 1.8 2.0\nIbis 1.0 1.2\nStork 2.1 3.5")])
    assert pick_text("Which is smaller, Heron or Ibis?", two) == "", "two value columns: the measure is unsaid"


def test_a_row_naming_the_measure_is_picked_across_its_columns_unless_they_are_periods() -> None:
    stats = loose_tables([item("Statistic | Lakes Rivers Ponds\n# sites 12 40 7\nAvg. depth 3.1 1.2 0.8")])
    assert pick_text("Which water body has the most sites?", stats).startswith("Rivers: # sites 40 (the highest of 3")
    assert pick_text("Which water body has the lowest avg. depth?", stats).startswith("Ponds: Avg. depth 0.8")
    yearly = [table_cells([item("(Millions) | 2021 | 2020\nNet sales | 4,100 | 3,900\nCost of sales | 2,000 | 1,950")])]
    assert pick_text("Which year had the highest net sales?", yearly) == "", "a time series is the value reader's"


def test_a_header_of_bare_words_may_name_only_columns_which_the_rows_tell() -> None:
    no_label = loose_tables([item("Acc. Prec. F1\nKestrel 70.0 60.2 55.0\nOsprey 69.1 58.0 57.3")])
    assert rows_of(no_label[0])["Osprey"] == {"Acc.": "69.1", "Prec.": "58.0", "F1": "57.3"}
    labelled = loose_tables([item("Model Acc. F1\nKestrel 70.0 55.0\nOsprey 69.1 57.3")])
    assert rows_of(labelled[0])["Osprey"] == {"Acc.": "69.1", "F1": "57.3"}
    two = loose_tables([item("Acc. F1\nKestrel 70.0 55.0\nOsprey 69.1 57.3")])
    assert rows_of(two[0])["Kestrel"] == {"Acc.": "70.0", "F1": "55.0"}


def test_a_pick_may_be_asked_after_a_lead_in_but_not_by_a_yes_no_question() -> None:
    assert extreme_ask("Among the three taggers, which reached the highest recall?") is not None
    assert extreme_ask("Is it true that Kestrel has the highest recall, and which setting?") is None


def test_a_bound_is_not_a_superlative() -> None:
    assert extreme_ask("Which taggers reach at least 60 F1?") is None
    assert extreme_ask("Which tagger has at most 2B parameters and the best recall?").direction == "best"


def test_a_named_row_is_never_picked_across_period_columns() -> None:
    yearly = [table_cells([item("(Millions) | 2023 | 2022 | 2021\nNet cash from operations | 5,841 | 5,188 | 6,657")])]
    assert pick_text("Which year had the most net cash from operations (or the smallest outflow)?", yearly) == ""


def test_the_kind_asked_after_which_names_no_row() -> None:
    table = loose_tables([item("System | BLEU WER\nAlpha (base model) 30.1 12.5\nBeta 28.4 9.8\nGamma 31.0 14.0")])
    assert pick_text("Which model has the highest BLEU?", table).startswith("Gamma: BLEU 31.0 (the highest of 3")


def test_a_comparative_between_two_named_columns_picks_between_them_in_the_named_row() -> None:
    table = loose_tables([item("Model | Acc. Prec. Rec.\nHeron 70.0 64.2 71.9\nIbis 69.1 58.0 57.3")])
    text = pick_text("Which is higher for Heron, recall or precision?", table)
    assert text.startswith("Rec.: Heron 71.9 (the highest of 2 columns)"), text


def test_a_heading_phrase_over_two_value_columns_is_no_header() -> None:
    assert loose_tables([item("Sales region\nNorth 13,514 12,302\nSouth 10,551 8,824")]) == []


def test_a_caption_phrase_is_no_header_of_columns() -> None:
    assert loose_tables([item("Revenue (in $000's)\nProducts 58,582 51,000\nServices 2,784 2,500")]) == []
    assert loose_tables([item("Model | Acc. F1\nHeron 61.0 55.2\nEgret 59.0 50.0")]) != []


def test_a_capitalised_column_name_that_spells_a_stop_word_is_still_a_name() -> None:
    (table,) = loose_tables([item("Test set | Tokens LOC PER\nAlpha 5345 1306 1274\nBeta 4643 1668 1617")])
    assert rows_of(table)["Beta"]["PER"] == "1617"


def test_a_header_that_is_the_measures_head_noun_is_its_column_and_rows_named_whole_are_compared() -> None:
    table = [table_cells([item("Segment results (Millions) | Sales | Income\nGarden Tools | 6,021 | 1,799\n"
                               "Pumps | 4,796 | 1,027\nTotal Company | 27,430 | 5,962")])]  # fmt: skip
    text = pick_text("Which segment had higher net sales, Garden Tools or Pumps?", table)
    assert text.startswith("Garden Tools: Sales 6,021 (the highest of 2 rows)"), text
    text = pick_text("Which segment had lower net sales, Garden Tools or Pumps?", table)
    assert text.startswith("Pumps: Sales 4,796 (the lowest of 2 rows)"), text


def test_a_total_row_and_a_currency_sign_on_the_first_row_only_do_not_stop_a_pick() -> None:
    table = [table_cells([item("Segment results (Millions) | Sales | Income\nGarden Tools | $ 6,021 | $ 1,799\n"
                               "Pumps | 4,796 | 1,027\nTotal Company | $ 10,817 | $ 2,826")])]  # fmt: skip
    text = pick_text("Which segment had the highest sales?", table)
    assert text.startswith("Garden Tools: Sales $ 6,021 (the highest of 2 rows)"), text


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        ("Which current liability was the largest in 2041?", ("current", "liability")),
        ("Which of Acme's harbour divisions had the smallest revenue?", ("harbour", "divisions")),
        ("Among the funds, which one returned the most?", ()),
        ("What is the biggest liability shown for 2041?", ()),
        ("Which route generated the most fares in 2041?", ("route",)),
    ],
)
def test_the_asked_kind_is_the_noun_phrase_after_which(question: str, asked: tuple[str, ...]) -> None:
    ask = extreme_ask(question)
    assert ask is not None and ask.asked == asked


def test_most_recent_says_when_not_how_much() -> None:
    ask = extreme_ask("In the most recent quarter, which ferry carried more cars, Blue or Red?")
    assert ask is not None and ask.comparative and ask.measure[:1] == ("cars",), ask
    assert extreme_ask("Which is the most recent survey?") is None
    assert extreme_ask("Which route had the most sailings?").measure == ("sailings",)
