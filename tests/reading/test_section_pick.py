"""Superlatives over the line items a statement's total sums (made-up statements of a ferry operator)."""

from __future__ import annotations

from engine.contracts import EvidenceItem
from engine.reading.extremes import extreme_ask
from engine.reading.section_pick import categories, section_pick, section_statement, summed_searches
from engine.reading.table_values import table_cells


def item(text: str, n: int, kind: str = "text") -> EvidenceItem:
    return EvidenceItem(chunk_id=f"d:p7:b{n}", doc_id="d", file_name="ferry.pdf", page=7, text=text, kind=kind)


BALANCE = [
    item("Blue Ferry Consolidated Balance Sheets", 0, "heading"),
    item("(Dollars in millions) | 2041 | 2040", 1),
    item(
        "Current assets:\n"
        "Cash | $ 310 | $ 290\n"
        "Fares receivable | 1,250 | 1,100\n"
        "Fuel stock\n"
        "Diesel | 400 | 380\n"
        "Spare parts | 500 | 410\n"
        "Total fuel stock | 900 | 790\n"
        "Prepaid charters | 85 | 60\n"
        "Total current assets | 2,545 | 2,240\n"
        "Vessels | 9,000 | 8,800\n"
        "Less accumulated depreciation | (3,000) | (2,700)\n"
        "Vessels, net | 6,000 | 6,100\n"
        "Harbour rights | 2,200 | 2,200\n"
        "Total assets | $ 10,745 | $ 10,540",
        2,
    ),
    item("Liabilities", 3, "heading"),
    item(
        "Current liabilities:\n"
        "Dock fees payable | $ 700 | $ 640\n"
        "Ticket deposits | 1,900 | 1,500\n"
        "Total current liabilities | 2,600 | 2,140\n"
        "Long-term liabilities:\n"
        "Bonds | 3,100 | 3,300\n"
        "Lease obligations | 1,200 | 1,250\n"
        "Total liabilities | $ 6,900 | $ 6,690\n"
        "Shareholders' equity\n"
        "Retained earnings | 3,845 | 3,850\n"
        "Total liabilities and shareholders' equity | $ 10,745 | $ 10,540",
        4,
    ),
]


def pick(question: str, page: list[EvidenceItem] = BALANCE):
    ask = extreme_ask(question)
    assert ask is not None
    return section_pick(ask, question, page, table_cells(page))


def test_the_rows_a_total_sums_are_those_above_it_back_to_the_other_category() -> None:
    found = pick("What was Blue Ferry's largest liability in 2041?")
    assert found is not None
    assert found.cell.label == "Bonds" and found.cell.raw == "3,100"
    # a subtotal of the category ("Total current liabilities") is not an item; the heading under it does not
    # end the walk, so the current liabilities are summed too
    assert {c.label for c in found.among} == {"Dock fees payable", "Ticket deposits", "Bonds", "Lease obligations"}


def test_the_column_is_the_asked_year_else_the_first() -> None:
    found = pick("Which current liability was the smallest in 2040?")
    assert found is not None and (found.cell.label, found.cell.raw) == ("Dock fees payable", "$ 640")
    latest = pick("Which current liability was the largest?")
    assert latest is not None and (latest.cell.label, latest.cell.column) == ("Ticket deposits", "2041")


def test_a_total_under_its_own_heading_is_one_item_and_its_parts_are_not() -> None:
    found = pick("What was the largest current asset in 2041?")
    assert found is not None
    labels = {c.label for c in found.among}
    assert labels == {"Cash", "Fares receivable", "Total fuel stock", "Prepaid charters"}
    assert found.cell.label == "Fares receivable"


def test_a_gross_amount_and_its_deduction_are_left_for_the_net_row() -> None:
    found = pick("Which asset was the largest in 2041?")
    assert found is not None
    labels = {c.label for c in found.among}
    assert "Vessels" not in labels and "Less accumulated depreciation" not in labels
    assert found.cell.label == "Vessels, net"


def test_no_total_naming_the_category_picks_nothing() -> None:
    assert pick("Which vessel was the largest in 2041?") is None


def test_a_capitalised_measure_is_a_name_not_a_category_and_total_is_no_category() -> None:
    ask = extreme_ask("Which was the largest for Blue Ferry?")
    assert ask is not None and categories(ask) == []
    total = extreme_ask("Which crew had the highest total score?")
    assert total is not None and all("total" not in c for c in categories(total))


def test_the_statement_names_the_item_its_period_and_how_many_it_was_picked_among() -> None:
    question = "What was Blue Ferry's largest liability in 2041?"
    found, ask = pick(question), extreme_ask(question)
    assert found is not None and ask is not None
    assert section_statement(found, ask) == "Bonds, 2041: $3,100 million (the largest of 4 line items)."


def test_a_search_asks_for_the_total_of_the_category() -> None:
    assert summed_searches("Which current liability was the largest in 2041?") == ["total current liability"]
    assert summed_searches("What were the fares in 2041?") == []


def test_only_a_statement_category_is_searched_for_by_its_total() -> None:
    assert summed_searches("Which route had the largest fare revenue in 2041?") == ["total fare revenue"]
    assert summed_searches("Which harbour had the highest tonnage in 2041?") == []


def test_rows_of_another_kind_than_the_one_asked_are_not_picked_among() -> None:
    # "which route": the balance sheet's liabilities are no routes, and no heading of the page names routes
    assert pick("Which route had the largest liability in 2041?") is None
    routes = [
        item("Revenue by route", 0, "heading"),
        item("(Dollars in millions) | 2041 | 2040\nNorth Sound | 500 | 450\nEast Quay | 700 | 610\n"
             "Total revenue | 1,200 | 1,060", 1),
    ]  # fmt: skip
    found = pick("Which route had the largest revenue in 2041?", routes)
    assert found is not None and found.cell.label == "East Quay"


SEGMENTS = [
    item("Segment Information", 0, "heading"),
    item(
        "Net Sales | 2041 | 2040\n"
        "Ferries | $ 900 | $ 850\n"
        "Tugs | 1,400 | 1,300\n"
        "Barges | 600 | 640\n"
        "Total Company | $ 2,900 | $ 2,790\n"
        "Operating Income | 2041 | 2040\n"
        "Ferries | $ 300 | $ 280\n"
        "Tugs | 100 | 90\n"
        "Barges | 50 | 70\n"
        "Total segment operating income | 450 | 440",
        1,
    ),
]


def test_a_table_whose_header_names_the_measure_is_read_down_to_its_total() -> None:
    sales = pick("Which segment had the largest net sales in 2041?", SEGMENTS)
    assert sales is not None and sales.cell.label == "Tugs" and sales.cell.raw == "1,400"
    # the segments' operating income total is not a total of their net sales
    income = pick("Which segment had the smallest operating income in 2040?", SEGMENTS)
    assert income is not None and (income.cell.label, income.cell.raw) == ("Barges", "70")


GROUPS = [
    item("Information on reportable segments is as follows (in millions):", 0),
    item("Year Ended | 2041 | 2040", 1),
    item("North Sound", 2, "heading"),
    item("Fares | $ 900 | $ 850\nOperating income | $ 120 | $ 100", 3),
    item("East Quay", 4, "heading"),
    item("Fares | $ 700 | $ 690\nOperating income (loss) | $ (40) | $ 15", 5),
    item("Consolidated", 6, "heading"),
    item("Fares | $ 1,600 | $ 1,540\nOperating income | $ 80 | $ 115", 7),
]


def test_one_measure_under_several_group_headings_is_picked_among_the_groups_signed() -> None:
    low = pick("Which segment had the lowest operating income in 2041?", GROUPS)
    assert low is not None and low.cell.label == "East Quay: Operating income (loss)" and low.cell.value == -40
    assert {c.label.split(":")[0] for c in low.among} == {"North Sound", "East Quay"}, "the whole is no group"
    high = pick("Which segment had the highest operating income in 2040?", GROUPS)
    assert high is not None and high.cell.label.startswith("North Sound")


def test_a_question_asking_which_year_is_no_pick_among_line_items() -> None:
    ask = extreme_ask("In which year were the fares of North Sound the lowest?")
    assert ask is not None and categories(ask) == []


HEDGES = [
    item("We hedge fuel and currency with several instruments.", 0),
    item(
        "The following table sets forth the notional amounts of our outstanding hedges:\n(dollars in millions)\n"
        "At December 31, | 2041 | 2040\nFuel swaps | $ 410 | $ 380\nCurrency forwards | 960 | 720\n"
        "Interest rate caps | 150 | 150",
        1,
    ),
    item("Hedge accounting is applied where the hedge is effective.", 2),
    item("Dredging contracts | 2,000 | 1,800", 3),
]


def test_a_table_a_caption_introduces_is_read_to_its_end_without_a_total() -> None:
    found = pick("Of our hedges, which had the greatest notional amount in 2041?", HEDGES)
    assert found is not None and (found.cell.label, found.cell.raw) == ("Currency forwards", "960")
    assert len(found.among) == 3, "the rows after the note below the table are another table's"


def test_one_segments_breakdown_is_no_pick_among_segments() -> None:
    tugs = [
        item("Tug revenues consisted of the following", 0, "heading"),
        item("(Dollars in millions) | 2041 | 2040\nHarbour towage | 500 | 450\nOcean towage | 300 | 280\n"
             "Total segment revenues | 800 | 730", 1),
    ]  # fmt: skip
    assert pick("Which segment had the largest revenues in 2041?", tugs) is None
    assert pick("Which service had the largest revenues in 2041?", tugs) is None
    found = pick("What was the tugs' largest source of revenues in 2041?", tugs)
    assert found is not None and found.cell.label == "Harbour towage"
