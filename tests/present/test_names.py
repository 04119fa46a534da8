"""Display names: every engine identifier an analyst can meet has words; the evidence pack speaks them."""

from __future__ import annotations

import unicodedata
from typing import get_args

import pymupdf
import pytest

from engine.api import answer
from engine.config import EngineConfig, LibraryConfig
from engine.contracts import Action, PatternName, StopReason, StrategyName, Trigger
from engine.library.local import Library
from engine.present import names
from engine.present.export import DETAILS_HEADING, build_pack
from engine.samples import ensure_sample


def _flat(literal: object) -> set[str]:
    out: set[str] = set()
    for arg in get_args(literal):
        out |= _flat(arg) if get_args(arg) else {arg}
    return out


@pytest.mark.parametrize(
    ("kind", "literal"),
    [
        ("stop", StopReason),
        ("trigger", Trigger),
        ("action", Action),
        ("strategy", StrategyName),
        ("pattern", PatternName),
    ],
)
def test_every_identifier_has_a_display_name(kind: str, literal: object) -> None:
    assert names.covered(kind) == _flat(literal)


def test_display_names_are_words_not_identifiers() -> None:
    tables = [names.PATTERN_LABELS, names.PATTERN_PURPOSE, names.STRATEGY_LABELS, names.TRIGGER_LABELS,
              names.ACTION_LABELS, names.STOP_SENTENCES, names.STAGE_LABELS]  # fmt: skip
    for table in tables:
        for text in table.values():
            assert names.snake_case_words(text) == [], text
    assert len(set(names.PATTERN_LABELS.values())) == len(names.PATTERN_LABELS)  # one name per concept


@pytest.fixture(scope="module")
def dispatched_run(tmp_path_factory: pytest.TempPathFactory):
    config = EngineConfig(library=LibraryConfig(path=str(tmp_path_factory.mktemp("lib"))))
    library = Library(config)
    entry = ensure_sample(library)
    result = answer("What mean turbidity does Table 3 report for the Heron 3 flights?", [entry.doc_id],
                    config=config, library=library, strategy="dispatched")  # fmt: skip
    return result, library


def _jargon(text: str) -> list[str]:
    found = names.snake_case_words(text)
    return found + [n for n in names.INTERNAL_NAMES if n.lower() in text.lower()]


def test_the_pack_speaks_plainly_before_its_details(dispatched_run) -> None:
    result, library = dispatched_run
    pack = build_pack(result, library.pdf_bytes)
    markdown = pack.markdown(image_dir="images")
    analyst, _, details = markdown.partition(DETAILS_HEADING)
    assert details and "keyword_retrieval" in details  # the engine's names, at the end
    assert _jargon(analyst) == [], _jargon(analyst)
    assert "Pass 0" not in analyst and "First reading" in analyst
    pdf_text = unicodedata.normalize(
        "NFKC", " ".join(p.get_text() for p in pymupdf.open(stream=pack.pdf(), filetype="pdf"))
    )
    analyst_pdf = pdf_text.partition(DETAILS_HEADING.removeprefix("## "))[0]
    assert _jargon(analyst_pdf) == [], _jargon(analyst_pdf)


def test_narration_never_repeats_the_pass_number(dispatched_run) -> None:
    result, _ = dispatched_run
    for line in names.pass_lines(result):
        assert line.count("pass") + line.count("reading") <= 2 and "Pass 0" not in line
