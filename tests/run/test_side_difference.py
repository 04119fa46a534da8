"""Two sides read from the same line item: which is higher and by how much, and as a percentage when asked."""

from __future__ import annotations

from engine.contracts import ComparisonSide
from engine.reading.table_values import Cell
from engine.reading.value_answer import ValueAnswer
from engine.run.side_difference import difference as _difference


def _side(
    label: str, raw: str, value: float, row: str = "Annual fees", cover: float = 1.0
) -> tuple[tuple[ComparisonSide, None], ValueAnswer]:
    cell = Cell(chunk_id=f"d:p3:{label}", doc_id="d", page=3, label=row, column=label, raw=raw, value=value,
                scale="", unit="$", periods=(), quote=f"{label} | {raw}", is_row=True)  # fmt: skip
    return (ComparisonSide(label=label, query=label), None), ValueAnswer(
        statement=raw, cells=(cell,), label_cover=cover, period_ok=True
    )


def test_the_gap_is_stated_and_a_percentage_only_when_asked() -> None:
    found = [_side("Ann Lee", "$ 52,000", 52_000), _side("Bo Chen", "$ 48,000", 48_000)]
    plain = _difference(found)
    assert plain == ["Ann Lee is higher by $4,000 ($52,000 against $48,000)"], plain
    relative = _difference(found, relative=True)
    assert relative[0].endswith("; Ann Lee is 8.33% above Bo Chen"), relative


def test_the_side_named_last_is_the_base_of_the_percentage() -> None:
    found = [_side("Bo Chen", "$ 48,000", 48_000), _side("Ann Lee", "$ 52,000", 52_000)]
    assert _difference(found, relative=True)[0].endswith("; Bo Chen is 7.69% below Ann Lee")


def test_rows_of_other_names_compare_when_each_is_read_exactly_as_the_item_asked() -> None:
    found = [_side("Acme", "$ 52,000", 52_000, "Revenues"), _side("Zenith", "$ 48,000", 48_000, "Total revenue")]
    assert _difference(found) == ["Acme is higher by $4,000 ($52,000 against $48,000)"]
    loose = [_side("Acme", "$ 52,000", 52_000, "Revenues"), _side("Zenith", "$ 48,000", 48_000, "Other", 0.5)]
    assert _difference(loose) == [], "a row that names only part of the item is no side of the comparison"


def test_each_side_reads_the_period_named_in_its_own_clause() -> None:
    from engine.run.value_reader import _own_period

    sides = [ComparisonSide(label="Acme", query="Acme"), ComparisonSide(label="Zenith", query="Zenith")]
    question = "How did Acme's 2030 revenue compare with Zenith's 2031 net sales?"
    assert _own_period(question, sides[0], sides) == "How did Acme's 2030 revenue compare with Zenith's   net sales?"
    assert "2030" not in _own_period(question, sides[1], sides) and "2031" in _own_period(question, sides[1], sides)
    both = "Compare the 2031 revenue of Acme and Zenith."  # one period before the sides: both sides' period
    assert _own_period(both, sides[0], sides) == both


def test_two_periods_state_the_growth_from_the_earlier() -> None:
    found = [_side("fiscal 2041", "$ 46,000", 46_000), _side("fiscal 2039", "$ 40,000", 40_000)]
    assert _difference(found) == [
        "fiscal 2041 is higher by $6,000 ($46,000 against $40,000); +15.0% from fiscal 2039"
    ], _difference(found)
    fell = [_side("fiscal 2039", "$ 40,000", 40_000), _side("fiscal 2041", "$ 30,000", 30_000)]
    assert _difference(fell)[0].endswith("; -25.0% from fiscal 2039")


def test_a_figure_naming_only_another_side_is_not_read_for_this_one() -> None:
    from engine.contracts import ComparisonSide
    from engine.reading.table_values import Cell
    from engine.run.value_reader import names_another_side_only

    sides = [ComparisonSide(label="Harbour segment", query="q"), ComparisonSide(label="Inland segment", query="q")]

    def cell(label: str, column: str = "2031") -> Cell:
        return Cell(chunk_id="d:p1:b0", doc_id="d", page=1, label=label, column=column, raw="9", value=9.0,
                    scale="", unit="", periods=(), quote=label, is_row=True, measure="", context="", position=0)  # fmt: skip

    said = cell("The Harbour segment's revenue was $9 billion")
    assert names_another_side_only(said, sides[1], sides) and not names_another_side_only(said, sides[0], sides)
    assert not names_another_side_only(cell("Revenue", "2031 Inland"), sides[1], sides)
    assert not names_another_side_only(cell("Segment revenue"), sides[1], sides)  # names no side: may be either's


def _said(label: str, sentence: str, value: float) -> tuple[tuple[ComparisonSide, None], ValueAnswer]:
    cell = Cell(chunk_id=f"d:p3:{label}", doc_id="d", page=3, label=sentence, column="", raw=f"{value:g}%",
                value=value, scale="", unit="%", periods=(), quote=sentence, is_row=False)  # fmt: skip
    return (ComparisonSide(label=label, query=label), None), ValueAnswer(
        statement=f"{value:g}%", cells=(cell,), label_cover=1.0, period_ok=True
    )


def test_two_sentences_saying_the_same_of_each_side_compare() -> None:
    found = [
        _said("Harbour", "In 2031 the Harbour unit made about 76% of sales.", 76.0),
        _said("Inland", "In 2031 the Inland unit made about 24% of sales.", 24.0),
    ]
    assert _difference(found) == ["Harbour is higher by 52 percentage points (76% against 24%)"]
    other = [found[0], _said("Inland", "In 2031 the Inland unit cut about 24% of its staff.", 24.0)]
    assert _difference(other) == [], "sentences about two measures do not compare"


def test_rows_labelled_by_their_years_compare_under_one_column() -> None:
    def year_row(year: str, raw: str, value: float) -> tuple[tuple[ComparisonSide, None], ValueAnswer]:
        cell = Cell(chunk_id="d:p3:b0", doc_id="d", page=3, label=year, column="Number of Wells", raw=raw,
                    value=value, scale="", unit="", periods=(), quote=f"{year} | {raw}", is_row=True)  # fmt: skip
        return (ComparisonSide(label=year, query=year), None), ValueAnswer(
            statement=raw, cells=(cell,), label_cover=0.6, period_ok=True
        )

    found = [year_row("1990", "1,766", 1766.0), year_row("2010", "1,453", 1453.0)]
    assert _difference(found)[0].startswith("1990 is higher by 313")


def test_two_numbers_of_one_sentence_compare_and_are_not_one_cell() -> None:
    from engine.run.side_difference import one_sentence
    from engine.run.value_reader import _one_cell_for_all_sides

    sentence = "The ferry unit had a margin of 31% for 2041, against 24% for 2040."

    def number(side: str, raw: str, position: int) -> tuple[tuple[ComparisonSide, None], ValueAnswer]:
        cell = Cell(chunk_id="d:p3:b1", doc_id="d", page=3, label=sentence, column="", raw=raw,
                    value=float(raw.rstrip("%")), scale="", unit="%", periods=(), quote=sentence, is_row=False,
                    position=position)  # fmt: skip
        return (ComparisonSide(label=side, query=side), None), ValueAnswer(
            statement=raw, cells=(cell,), label_cover=1.0, period_ok=True
        )

    found = [number("2041", "31%", 31), number("2040", "24%", 48)]
    assert one_sentence(found) and not _one_cell_for_all_sides(found)
    assert _difference(found) == ["2041 is higher by 7 percentage points (31% against 24%)"]
    same = [number("2041", "31%", 31), number("2040", "31%", 31)]
    assert not one_sentence(same) and _one_cell_for_all_sides(same), "one number is never both sides' figure"


def test_two_sentences_saying_the_same_up_to_their_numbers_compare() -> None:
    def said(label: str, sentence: str, raw: str) -> tuple[tuple[ComparisonSide, None], ValueAnswer]:
        cell = Cell(chunk_id=f"d{label}:p3:b1", doc_id=f"d{label}", page=3, label=sentence, column="", raw=raw,
                    value=float(raw.rstrip("%")), scale="", unit="%", periods=(), quote=sentence, is_row=False,
                    position=sentence.index(raw))  # fmt: skip
        return (ComparisonSide(label=label, query=label), None), ValueAnswer(
            statement=raw, cells=(cell,), label_cover=1.0, period_ok=True
        )

    found = [
        said("2041", "For 2041, the ferry staff's yearly attrition was 9.5%, up from 7.1% in 2040.", "9.5%"),
        said("2042", "For 2042, the ferry staff's yearly attrition was 8.2%, down from 9.5% in 2041.", "8.2%"),
    ]
    assert _difference(found) == ["2041 is higher by 1.3 percentage points (9.5% against 8.2%)"]
    other = [found[0], said("2042", "For 2042, the ferry staff's yearly hiring was 8.2%, down from 9.5%.", "8.2%")]
    assert _difference(other) == [], "another measure before the number"


def test_a_gap_between_two_scales_is_stated_in_the_larger() -> None:
    def amount(label: str, raw: str, value: float, scale: str) -> tuple[tuple[ComparisonSide, None], ValueAnswer]:
        cell = Cell(chunk_id=f"d{label}:p3:b1", doc_id=f"d{label}", page=3, label="Fuel costs", column="2031",
                    raw=raw, value=value, scale=scale, unit="$", periods=(), quote=raw, is_row=True)  # fmt: skip
        return (ComparisonSide(label=label, query=label), None), ValueAnswer(
            statement=raw, cells=(cell,), label_cover=1.0, period_ok=True
        )

    found = [amount("Kestrel", "998", 998.0, "million"), amount("Pelican", "881,826", 881826.0, "thousand")]
    assert _difference(found)[0].startswith("Kestrel is higher by $116.174 million"), _difference(found)


def test_a_document_side_s_name_is_no_word_of_the_line_item() -> None:
    from engine.run.value_reader import _without_names

    keywords = ["Kestrel Air in 2031", "Pelican", "fuel costs", "2030"]
    assert _without_names(keywords, ["Kestrel Air", "Pelican"]) == ["in 2031", "fuel costs", "2030"]


def test_sides_read_from_sentences_saying_the_same_are_alike_enough_to_state() -> None:
    from engine.run.value_reader import _alike

    found = [
        _said("Harbour", "In 2031 the Harbour unit made about 76% of sales.", 76.0),
        _said("Inland", "In 2031 the Inland unit made about 24% of sales.", 24.0),
    ]
    assert _alike(found)
    assert not _alike([found[0], _said("Inland", "In 2031 the Inland unit cut about 24% of its staff.", 24.0)])


def test_rows_each_labelled_by_their_side_s_name_are_one_line_item_their_column() -> None:
    def own_row(name: str, raw: str, value: float) -> tuple[tuple[ComparisonSide, None], ValueAnswer]:
        cell = Cell(chunk_id="d:p7:b2", doc_id="d", page=7, label=name, column="Total ($)", raw=raw, value=value,
                    scale="", unit="$", periods=(), quote=f"{name} | {raw}", is_row=True)  # fmt: skip
        read = ValueAnswer(statement=raw, cells=(cell,), label_cover=0.5, period_ok=True)  # the metric half named
        return (ComparisonSide(label=name, query=name), None), read

    found = [own_row("Dana Lund", "$ 231,400", 231_400), own_row("Eli Park", "$ 216,400", 216_400)]
    assert _difference(found) == ["Dana Lund is higher by $15,000 ($231,400 against $216,400)"]


def test_rows_of_two_items_sharing_no_word_do_not_compare() -> None:
    found = [
        _side("fiscal 2031", "$ 4,795", 4_795, "Revenue"),
        _side("fiscal 2038", "$ 2,762", 2_762, "Harbour Region"),
    ]
    assert _difference(found) == [], "a company's revenue and one region's are two items"
