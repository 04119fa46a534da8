"""Passage scoring: which values a text states, and how a value question weighs a passage's numbers."""

from __future__ import annotations

from engine.contracts import EvidenceItem
from engine.reading.passages import _parts, score_units, split_units, stated_numbers, with_caption
from engine.reading.question import parse_question
from engine.reading.table_values import is_amount


def _item(page: int, text: str) -> EvidenceItem:
    return EvidenceItem(chunk_id=f"d:p{page}:b0", doc_id="d", file_name="d.pdf", page=page, text=text,
                        score=1.0, retriever="keyword", section_path=(), kind="text")  # fmt: skip


def test_number_words_are_stated_values() -> None:
    assert stated_numbers("The system is composed of five modules.") == ["five"]


def test_a_references_year_is_not_a_stated_value() -> None:
    assert stated_numbers("We prompt the verifier (Ouyang et al., 2022) with examples.") == []
    assert stated_numbers("Revenue was $1,264 million in 2038.") == ["$1,264", "2038"]


def test_numbers_the_question_holds_are_not_stated_values() -> None:
    assert stated_numbers("In 2018 the count rose.", {"2018"}) == []


def test_a_relevant_sentence_with_a_count_word_leads_an_unrelated_one_with_digits() -> None:
    parsed = parse_question("How many modules does the claim verification system use?")
    assert parsed.asks_for_value
    units = split_units([
        _item(5, "Figure 4 shows the screenshot of the system interface, released in 2022 with 3 views."),
        _item(2, "Our system is composed of five principal modules."),
    ])  # fmt: skip
    score_units(units, parsed)
    best = max(units, key=lambda u: u.score)
    assert best.item.page == 2


def test_a_side_label_is_matched_in_the_text_or_table_header_not_the_section_title() -> None:
    from engine.reading.passages import label_share

    named = split_units([_item(2, "Adeline Virginia Woolf (25 January 1882 - 28 March 1941) was an English writer.")])
    titled = split_units([EvidenceItem(chunk_id="d:p3:b0", doc_id="d", file_name="d.pdf", page=3, score=1.0,
                                       text="Born in Kensington, she attended King's College.",
                                       section_path=("Virginia Woolf",))])  # fmt: skip
    assert label_share("Virginia Woolf", named[0]) == 1.0 and label_share("Virginia Woolf", titled[0]) == 0.0
    header = split_units([_item(4, "(Millions) | 2039 | 2038\nNet sales | 5,318 | 6,045\nOther | 1 | 2")])
    assert label_share("FY2039", header[1]) == 1.0  # "FY2039" is the "2039" of the header row


def test_a_tables_rows_are_matched_with_the_sentence_that_announces_them() -> None:
    parsed = parse_question("How much did the ferry line plan to pay its pensioners in 2040?")
    lead = _item(9, "The ferry line plans these pension payments to its pensioners:")
    table = _item(9, "(dollars in millions)\nYear | Pension | Health Care\n2039 | 1,210 | 640\n2040 | 1,305 | 655")
    table = table.model_copy(update={"chunk_id": "d:p9:b1"})
    other = _item(4, "(dollars in millions)\nNotes due | Rate | Amount\n2040 | 3.25% | 410\n2041 | 2.9% | 530")
    units = split_units([lead, table, other])
    row = next(u for u in units if u.text == "2040 | 1,305 | 655")
    assert "pensioners" in row.lead_in, "the announcing sentence names what the rows hold"
    assert next(u for u in units if u.text.startswith("2040 | 3.25%")).lead_in == "", "another table's rows"
    score_units(units, parsed)
    rows = [u for u in units if u.is_row and u.text.startswith("2040")]
    assert max(rows, key=lambda u: u.score) is row


def test_under_a_section_titled_with_the_asked_kind_the_sentence_naming_it_leads() -> None:
    parsed = parse_question("Which solver was used for the flow simulation?")
    section = ("4.2 Solver",)
    units = split_units([
        EvidenceItem(chunk_id="d:p6:b0", doc_id="d", file_name="d.pdf", page=6, score=1.0, retriever="keyword",
                     section_path=section, kind="text",
                     text="The flow simulation was rerun every hour as new inflow data arrived. "
                          "For the flow simulation we used the Lattice-Boltzmann solver with a 2 mm grid."),
    ])  # fmt: skip
    score_units(units, parsed)
    best = max(units, key=lambda u: u.score)
    assert "Lattice-Boltzmann" in best.text, [(u.text, u.score) for u in units]


def test_a_contents_line_does_not_lead_over_the_section_it_names() -> None:
    parsed = parse_question("What is the mission of the harbour authority?")
    units = split_units([
        _item(2, "Mission of the Harbour Authority ........................................ 4"),
        _item(4, "The mission of the harbour authority is to keep the port open and safe for every vessel."),
    ])  # fmt: skip
    score_units(units, parsed)
    assert max(units, key=lambda u: u.score).item.page == 4, [(u.text, u.score) for u in units]


def test_a_sentence_opening_with_a_pronoun_is_quoted_with_the_sentence_naming_its_subject() -> None:
    units = split_units([_item(3, "Mara Lind chairs the harbour board. She also leads the audit committee.")])
    pronoun = next(u for u in units if u.text.startswith("She"))
    assert with_caption(pronoun) == "Mara Lind chairs the harbour board. She also leads the audit committee."


def test_a_row_is_read_with_the_column_names_under_its_tables_scale_line() -> None:
    table = _item(
        9, "(dollars in millions)\nYear | Harbour fees | Pilotage\n2031 | $ 1,305 | $ 655\n2032 | 1,290 | 648"
    )
    row = next(u for u in split_units([table]) if u.text.startswith("2031"))
    assert row.caption == "(dollars in millions) Year | Harbour fees | Pilotage"
    assert with_caption(row) == "2031 | $ 1,305 | $ 655 ((dollars in millions) Year | Harbour fees | Pilotage)"
    statement = _item(10, "Statements of Operations\n(in millions) | 2031 | 2030\nNet revenues | 20,410 | 19,880")
    assert split_units([statement])[-1].caption == "Statements of Operations (in millions) | 2031 | 2030"
    plain = _item(11, "Fees\nHarbour fees | 1,305 | 1,290\nPilotage | 655 | 648")
    assert split_units([plain])[-1].caption == "Fees", "a data row under the title is no header"


def test_a_chunk_cut_again_gives_the_same_units_and_its_kind_decides_the_cut() -> None:
    text = "Revenue | 2041 | 2040\nKayaks | 12 | 10\nCanoes | 7 | 9"
    prose = _item(3, "Median smoothing. It is applied to every reading. The rest follows here.")
    table = _item(4, text).model_copy(update={"kind": "table"})
    first = [(u.text, u.is_row, u.caption, u.lead_in) for u in split_units([prose, table])]
    again = [(u.text, u.is_row, u.caption, u.lead_in) for u in split_units([prose, table])]
    assert first == again
    assert first[0] == ("Median smoothing. It is applied to every reading.", False, "", "")
    assert ("Kayaks | 12 | 10", True, "Revenue | 2041 | 2040", "") in first
    words = "Kayaks sold well in the spring season. Canoes sold less than in any year before."
    assert _parts(words, "text") == ((words[:38], words[39:]), False, "") == _parts.__wrapped__(words, "text")
    assert _parts(words, "table") == ((words,), True, words), "a table's chunk is cut in lines, not sentences"


def test_a_cell_s_amount_is_read_alike_when_read_again() -> None:
    cells = ["2041", "(1,577)", "Fiscal 2040", "$ 5,363", "Net sales", "(1,577)"]
    assert [is_amount(c) for c in cells] == [False, True, False, True, False, True]
    assert [is_amount.__wrapped__(c) for c in cells] == [False, True, False, True, False, True]


def test_a_row_is_read_in_the_column_whose_every_word_is_asked_a_short_form_read_as_its_camel_case_name() -> None:
    rows = "Heron-7B + Search | 51.2% | 60.4% | 38.9%\nOwl-3B + Search | 41.2% | 50.4% | 28.9%"
    table = _item(4, f"Method | KestrelQA | KQA Easy | KQA Hard\n{rows}")
    row = next(u for u in split_units([table]) if u.text.startswith("Heron"))
    hard = with_caption(row, "What did Heron-7B with search score on the hard part of KestrelQA?")
    assert hard.startswith("Heron-7B + Search, KQA Hard: 38.9%")
    whole = with_caption(row, "What did Heron-7B with search score on KestrelQA?")
    assert whole.startswith("Heron-7B + Search, KestrelQA: 51.2%")
