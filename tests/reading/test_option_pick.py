"""Superlatives among the options a question lists (a made-up harbour operator's tables)."""

from __future__ import annotations

import pytest

from engine.contracts import EvidenceItem
from engine.reading.extremes import extreme_ask
from engine.reading.option_pick import listed_options, option_statement, pick_option
from engine.reading.periods import Period
from engine.reading.table_values import Cell, table_cells


def item(text: str, n: int) -> EvidenceItem:
    return EvidenceItem(chunk_id=f"d:p5:b{n}", doc_id="d", file_name="harbour.pdf", page=5, text=text)


CASH = [
    item("(Dollars in millions) | 2041 | 2040", 0),
    item(
        "Total cash provided by operating activities | $ 1,200 | $ 1,500\n"
        "Changes in operating leases | 40 | 35\n"
        "Total cash used in dredging works | (300) | (900)\n"
        "Total cash used in pilotage works | (700) | (200)",
        1,
    ),
]


@pytest.mark.parametrize(
    ("question", "options"),
    [
        ("Among ferries, tugs, and barges, which earned the most in 2041?", ["ferries", "tugs", "barges"]),
        ("Which route had the highest revenue: North Sound, East Quay or Harbour Loop?",
         ["North Sound", "East Quay", "Harbour Loop"]),
        ("Which is larger, dock fees or pilotage fees?", []),  # two options: a comparison
        ("Among all the routes, which had the highest revenue?", []),
    ],
)  # fmt: skip
def test_the_listed_options(question: str, options: list[str]) -> None:
    assert listed_options(question) == options


def pick(question: str):
    ask = extreme_ask(question)
    assert ask is not None
    return ask, pick_option(ask, question, [table_cells(CASH)])


def test_each_option_is_read_from_its_row_in_the_asked_year() -> None:
    _, found = pick("Among operations, dredging, and pilotage works, which earned the most cash in 2041?")
    assert found is not None and found.option == "operations" and found.cell.raw == "$ 1,200"
    # "operating" names "operations"; of the two rows naming it, the one naming the question's "cash" is read
    assert found.among[0][1].label == "Total cash provided by operating activities"


def test_values_are_compared_signed_as_printed() -> None:
    ask, found = pick("Among operations, dredging, and pilotage works, which had the lowest cash in 2040?")
    assert found is not None and found.option == "dredging" and found.cell.raw == "(900)"
    assert option_statement(found, ask).startswith("dredging: Total cash used in dredging works, 2040: -$900 million")


def test_an_option_no_row_names_picks_nothing() -> None:
    question = "Among operations, towage and pilotage works, which had the highest cash in 2041?"
    ask = extreme_ask(question)
    assert ask is not None and pick_option(ask, question, [table_cells(CASH)]) is None


def test_two_listed_options_are_each_read_from_their_own_row_in_the_column_asked() -> None:
    def cell(label: str, column: str, value: float) -> Cell:
        return Cell(chunk_id="d:p6:b2", doc_id="d", page=6, label=label, column=column, raw=str(value), value=value,
                    scale="", unit="", periods=(), quote=label, is_row=True)  # fmt: skip

    table = [cell("Kestrel (N=1)", "Lakes Dev", 70.1), cell("Kestrel (N=1)", "Rivers Dev", 66.0),
             cell("Kestrel (N=5)", "Lakes Dev", 71.4), cell("Kestrel (N=5)", "Rivers Dev", 64.2),
             cell("Osprey (Lin et al., 2031)", "Lakes Dev", 69.0), cell("Osprey (Lin et al., 2031)", "Rivers Dev", 68.8)]  # fmt: skip
    question = "Which scores higher on the Rivers dev split: Kestrel (N=5) or Osprey?"
    ask = extreme_ask(question)
    assert ask is not None and listed_options(question) == ["Kestrel (N=5)", "Osprey"]
    pick = pick_option(ask, question, [table])
    assert pick is not None and pick.option == "Osprey" and pick.cell.value == 68.8, pick
    assert {c.label for _, c in pick.among} == {"Kestrel (N=5)", "Osprey (Lin et al., 2031)"}


DIVISIONS = [
    item("(in millions) | 2041 | 2040\nDredging Works | 2,002 | 1,900\nPilotage Works | 1,584 | 1,500", 3),
    item("Customers | Dredging Works | Pilotage Works\nMain customers | 2 | 3\nShare of division sales | 49% | 74%", 4),
]


def test_options_are_compared_in_a_table_of_the_measure_asked_not_any_table_naming_them() -> None:
    question = "Which division relies more on a few main customers: Dredging Works or Pilotage Works?"
    ask = extreme_ask(question)
    assert ask is not None
    pick = pick_option(ask, question, [table_cells([DIVISIONS[0]]), table_cells([DIVISIONS[1]])])
    assert pick is None or "customers" in f"{pick.cell.label} {pick.cell.column}".lower(), pick


def test_of_the_asked_year_s_columns_the_one_the_question_names_is_read() -> None:
    def cell(label: str, column: str, value: float) -> Cell:
        return Cell(chunk_id="d:p7:b1", doc_id="d", page=7, label=label, column=column, raw=str(value), value=value,
                    scale="million", unit="$", periods=(Period(2041),), quote=label, is_row=True,
                    caption="Revenues by ferry")  # fmt: skip

    table = [cell("Kestrel", "2041 Worldwide", 5970.0), cell("Kestrel", "2041 Inland", 3160.0),
             cell("Osprey", "2041 Worldwide", 5437.0), cell("Osprey", "2041 Inland", 3418.0)]  # fmt: skip
    question = "In 2041, which ferry brought more Inland revenue: Kestrel or Osprey?"
    ask = extreme_ask(question)
    assert ask is not None
    pick = pick_option(ask, question, [table])
    assert pick is not None and pick.option == "Osprey" and pick.cell.value == 3418.0, pick
