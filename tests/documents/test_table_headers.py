"""Column headers printed apart from their table are put back over its columns by position."""

from __future__ import annotations

import pymupdf
import pytest

from engine.config import EngineConfig
from engine.documents.lines import Line
from engine.documents.parsing import parse_pdf
from engine.documents.table_headers import with_table_headers

SIZE = 8.0


def piece(text: str, x0: float, y0: float) -> Line:
    """A header piece in a block of its own (a stacked header cell's line)."""
    return Line(text, (x0, y0, x0 + 5.0 * len(text), y0 + SIZE), SIZE, False, len(text))


def row(y0: float, label: str, *values: tuple[str, float]) -> Line:
    """A row of figures: the label at the left margin, each value flush right at its x."""
    cells = [label, *(v for v, _ in values)]
    xs = [(72.0, 72.0 + 5.0 * len(label)), *((x - 5.0 * len(v), x) for v, x in values)]
    text = " ".join(cells)
    return Line(text, (72.0, y0, xs[-1][1], y0 + SIZE), SIZE, False, len(text), columnar=True, cells=cells, cell_x=xs)


BODY = [
    row(120, "Harbour North", ("12", 260), ("3", 330), ("(1)", 400), ("14", 470)),
    row(130, "Harbour South", ("20", 260), ("-", 330), ("(2)", 400), ("18", 470)),
]


def test_stacked_pieces_and_a_spanning_year_become_one_header_row():
    years = Line(
        "2040 2041", (230, 80, 420, 88), SIZE, False, 8, columnar=True, cells=["2040", "2041"],
        cell_x=[(240.0, 260.0), (386.0, 406.0)],
    )  # fmt: skip
    blocks = [
        [years],
        [piece("Boats at", 230, 92), piece("Year End", 230, 100)],
        [piece("Boats", 305, 100), piece("Launched", 300, 108)],
        [piece("Boats", 375, 100), piece("Retired", 372, 108)],
        [piece("Boats at", 440, 92), piece("Year End", 440, 100)],
        BODY,
    ]
    out = with_table_headers(blocks)
    header = out[-1][0]
    assert header.cells == [
        "",
        "2040 Boats at Year End",
        "2041 Boats Launched",
        "2041 Boats Retired",
        "2041 Boats at Year End",
    ]
    assert out[-1][1:] == BODY  # the rows follow their header in one block
    assert sum(len(lines) for lines in out) == len(BODY) + 1  # the pieces left the blocks they were in


def test_a_label_column_header_is_left_where_it_was():
    port = piece("Port", 72, 108)
    blocks = [[port, piece("North", 240, 108), piece("South", 310, 108), piece("East", 380, 108),
               piece("West", 450, 108)], BODY]  # fmt: skip
    out = with_table_headers(blocks)
    assert out[0] == [port]
    assert out[-1][0].cells == ["", "North", "South", "East", "West"]


def test_a_scale_caption_ends_the_header_and_stays_where_it_is():
    caption = piece("(dollars in millions)", 300, 100)
    blocks = [[piece("Fleet", 240, 80)], [caption], BODY]
    assert with_table_headers(blocks) == blocks  # the reader takes the table's unit from the caption


def test_a_row_of_dashes_or_a_bracketed_amount_is_no_header():
    dashes = Line("— — — —", (230, 108, 470, 116), SIZE, False, 7, columnar=True, cells=["", "—", "—", "—", "—"],
                  cell_x=[(72.0, 72.0), (250.0, 260.0), (320.0, 330.0), (390.0, 400.0), (460.0, 470.0)])  # fmt: skip
    assert with_table_headers([[dashes], BODY]) == [[dashes], BODY]
    assert with_table_headers([[piece("(16)", 380, 108)], BODY]) == [[piece("(16)", 380, 108)], BODY]


def test_a_table_with_its_header_row_in_place_is_left_alone():
    header = Line("Port 2041 2040", (72, 110, 470, 118), SIZE, False, 12, columnar=True,
                  cells=["Port", "2041", "2040"], cell_x=[(72.0, 92.0), (240.0, 260.0), (450.0, 470.0)])  # fmt: skip
    blocks = [[piece("Fleet", 240, 80)], [header, *BODY]]
    assert with_table_headers(blocks) == blocks


def _stacked_table_pdf() -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    font = pymupdf.Font("helv")

    def write(x: float, y: float, text: str) -> None:
        writer = pymupdf.TextWriter(page.rect)
        writer.append((x, y), text, font=font, fontsize=SIZE)
        writer.write_text(page)

    write(72, 60, "Ferry fleet at the end of each of the last two seasons was as follows:")
    write(250, 90, "2040")
    write(380, 90, "2041")
    for x, words in ((230, ("Boats at", "Year End")), (330, ("Boats", "Launched")), (430, ("Boats at", "Year End"))):
        for n, word in enumerate(words):
            write(x, 102 + 9 * n, word)
    for y, label, values in ((130, "Harbour North", ("12", "3", "15")), (141, "Harbour South", ("20", "1", "21"))):
        write(72, y, label)
        for x, value in zip((262, 360, 462), values, strict=True):
            write(x - font.text_length(value, SIZE), y, value)
    return doc.tobytes()


def test_a_parsed_table_carries_its_rebuilt_header_to_the_reader():
    doc = parse_pdf(_stacked_table_pdf(), "ferries.pdf", EngineConfig())
    text = "\n".join(chunk.text for chunk in doc.chunks)
    assert "2040 Boats at Year End | 2041 Boats Launched | 2041 Boats at Year End" in text, text
    assert "Harbour North | 12 | 3 | 15" in text


def test_a_very_wide_row_of_periods_is_not_fitted_split_by_split(monkeypatch: pytest.MonkeyPatch):
    from engine.documents import table_headers
    from engine.documents.table_headers import _Piece, _spanning

    def no_splits(*_: object) -> None:
        raise AssertionError("the splits were enumerated")

    monkeypatch.setattr(table_headers, "combinations", no_splits)
    extents = [(100.0 + 20 * k, 110.0 + 20 * k) for k in range(30)]
    periods = [_Piece(str(2000 + k), 100.0 + 40 * k, 120.0 + 40 * k, 60.0) for k in range(15)]
    assert _spanning(periods, extents, 20.0) is None  # 77 million splits: none is tried


def _narrow_results_pdf() -> bytes:
    """A results table set tight: column headers and figures a narrow gap apart (less than the wide gap that marks
    a column), a value's spread in brackets after it."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    font = pymupdf.Font("helv")

    def write(x: float, y: float, text: str) -> None:
        writer = pymupdf.TextWriter(page.rect)
        writer.append((x, y), text, font=font, fontsize=9.0)
        writer.write_text(page)

    write(72, 60, "Table 4: Accuracy of each planner on the three route sets.")
    write(72, 90, "Planner")
    for x, head in ((252, "Coast"), (292, "Hills"), (332, "Marsh")):
        write(x, 90, head)
    rows = (("Greedy", ("31.5%", "42.0%", "28.4% (0.3%)")), ("Greedy + Lookahead", ("35.1%", "47.9%", "33.0% (0.5%)")))
    for y, (label, values) in zip((105, 116), rows, strict=True):
        write(72, y, label)
        for x, value in zip((252, 292, 332), values, strict=True):
            write(x, y, value)
    return doc.tobytes()


def test_figures_and_headers_set_a_narrow_gap_apart_are_cells_of_their_own():
    doc = parse_pdf(_narrow_results_pdf(), "planners.pdf", EngineConfig())
    text = "\n".join(chunk.text for chunk in doc.chunks)
    assert "| Coast | Hills | Marsh" in text, text
    assert "Greedy + Lookahead | 35.1% | 47.9% | 33.0% (0.5%)" in text, text


def test_a_header_cell_joined_over_several_columns_is_split_into_its_pieces():
    joined = Line("Coast Hills Marsh", (236, 100, 480, 108), SIZE, False, 17, columnar=False,
                  pieces=[(236.0, 262.0, "Coast"), (306.0, 332.0, "Hills"), (376.0, 402.0, "Marsh")])  # fmt: skip
    rows = [
        row(120, "Harbour North", ("12", 260), ("3", 330), ("14", 400)),
        row(130, "Harbour South", ("20", 260), ("1", 330), ("18", 400)),
    ]
    out = with_table_headers([[joined], rows])
    assert out[-1][0].cells == ["", "Coast", "Hills", "Marsh"]


def test_one_header_over_two_columns_heads_both_when_its_pieces_do_not_fit_one_each():
    wide = Line("Boats Launched", (236, 100, 340, 108), SIZE, False, 14,
                pieces=[(236.0, 334.0, "Boats Launched"), (336.0, 340.0, "*")])  # fmt: skip
    rows = [
        row(120, "Harbour North", ("12", 260), ("3", 330), ("14", 400)),
        row(130, "Harbour South", ("20", 260), ("1", 330), ("18", 400)),
    ]
    out = with_table_headers([[wide, piece("Afloat", 380, 100)], rows])
    assert out[-1][0].cells == ["", "Boats Launched", "Boats Launched", "Afloat"]  # its first piece heads two columns


def test_a_header_row_in_place_keeps_its_cells_but_splits_one_joined_over_two_columns():
    header = Line("Port Coast Hills Marsh", (72, 108, 402, 116), SIZE, False, 22, columnar=True,
                  cells=["Port", "Coast Hills", "Marsh"], cell_x=[(72.0, 92.0), (236.0, 332.0), (376.0, 402.0)],
                  pieces=[(72.0, 92.0, "Port"), (236.0, 262.0, "Coast"), (306.0, 332.0, "Hills"),
                          (376.0, 402.0, "Marsh")])  # fmt: skip
    rows = [
        row(120, "Harbour North", ("12", 260), ("3", 330), ("14", 400)),
        row(130, "Harbour South", ("20", 260), ("1", 330), ("18", 400)),
    ]
    above = piece("Fleet", 240, 80)
    out = with_table_headers([[above], [header, *rows]])
    assert out[0] == [above]  # nothing else is drawn into a header printed in place
    assert out[1][0].cells == ["Port", "Coast", "Hills", "Marsh"]
    assert out[1][1:] == rows


def test_a_measured_figure_set_a_narrow_gap_after_its_label_is_the_label_s_value():
    from engine.documents.lines import extract_lines

    def raw(x0: float, x1: float, text: str) -> dict:
        span = {"text": text, "size": 9.0, "flags": 0, "font": "Helvetica", "bbox": (x0, 100.0, x1, 109.0)}
        return {"spans": [span], "bbox": (x0, 100.0, x1, 109.0)}

    def line_of(*pieces: tuple[float, float, str]) -> Line:
        (block,) = extract_lines({"blocks": [{"type": 0, "lines": [raw(*p) for p in pieces]}]})
        (line,) = block
        return line

    row = line_of((72, 200, "Greedy + Lookahead (ours)"), (210, 236, "68.7%"), (246, 272, "71.0%"))
    assert row.cells == ["Greedy + Lookahead (ours)", "68.7%", "71.0%"]
    marked = line_of((72, 120, "Net revenue"), (126, 136, "(1)"))  # a footnote mark is no value
    assert marked.cells in ([], ["Net revenue (1)"])
    heading = line_of((72, 90, "4.2"), (96, 160, "Route planning"))  # a section number before its title
    assert not heading.columnar


def test_a_band_of_words_over_the_column_names_heads_groups_of_them():
    groups = Line(
        "dev test", (150, 84, 420, 92), SIZE, False, 8, pieces=[(166.0, 180.0, "dev"), (376.0, 394.0, "test")]
    )
    names = Line("Prec Rec F1 Prec Rec F1", (100, 96, 470, 104), SIZE, False, 23,
                 pieces=[(100.0, 120.0, "Prec"), (170.0, 186.0, "Rec"), (240.0, 250.0, "F1"), (310.0, 330.0, "Prec"),
                         (380.0, 396.0, "Rec"), (450.0, 460.0, "F1")])  # fmt: skip
    values = [(str(n), x) for n, x in zip(range(10, 16), (120, 190, 260, 330, 400, 470), strict=True)]
    rows = [row(120, "Kestrel", *values), row(130, "Osprey", *values)]
    out = with_table_headers([[groups, names], rows])
    assert out[-1][0].cells == ["", "dev Prec", "dev Rec", "dev F1", "test Prec", "test Rec", "test F1"]


def test_rows_of_words_between_a_header_and_its_figures_are_data_and_the_header_is_found_above():
    header = Line("Planner Coast Hills Marsh", (72, 80, 402, 88), SIZE, False, 25, columnar=True,
                  cells=["Planner", "Coast Hills", "Marsh"], cell_x=[(72.0, 112.0), (236.0, 332.0), (376.0, 402.0)],
                  pieces=[(72.0, 112.0, "Planner"), (236.0, 262.0, "Coast"), (306.0, 332.0, "Hills"),
                          (376.0, 402.0, "Marsh")])  # fmt: skip
    crew = Line("Crew Pilot Pilot Skipper", (72, 96, 402, 104), SIZE, False, 23, columnar=True,
                cells=["Crew", "Pilot", "Pilot", "Skipper"],
                cell_x=[(72.0, 92.0), (236.0, 262.0), (306.0, 332.0), (376.0, 402.0)])  # fmt: skip
    rows = [
        row(120, "Harbour North", ("12", 260), ("3", 330), ("14", 400)),
        row(130, "Harbour South", ("20", 260), ("1", 330), ("18", 400)),
    ]
    out = with_table_headers([[header], [crew, *rows]])
    cells = [line.cells for lines in out for line in lines]
    assert ["Planner", "Coast", "Hills", "Marsh"] in cells, cells
    assert ["Crew", "Pilot", "Pilot", "Skipper"] in cells  # the row of words stays, as data


def test_a_currency_sign_run_into_the_figure_before_it_opens_the_next_cell():
    from engine.documents.lines import extract_lines

    def raw(x0: float, x1: float, text: str) -> dict:
        span = {"text": text, "size": 9.0, "flags": 0, "font": "Helvetica", "bbox": (x0, 100.0, x1, 109.0)}
        return {"spans": [span], "bbox": (x0, 100.0, x1, 109.0)}

    # "$" in a column of its own, then "412,000 $" (the text layer ran the next column's "$" into the figure)
    pieces = [(40, 110, "Dana Okafor"), (300, 305, "$"), (330, 370, "412,000 $"), (386, 420, "430,000"),
              (470, 490, "4.4%")]  # fmt: skip
    (block,) = extract_lines({"blocks": [{"type": 0, "lines": [raw(*p) for p in pieces]}]})
    (line,) = block
    assert line.cells == ["Dana Okafor", "$ 412,000", "$ 430,000", "4.4%"]


def test_a_lone_currency_sign_after_a_figure_opens_the_next_amount():
    from engine.documents.lines import extract_lines

    def raw(x0: float, x1: float, text: str) -> dict:
        span = {"text": text, "size": 7.5, "flags": 0, "font": "Helvetica", "bbox": (x0, 100.0, x1, 107.5)}
        return {"spans": [span], "bbox": (x0, 100.0, x1, 107.5)}

    # a change column's "20 %", then the next segment's "$" set apart and "(473) $" run into the column after it
    pieces = [(52, 105, "Net fares"), (240, 260, "3,389"), (282, 297, "20 %"), (310, 316, "$"),
              (331, 358, "(473) $"), (373, 387, "166")]  # fmt: skip
    (block,) = extract_lines({"blocks": [{"type": 0, "lines": [raw(*p) for p in pieces]}]})
    (line,) = block
    assert line.cells == ["Net fares", "3,389", "20 %", "$ (473)", "$ 166"]


def test_amounts_that_each_end_in_the_next_column_s_currency_sign_are_cells_of_their_own():
    from engine.documents.lines import extract_lines

    def raw(x0: float, x1: float, text: str) -> dict:
        span = {"text": text, "size": 9.0, "flags": 0, "font": "Helvetica", "bbox": (x0, 100.0, x1, 109.0)}
        return {"spans": [span], "bbox": (x0, 100.0, x1, 109.0)}

    pieces = [(55, 94, "Fares"), (392, 399, "$"), (410, 449, "51,217 $"), (460, 499, "46,710 $"), (510, 538, "44,538")]
    (block,) = extract_lines({"blocks": [{"type": 0, "lines": [raw(*p) for p in pieces]}]})
    (line,) = block
    assert line.cells == ["Fares", "$ 51,217", "$ 46,710", "$ 44,538"]


def test_a_header_joined_from_many_short_pieces_is_split_however_long_the_joined_text():
    names = ("Route Time", "Fuel Used", "Stops Made", "Delay Hours")  # joined: 42 characters, each piece short
    xs = ((236.0, 290.0), (306.0, 352.0), (376.0, 428.0), (446.0, 500.0))
    joined = Line(" ".join(names), (236, 100, 500, 108), SIZE, False, 42, columnar=False,
                  pieces=[(x0, x1, name) for name, (x0, x1) in zip(names, xs, strict=True)])  # fmt: skip
    rows = [
        row(120, "Harbour North", ("12", 290), ("3", 352), ("14", 428), ("2", 500)),
        row(130, "Harbour South", ("20", 290), ("1", 352), ("18", 428), ("5", 500)),
    ]
    out = with_table_headers([[joined], rows])
    assert out[-1][0].cells == ["", *names]


def test_prose_of_the_page_s_other_column_level_with_the_header_does_not_end_it():
    prose = Line("the route was flown twice, once in each direction", (330, 104, 560, 112), SIZE, False, 50)
    rows = [row(120, "Harbour North", ("12", 260), ("3", 290)), row(130, "Harbour South", ("20", 260), ("1", 290))]
    out = with_table_headers([[piece("Coast", 236, 96), piece("Hills", 270, 96)], [prose], rows])
    assert out[-1][0].cells == ["", "Coast", "Hills"]  # the sentence beside the table is no line of its header


def test_header_cells_closed_by_an_abbreviation_s_stop_are_a_header_not_a_sentence():
    names = ("CP Acc.", "RT Acc.", "Avg. Acc.")
    xs = ((236.0, 270.0), (306.0, 340.0), (376.0, 412.0))
    joined = Line(" ".join(names), (236, 100, 412, 108), SIZE, False, 25, columnar=False,
                  pieces=[(x0, x1, name) for name, (x0, x1) in zip(names, xs, strict=True)])  # fmt: skip
    rows = [
        row(120, "Harbour North", ("12", 270), ("3", 340), ("14", 412)),
        row(130, "Harbour South", ("20", 270), ("1", 340), ("18", 412)),
    ]
    assert with_table_headers([[joined], rows])[-1][0].cells == ["", *names]
    sentence = Line("The routes were flown.", (236, 100, 412, 108), SIZE, False, 22)
    assert with_table_headers([[sentence], rows]) == [[sentence], rows]  # a sentence over the rows heads nothing


def test_a_joined_header_of_pieces_each_over_a_group_of_columns_heads_each_group_with_its_own_piece():
    joined = Line("tuned=False tuned=True", (236, 92, 412, 100), SIZE, False, 22, columnar=False,
                  pieces=[(236.0, 300.0, "tuned=False"), (320.0, 412.0, "tuned=True")])  # fmt: skip
    rows = [
        row(120, "Harbour North", ("12", 260), ("3", 300), ("14", 360), ("2", 412)),
        row(130, "Harbour South", ("20", 260), ("1", 300), ("18", 360), ("5", 412)),
    ]
    out = with_table_headers([[joined], rows])
    assert out[-1][0].cells == ["", "tuned=False", "tuned=False", "tuned=True", "tuned=True"]
