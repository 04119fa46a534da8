"""A section's parts read from the document's outline: which section the question names, and what is under it."""

from __future__ import annotations

import pytest

from engine.contracts import ParsedDocument, TocEntry
from engine.reading.outline_answer import asked_section, children, parts_statement, section_parts

TOC = (
    TocEntry(level=1, title="1 Getting Started", start_page=1, end_page=3),
    TocEntry(level=2, title="1.1 Unpacking", start_page=1, end_page=1),
    TocEntry(level=2, title="1.2 Charging the Battery", start_page=2, end_page=3),
    TocEntry(level=1, title="2 Flight Planning", start_page=4, end_page=9),
    TocEntry(level=2, title="2.1 Routes", start_page=4, end_page=5),
    TocEntry(level=3, title="2.1.1 Waypoints", start_page=5, end_page=5),
    TocEntry(level=2, title="2.2 Weather Limits", start_page=6, end_page=7),
    TocEntry(level=2, title="2.3 Fuel Reserves", start_page=8, end_page=9),
    TocEntry(level=1, title="3 Maintenance", start_page=10, end_page=12),
)
DOC = ParsedDocument(doc_id="d", file_name="drone.pdf", total_pages=12, pages=(), chunks=(), toc=TOC,
                     toc_source="outline")  # fmt: skip


@pytest.mark.parametrize(
    ("question", "name"),
    [
        ('Which subsections does the section "Flight Planning" include?', "Flight Planning"),
        ("What are the subsections of the Flight Planning section?", "Flight Planning"),
        ("List the subsections of section 2.", "section 2"),
        ("What sections does chapter 2 contain?", "chapter 2"),
        ("Which subsections are in the Flight Planning chapter?", "Flight Planning"),
    ],
)
def test_a_question_asking_for_a_sections_parts_names_the_section(question: str, name: str) -> None:
    assert asked_section(question) == name


@pytest.mark.parametrize(
    "question",
    [
        "Which section covers the weather limits?",  # asks where, not for parts
        "What are the parts of the drone?",  # the parts of a thing, not of a section
        "What is the fuel reserve for a night flight?",
    ],
)
def test_other_questions_name_no_section(question: str) -> None:
    assert asked_section(question) is None


def test_the_parts_are_the_entries_one_level_under_the_section_in_order() -> None:
    assert [e.title for e in children(TOC, TOC[3])] == ["2.1 Routes", "2.2 Weather Limits", "2.3 Fuel Reserves"]
    assert children(TOC, TOC[8]) == ()  # the last section has nothing under it


@pytest.mark.parametrize("name", ["Flight Planning", "section 2", "FLIGHT PLANNING"])
def test_the_section_is_found_by_its_whole_title_or_its_number(name: str) -> None:
    found = section_parts(DOC, name)
    assert found is not None and found.section.title == "2 Flight Planning"
    statement = parts_statement(found)
    assert statement.startswith("“2 Flight Planning” (pp. 4-9) has 3 subsections: 2.1 Routes (p. 4);"), statement
    assert "Waypoints" not in statement, "an entry two levels down is a part of a part"


def test_a_title_named_in_part_or_a_section_without_parts_is_not_answered() -> None:
    assert section_parts(DOC, "Planning") is None  # names "Flight Planning" only in part
    assert section_parts(DOC, "Maintenance") is None  # no entry under it
