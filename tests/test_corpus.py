"""Questions asked of the whole library: corpus-wide search, the document-choice rules, ``ask --all``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.api.corpus_search import (
    CORPUS_WIDE_SHARE,
    MAX_DOCS_CORPUS_WIDE,
    MAX_DOCS_FOCUSED,
    NEAR_TIE_SHARE,
    choose_documents,
    search_library,
)
from engine.cli.main import main
from engine.config import EngineConfig
from engine.contracts import ComparisonSide, CorpusHit
from engine.library import open_library
from tests.reliability import pdfs
from tests.run.factories import question


def _hit(doc: str, score: float, page: int = 1) -> CorpusHit:
    return CorpusHit(doc_id=doc * 64, file_name=f"{doc}.pdf", page=page, chunk_id=f"{doc}:p{page}", score=score,
                     text="text")  # fmt: skip


def test_no_hit_picks_nothing_and_says_so():
    pick = choose_documents(question(), [])
    assert pick.doc_ids == () and "no passage" in pick.reason


def test_a_focused_question_goes_to_the_best_document_and_its_near_ties():
    hits = [
        _hit("a", 10.0),
        _hit("b", 10.0 * NEAR_TIE_SHARE),
        _hit("c", 10.0 * NEAR_TIE_SHARE - 0.1),
        _hit("a", 9.0, 2),
    ]
    pick = choose_documents(question(intent="single_fact"), hits)
    assert pick.doc_ids == ("a" * 64, "b" * 64) and "near tie" in pick.reason and "a.pdf, b.pdf" in pick.reason
    alone = choose_documents(question(intent="single_fact"), [_hit("a", 10.0), _hit("b", 1.0)])
    assert alone.doc_ids == ("a" * 64,) and "near tie" not in alone.reason
    many = [_hit(d, 10.0) for d in "abcdef"]
    assert len(choose_documents(question(), many).doc_ids) == MAX_DOCS_FOCUSED


def test_a_corpus_wide_question_reads_every_document_scoring_a_share_of_the_best():
    hits = [_hit("a", 10.0), _hit("b", 10.0 * CORPUS_WIDE_SHARE), _hit("c", 10.0 * CORPUS_WIDE_SHARE - 0.1)]
    pick = choose_documents(question(intent="open_corpus_wide"), hits)
    assert pick.doc_ids == ("a" * 64, "b" * 64) and pick.reason.startswith("corpus-wide question: the 2 document")
    many = [_hit(d, 10.0) for d in "abcdefgh"]
    assert len(choose_documents(question(intent="open_corpus_wide"), many).doc_ids) == MAX_DOCS_CORPUS_WIDE


def test_a_comparison_takes_the_best_document_of_each_side():
    sides = (ComparisonSide(label="Heron", query="heron survey"), ComparisonSide(label="Osprey", query="osprey survey"))
    parsed = question(intent="comparison", sides=sides)
    pick = choose_documents(parsed, [_hit("a", 5.0)], [[_hit("a", 3.0), _hit("b", 2.0)], [_hit("c", 4.0)]])
    assert pick.doc_ids == ("a" * 64, "c" * 64) and "Heron: a.pdf; Osprey: c.pdf" in pick.reason


@pytest.fixture
def two_reports(config: EngineConfig, tmp_path: Path) -> list[Path]:
    paths = []
    for name, text in (("heron.pdf", pdfs.BODY), ("osprey.pdf", "The Osprey audit counted nesting pairs on cliffs.")):
        path = tmp_path / name
        path.write_bytes(pdfs.text_pdf((text,)))
        paths.append(path)
    return paths


def test_the_embedded_library_searches_each_document_in_turn(config: EngineConfig, two_reports: list[Path]) -> None:
    library = open_library(config)
    heron, osprey = (library.ingest_path(p) for p in two_reports)
    hits = search_library(library, "nesting pairs on cliffs", k=5)
    assert hits[0].doc_id == osprey.doc_id and hits[0].file_name == "osprey.pdf" and hits[0].page == 1
    assert {h.doc_id for h in search_library(library, "turbidity nesting", k=10)} == {heron.doc_id, osprey.doc_id}
    with pytest.raises(Exception, match="at least 1"):
        search_library(library, "x", k=0)


def _cli_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict:
    assert main([*argv, "--json"]) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out.strip().splitlines()[-1])


def _ask_the_whole_library(two_reports: list[Path], capsys: pytest.CaptureFixture[str]) -> None:
    for path in two_reports:
        assert main(["ingest", str(path)]) == 0
    capsys.readouterr()
    found = _cli_json(["search", "--all", "nesting pairs", "--k", "3"], capsys)
    assert found["scope"] == "library" and found["hits"][0]["file_name"] == "osprey.pdf"
    result = _cli_json(["ask", "--all", "How many nesting pairs did the Osprey audit count?"], capsys)
    assert [d["file_name"] for d in result["docs"]] == ["osprey.pdf"] and "osprey.pdf" in result["picked_by"]
    listed = _cli_json(["runs", "show", result["run_id"]], capsys)
    assert listed["picked_by"] == result["picked_by"]
    assert main(["ask", "--all", "zygomorphic xylophones"]) == 2
    assert capsys.readouterr().err.startswith("error: no passage of the library matches")
    assert main(["search", "--all", "one", "two"]) == 2 and "only the query" in capsys.readouterr().err


def test_ask_all_on_the_embedded_library(config: EngineConfig, two_reports: list[Path], capsys) -> None:
    _ask_the_whole_library(two_reports, capsys)


@pytest.mark.postgres
def test_ask_all_on_a_team_library(pg_url: str, config: EngineConfig, two_reports: list[Path], capsys) -> None:
    _ask_the_whole_library(two_reports, capsys)
