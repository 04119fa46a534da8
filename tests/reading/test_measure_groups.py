"""Headers of measures over periods, and the parts of a metric a document phrase does not name."""

from __future__ import annotations

from engine.contracts import EvidenceItem
from engine.documents.text import stems
from engine.reading.document_units import with_document_scale
from engine.reading.line_items import line_item_names
from engine.reading.periods import Period
from engine.reading.question import extract_keywords
from engine.reading.table_groups import measure_groups
from engine.reading.table_values import table_cells
from engine.reading.value_answer import answer_value
from engine.reading.value_cover import qualifier_terms
from engine.reading.value_match import rank_cells
from engine.reading.value_spec import value_spec


def item(text: str, page: int = 1, n: int = 0) -> EvidenceItem:
    return EvidenceItem(chunk_id=f"d:p{page}:b{n}", doc_id="d", file_name="kayak_co.pdf", page=page, text=text)


MIX = item(
    "Fare Mix | Comparable Sales\n"
    "2041 | 2040 | 2041 | 2040\n"
    "Kayaks | 40 % | 38 % | 5.2 % | 3.1 %\n"
    "Paddles | 60 % | 62 % | (1.5)% | 2.0 %",
    n=1,
)
TOTALS = item("(in millions) | 2041 | 2040\nRevenue | $ 900 | $ 800\nOperating income | 45 | 40", page=2)


def _column(label: str, raw: str) -> str:
    return next(c.column for c in table_cells([MIX]) if c.label == label and c.raw.replace(" ", "") == raw)


def test_each_period_column_takes_the_measure_printed_over_it():
    assert _column("Kayaks", "5.2%") == "Comparable Sales 2041"
    assert _column("Paddles", "62%") == "Fare Mix 2040"
    cell = next(c for c in table_cells([MIX]) if c.label == "Kayaks" and c.column == "Comparable Sales 2040")
    assert cell.periods == (Period(2040),)  # one period per column again, not "2040" printed twice


def test_measures_must_split_the_periods_evenly():
    assert measure_groups(["Fare Mix", "Comparable Sales"], ["2041", "2040", "2041", "2040"]) is not None
    # three names over four periods: which name is over which period is not printed
    assert measure_groups(["Region", "Fare Mix", "Comparable Sales"], ["2041", "2040", "2041", "2040"]) is None
    # one period to each name is a header of names, not groups
    assert measure_groups(["Ferries", "Barges"], ["2041", "2040"]) is None
    # spans over periods are the span reader's ("Three months ended 2041")
    assert measure_groups(["Three Months Ended", "Six Months Ended"], ["2041", "2040", "2041", "2040"]) is None
    # a label header leading the periods stays the label column's
    grouped = measure_groups(["Fare Mix", "Comparable Sales"], ["(percent)", "2041", "2040", "2041", "2040"])
    assert grouped == ["(percent)", "Fare Mix 2041", "Fare Mix 2040", "Comparable Sales 2041", "Comparable Sales 2040"]


def test_a_row_of_the_named_part_beats_the_metric_of_the_whole():
    question = "What were the comparable sales of Kayaks in 2041?"
    spec = value_spec(question, extract_keywords(question), line_item_names(question))
    best = rank_cells(spec, table_cells([MIX]) + table_cells([TOTALS]))[0].cell
    assert (best.label, best.column, best.raw) == ("Kayaks", "Comparable Sales 2041", "5.2 %")  # not the revenue


def test_a_capitalised_name_no_row_prints_with_the_metric_qualifies_nothing():
    question = "Per its ledger of cash movements, what sales did Oarsmen (formerly Kayak Co) book in 2041?"
    spec = value_spec(question, extract_keywords(question), line_item_names(question), ["Oarsmen"])
    # "Kayak Co" names the company; a row "Kayak Co stockholders' equity" names no sales
    labels = [stems("Kayak Co stockholders' equity"), stems("Net sales 2041")]
    assert not any(qualifier_terms(spec, labels))
    # a row naming the part and a column naming the metric: the part is asked
    part = value_spec(
        "What were the net sales of Kayaks in 2041?", ["net sales", "Kayaks"], line_item_names("net sales")
    )
    assert any(qualifier_terms(part, [stems("Kayaks Net Sales 2041")]))


FLEET = item(
    " | 2041 Boats Launched | 2041 Boats at Season End\nHarbour North | 3 | 15\nHarbour South | 1 | 21",
    page=3,
)


def test_a_header_over_no_label_keeps_its_columns_in_place():
    cells = [c for c in table_cells([FLEET]) if c.label == "Harbour North"]
    assert [(c.column, c.raw) for c in cells] == [("2041 Boats Launched", "3"), ("2041 Boats at Season End", "15")]


def test_of_one_rows_columns_in_the_period_the_one_naming_more_of_the_question_leads():
    question = "How many boats did Harbour North have at the season end of 2041?"
    spec = value_spec(question, extract_keywords(question), line_item_names(question))
    best = rank_cells(spec, table_cells([FLEET]))[0].cell
    assert (best.column, best.raw) == ("2041 Boats at Season End", "15")


def test_a_column_in_whole_currency_units_or_counting_things_takes_no_document_scale():
    fees = item("Name | Fees Paid in Cash ($) | Total ($)\nAda Quill | 61,250 | 190,400", page=4)
    stores = item("Region | 2041 Stores Opened\nHarbour North | 3", page=5)
    money = item("(in millions) | 2041\nNet sales | $ 900\nCost of sales | 700\nOther | 50", page=6)
    cells = with_document_scale(table_cells([fees]) + table_cells([stores]) + table_cells([money]) * 3)
    fee = next(c for c in cells if c.label == "Ada Quill" and "Fees" in c.column)
    assert (fee.scale, fee.unit, fee.display()) == ("", "$", "$61,250")  # not "$61,250 million"
    opened = next(c for c in cells if c.label == "Harbour North")
    assert opened.scale == ""  # three stores, not three million
    assert next(c for c in cells if c.label == "Net sales").scale == "million"


def test_a_new_tables_header_does_not_inherit_the_scale_the_table_above_used():
    page = item(
        "(in millions)\nRevenue | 2041 | 2040\nFares | $ 900 | $ 800\nCargo | 300 | 280\n"
        "Piers | 2041 | 2040\nHarbour piers | 12 | 10",
        page=7,
    )
    cells = {c.label: c for c in table_cells([page])}
    assert cells["Fares"].scale == "million"
    assert cells["Harbour piers"].scale == ""  # twelve piers, not twelve million


def test_a_continued_table_repeating_its_header_keeps_its_scale():
    first = item("(in millions)\nRevenue | 2041 | 2040\nFares | $ 900 | $ 800", page=8, n=0)
    rest = item("Revenue | 2041 | 2040\nShares outstanding | 41 | 40", page=8, n=1)
    cells = {c.label: c for c in table_cells([first, rest])}
    assert cells["Shares outstanding"].scale == "million"


SEGMENTS = item(
    "In millions | 2041 | 2040\nNet sales:\nHarbour North | $ 412.5 | $ 388.0\nPet Ferries | 61.3 | 55.9\n"
    "Total | $ 473.8 | $ 443.9\nOperating profit:\nHarbour North | $ 98.2 | $ 90.4\nPet Ferries | 12.4 | 9.7\n"
    "Total | $ 110.6 | $ 100.1",
    page=9,
)
CLASSES = item(
    "(in millions) | 2041 | 2040\nCurrent liabilities:\nTicket deposits | 190 | 170\nAccounts payable | 80 | 75\n"
    "Long-term liabilities:\nLeases | 40 | 44\nBonds | 300 | 310",
    page=10,
)


def test_parts_measured_under_two_headings_take_the_measure_their_heading_names():
    cells = table_cells([SEGMENTS])
    assert {c.column for c in cells if c.label == "Pet Ferries"} == {
        "Net sales 2041", "Net sales 2040", "Operating profit 2041", "Operating profit 2040",
    }  # fmt: skip
    question = "What was the operating profit of the Pet Ferries segment in 2040?"
    spec = value_spec(question, extract_keywords(question), line_item_names(question))
    assert rank_cells(spec, cells)[0].cell.raw == "9.7"


def test_line_items_under_a_class_heading_keep_their_own_columns():
    assert {c.column for c in table_cells([CLASSES])} == {"2041", "2040"}


def test_names_run_into_one_cell_under_groups_are_each_their_group_s() -> None:
    from engine.reading.table_groups import named_groups

    upper = ["Route", "North →Bay", "South →Bay"]
    assert named_groups(upper, ["Leg", "Out →In Back →In Out →In Back →In"]) == [
        "Leg", "North →Bay Out→In", "North →Bay Back→In", "South →Bay Out→In", "South →Bay Back→In",
    ]  # fmt: skip
    assert named_groups(upper, ["Leg", "Out →In Back →In Out →In"]) is None, "three names do not split in two"
    assert named_groups(["Route", "North"], ["Leg", "Out In"]) is None, "one group is no grouping"
    rows = [
        item(
            "Route | North →Bay | South →Bay\nLeg | Out →In Back →In Out →In Back →In\nFerry A | 12.5 | 13.0 | 9.5 | 8.0"
        )
    ]
    read = {(c.label, c.column): c.raw for c in table_cells(rows)}
    assert read[("Ferry A", "South →Bay Out→In")] == "9.5", read


def test_a_segment_table_row_naming_the_product_asked_is_its_figure_not_the_company_total() -> None:
    statement = EvidenceItem(
        chunk_id="d:p5:b0", doc_id="d", file_name="f.pdf", page=5, section_path=("Consolidated Statements of Income",),
        text="(in millions) | 2041 | 2040\nTotal revenue | 9,100 | 8,300\nCost of revenue | 3,000 | 2,800",
    )  # fmt: skip
    segment = EvidenceItem(
        chunk_id="d:p3:b0", doc_id="d", file_name="f.pdf", page=3, section_path=("Ferry Services Segment",),
        text="(in millions) | 2041 | 2040\nHarbor Cloud | 2,383 | 1,974\nDock Suite | 700 | 650",
    )  # fmt: skip
    question = "What was Harbor Cloud revenue in 2041?"
    answer = answer_value(question, extract_keywords(question), line_item_names, [[statement], [segment]])
    assert answer is not None and "2,383" in answer.statement, answer


def test_quarter_and_full_year_groups_over_years_and_changes_name_each_column() -> None:
    text = (
        "Q4 | Full Year\n"
        "(in millions, except per share) | 2041 | 2040 | % Change | 2041 | 2040 | % Change\n"
        "Adjusted fares per rider | $2.35 | $2.13 | 10.3% | $10.15 | $9.80 | 3.6%"
    )
    cells = table_cells([EvidenceItem(chunk_id="d:p2:b0", doc_id="d", file_name="ferries.pdf", page=2, text=text)])
    read = {c.raw: (c.column, c.periods) for c in cells}
    assert read["$2.35"] == ("Q4 2041", (Period(2041, 4),))
    assert read["$10.15"] == ("Full Year 2041", (Period(2041),))
    assert read["3.6%"][0] == "Full Year % Change"


def test_a_percent_sign_before_a_word_heads_a_column() -> None:
    from engine.reading.header_rows import is_header

    assert is_header(["Fares", "2041", "2040", "% Change"])
    assert not is_header(["Fares", "2041", "2040", "% 12"])


def test_names_without_cell_breaks_under_a_row_of_groups_name_each_column_across_a_row_group_heading() -> None:
    items = [
        EvidenceItem(chunk_id="d:p9:b0", doc_id="d", file_name="paper.pdf", page=9,
                     text="Lakes (L) | Rivers (R)\n5-shot 10-shot 5-shot 10-shot"),
        EvidenceItem(chunk_id="d:p9:b1", doc_id="d", file_name="paper.pdf", page=9, text="Baselines", kind="heading"),
        EvidenceItem(chunk_id="d:p9:b2", doc_id="d", file_name="paper.pdf", page=9,
                     text="Tern-7 | 53.8(0.5) 54.0(1.4) 55.9(0.5) 59.1(1.4)"),
    ]  # fmt: skip
    read = {c.raw: c.column for c in table_cells(items)}
    assert read == {"53.8": "Lakes (L) 5-shot", "54.0": "Lakes (L) 10-shot", "55.9": "Rivers (R) 5-shot",
                    "59.1": "Rivers (R) 10-shot"}  # fmt: skip
