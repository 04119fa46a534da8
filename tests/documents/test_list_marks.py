"""List marks: a symbol font's bullet read as a letter, and a short paragraph that introduces a list without a colon
(made-up passages)."""

from __future__ import annotations

from dataclasses import dataclass

import pymupdf

from engine.config import EngineConfig
from engine.documents.list_marks import introduces_list
from engine.documents.parsing import parse_pdf


@dataclass(frozen=True)
class P:
    text: str
    kind: str = "text"
    section_path: tuple[str, ...] = ("Care",)


def test_a_short_sentence_over_two_list_items_introduces_them() -> None:
    items = [P("• Flush the pump monthly.", "list_item"), P("• Keep the intake clear.", "list_item")]
    assert introduces_list(P("You can help the pump last longer."), items)
    assert not introduces_list(P("You can help the pump last longer."), items[:1]), "two items at least"
    long = P("You can help the pump last longer. " + "It was built in a yard by the sea and tested for years. " * 2)
    assert not introduces_list(long, items), "a paragraph of several sentences is a paragraph of its own"
    assert not introduces_list(P("You can help the pump last longer."), [P("Other text."), *items])
    other = [P(i.text, "list_item", ("Storage",)) for i in items]
    assert not introduces_list(P("You can help the pump last longer."), other), "items of another section"


def test_letters_a_symbol_font_prints_as_bullets_open_list_items() -> None:
    doc = pymupdf.open()
    page = doc.new_page()
    lines = ["Pump care", "You can help the pump last longer.", "l Flush the pump with clean water every month.",
             "l Keep the intake grille clear of leaves.", "l Store the hose out of the sun."]  # fmt: skip
    for n, line in enumerate(lines):
        page.insert_text((72, 90 + 40 * n), line, fontsize=11)
    parsed = parse_pdf(doc.tobytes(), "pump.pdf", EngineConfig())
    items = [c for c in parsed.chunks if c.kind == "list_item"]
    assert [c.text for c in items] == [
        "• Flush the pump with clean water every month.",
        "• Keep the intake grille clear of leaves.",
        "• Store the hose out of the sun.",
    ], [(c.kind, c.text) for c in parsed.chunks]


def test_one_line_opening_with_a_lone_letter_is_no_list() -> None:
    doc = pymupdf.open()
    page = doc.new_page()
    for n, line in enumerate(["Pump care", "l Flush the pump with clean water every month.", "Keep it dry."]):
        page.insert_text((72, 90 + 40 * n), line, fontsize=11)
    parsed = parse_pdf(doc.tobytes(), "pump.pdf", EngineConfig())
    assert not [c for c in parsed.chunks if c.kind == "list_item"]


def test_a_numbered_title_run_into_the_lead_paragraph_is_not_a_sentence_of_it() -> None:
    items = [P("• Flush the pump monthly.", "list_item"), P("• Keep the intake clear.", "list_item")]
    assert introduces_list(P("4.2 Care Routines? We list the two routines every owner follows."), items)
    assert not introduces_list(P("The pump is old. We list the two routines every owner follows."), items)


def test_a_lead_that_counts_its_items_needs_only_the_first_right_after_it() -> None:
    first = [P("• Flush the pump monthly.", "list_item"), P("Use clean water for it.")]
    assert introduces_list(P("We run three care routines."), first)
    assert not introduces_list(P("You can help the pump last longer."), first), "no count: two items right after"


def test_a_lead_counts_the_first_enumeration_it_states_not_a_quantity() -> None:
    from engine.documents.list_marks import counted_items

    assert counted_items("Of 64 survey flights, we ran three safety checks.") == 3  # 64 is a quantity
    assert counted_items("We ran the checks once.") == 0


def test_a_paragraph_naming_the_following_things_introduces_the_items_after_it() -> None:
    items = [P("• Flush the pump monthly.", "list_item"), P("• Keep the intake clear.", "list_item")]
    para = P("Pumps wear out. We propose the following habits to keep them running. Some matter more than others.")
    assert introduces_list(para, items)
    later = P("Pumps wear out. In the following year the yard replaced them all. Some lasted longer than others.")
    assert not introduces_list(later, items), "'the following year' is a time, not what comes next"
    assert not introduces_list(para, items[:1]), "two items at least"
