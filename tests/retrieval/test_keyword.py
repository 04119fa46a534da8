from __future__ import annotations

import tempfile
import threading

import pytest

from engine.config import RetrievalConfig
from engine.errors import LibraryCorruptError
from engine.retrieval.hit_map import snippet
from engine.retrieval.keyword import KeywordIndex, clean_query

from .factories import document, paper

CFG = RetrievalConfig()


@pytest.fixture
def built(tmp_path):
    doc = paper()
    return doc, KeywordIndex.build(doc, tmp_path / "ix", CFG), tmp_path / "ix"


def test_finds_the_chunk_with_the_words(built):
    doc, index, _ = built
    ranked = index.search("label smoothing", 5)
    assert ranked.retriever == "keyword" and ranked.hits
    top = ranked.hits[0]
    assert top.chunk.page == 3 and "Label Smoothing" in top.chunk.text
    assert top.chunk in doc.chunks and top.rank == 1 and top.retriever == "keyword"
    assert "label smoothing" in top.highlight.lower()
    assert [h.rank for h in ranked.hits] == list(range(1, len(ranked.hits) + 1))
    assert all(a.score >= b.score for a, b in zip(ranked.hits, ranked.hits[1:], strict=False))


def test_stemming_matches_inflections(built):
    _, index, _ = built
    assert any("dropout" in h.chunk.text.lower() for h in index.search("applying dropouts", 3).hits)


def test_or_group_ranks_partial_matches(built):
    _, index, _ = built
    ranked = index.search("smoothing zebra unicorn", 5)
    assert ranked.hits and ranked.hits[0].chunk.page == 3


def test_section_field_boost(tmp_path):
    doc = document(
        [
            ["The optimizer is mentioned once here with other words about engines."],
            [("We used beta values and a warmup schedule.", "text", (), ("Training", "Optimizer"))],
        ]
    )
    index = KeywordIndex.build(doc, tmp_path / "ix", RetrievalConfig(heading_boost=4.0))
    assert [h.chunk.page for h in index.search("optimizer", 2).hits] == [2, 1]


@pytest.mark.parametrize("query", ["", "   ", 'AND OR NOT "(', "title:foo^3 bar~ *x?", "a:b:c [1 TO 2]", "\x00\n\t"])
def test_query_syntax_never_raises(built, query):
    _, index, _ = built
    ranked = index.search(query, 5)
    assert ranked.query == query
    assert all(h.retriever == "keyword" for h in ranked.hits)


def test_empty_query_returns_empty(built):
    _, index, _ = built
    assert index.search("", 5).hits == ()
    assert index.search("the of and", 5).hits == ()


def test_page_filter(built):
    _, index, _ = built
    assert {h.chunk.page for h in index.search("table transformer", 10, frozenset({4})).hits} == {4}
    assert index.search("label smoothing", 5, frozenset({1})).hits == ()
    assert index.search("label smoothing", 5, frozenset()).hits == ()


def test_k_limits(built):
    _, index, _ = built
    assert len(index.search("the transformer table model", 2).hits) <= 2
    assert index.search("transformer", 0).hits == ()


def test_open_round_trip(built):
    doc, index, path = built
    reopened = KeywordIndex.open(path, doc, CFG)
    assert [h.chunk.chunk_id for h in reopened.search("label smoothing", 3).hits] == [
        h.chunk.chunk_id for h in index.search("label smoothing", 3).hits
    ]


def test_open_rejects_count_mismatch(built):
    _, _, path = built
    other = document([["only one chunk here about smoothing"]])
    with pytest.raises(LibraryCorruptError, match="holds"):
        KeywordIndex.open(path, other, CFG)


def test_open_rejects_missing_or_damaged(tmp_path, built):
    doc, _, path = built
    with pytest.raises(LibraryCorruptError):
        KeywordIndex.open(tmp_path / "nowhere", doc, CFG)
    for f in path.iterdir():
        f.write_bytes(b"garbage")
    with pytest.raises(LibraryCorruptError):
        KeywordIndex.open(path, doc, CFG)


def test_rebuild_in_same_directory(built):
    doc, _, path = built
    again = KeywordIndex.build(doc, path, CFG)
    assert KeywordIndex.open(path, doc, CFG) and again.search("label", 1).hits


def test_with_document_maps_vanished_ids_to_the_pages_new_chunks(built):
    doc, index, _ = built
    kept = [c for c in doc.chunks if c.page != 3]
    from .factories import chunk as mk

    new3 = [mk(3, 10, "Residual dropout and label smoothing table | row"), mk(3, 11, "second new chunk")]
    new_doc = doc.model_copy(update={"chunks": tuple(kept + new3), "parse_method": "adaptive"})
    swapped = index.with_document(new_doc)
    hits = swapped.search("label smoothing", 5).hits
    ids = {c.chunk_id for c in new_doc.chunks}
    assert hits and all(h.chunk.chunk_id in ids for h in hits)
    assert hits[0].chunk.page == 3
    assert len({h.chunk.chunk_id for h in hits}) == len(hits)


def test_clean_query_and_snippet():
    assert clean_query('What is "label smoothing" (value)?') == "label smoothing"
    assert clean_query("AND OR") == "and or"
    text = "x " * 200 + "the Label Smoothing value is 0.1 " + "y " * 200
    assert "Label Smoothing" in snippet(text, ["smoothing"])
    assert snippet("short text", ["absent"]) == "short text"


def test_concurrent_builds_leave_nothing_in_the_temporary_directory(tmp_path, monkeypatch):
    doc = paper()
    spills = tmp_path / "tmp"
    spills.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(spills))  # this test's own temporary directory
    made: list[str] = []
    real_mkdtemp = tempfile.mkdtemp
    monkeypatch.setattr(tempfile, "mkdtemp", lambda *a, **k: made.append(real_mkdtemp(*a, **k)) or made[-1])
    errors: list[BaseException] = []

    def build(n: int) -> None:
        try:
            for i in range(3):
                index = KeywordIndex.build(doc, tmp_path / f"t{n}-{i}", RetrievalConfig())
                assert index.search("label smoothing", 3).hits
                index.close()
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=build, args=(n,)) for n in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert made == [], "a build makes no temporary folder (one stopped midway would leave it behind)"
    assert list(spills.iterdir()) == []


TRICKY = [
    "Don't re-use the R-CNN's 3.5x speed-up (Table 3.2) in § 4.1!",
    "İstanbul ÉCOLE naïve café x y 1 22 333 v2.18.0 e.g. i.e.",
    "the THE The a an and of running runs ran runner",
    "_under_score__ mixed123Case ﬁle ligature\u00ad soft",
]


@pytest.mark.parametrize("text", TRICKY)
def test_index_terms_are_the_stemming_analyzer_terms(text):
    from collections import Counter

    from whoosh.analysis import StemmingAnalyzer

    from engine.retrieval.keyword import index_terms, stem

    assert index_terms(text) == dict(Counter(t.text for t in StemmingAnalyzer(stemfn=stem)(text)))


def test_a_consonant_doubled_before_its_ending_is_undone_in_the_index_terms():
    from engine.retrieval.keyword import stem

    assert stem("mooring") == stem("moor") and stem("tripping") == stem("trip") == "trip"
    assert stem("planned") == stem("plan") and stem("falling") == stem("fall") and stem("staffed") == stem("staff")


def test_index_terms_match_on_random_text():
    from collections import Counter

    from hypothesis import given, settings
    from hypothesis import strategies as st
    from whoosh.analysis import StemmingAnalyzer

    from engine.retrieval.keyword import index_terms, stem

    @settings(max_examples=200, deadline=None)
    @given(st.text(max_size=200))
    def check(text):  # the analyzer that parses queries, with the index's stemmer ("0obbed" -> "0ob")
        assert index_terms(text) == dict(Counter(t.text for t in StemmingAnalyzer(stemfn=stem)(text)))

    check()


def test_index_holds_only_the_two_text_fields(built):
    _, _, path = built
    from whoosh import index as whoosh_index

    schema = whoosh_index.open_dir(str(path)).schema
    assert sorted(schema.names()) == ["body", "section"]
    assert not any(schema[name].stored for name in schema.names())


@pytest.mark.parametrize("change", ["format", "boost", "chunks"])
def test_an_older_or_other_index_reads_as_stale(built, change):
    import json

    from engine.retrieval.keyword import META_NAME

    doc, _, path = built
    meta = json.loads((path / META_NAME).read_text())
    if change == "format":
        meta["format"] -= 1
    elif change == "chunks":
        meta["chunk_ids"] = "0" * 40
    (path / META_NAME).write_text(json.dumps(meta))
    config = RetrievalConfig(heading_boost=3.0) if change == "boost" else CFG
    with pytest.raises(LibraryCorruptError):
        KeywordIndex.open(path, doc, config)


def test_in_memory_index_matches_the_saved_one(built):
    doc, index, _ = built
    memory = KeywordIndex.in_memory(doc, CFG)
    for query in ("label smoothing", "attention heads", "training"):
        assert memory.search(query, 5) == index.search(query, 5)


def test_a_repeated_search_is_answered_from_the_kept_results(built, monkeypatch):
    """The same words, limit and pages are searched once; any other limit or page filter is searched anew,
    and the kept result is the one whoosh gives."""
    _, index, _ = built
    calls: list[int] = []
    search = index._searcher.search

    def counted(*args, **kwargs):
        calls.append(kwargs["limit"])
        return search(*args, **kwargs)

    monkeypatch.setattr(index._searcher, "search", counted)
    first = index.search("label smoothing regularization", 5)
    again = index.search("Label smoothing, regularization!", 5)  # the same words once cleaned
    assert again.hits == first.hits and len(calls) == 1
    index.search("label smoothing regularization", 3)
    index.search("label smoothing regularization", 5, frozenset({3}))
    assert len(calls) == 3, "another limit or page filter is another whoosh search"
    fresh = KeywordIndex.build(index.doc, index_dir := built[2].with_name("fresh"), CFG)
    assert fresh.search("label smoothing regularization", 5).hits == first.hits
    assert index_dir.is_dir()


def test_kept_searches_are_bounded(built):
    from engine.retrieval import keyword

    _, index, _ = built
    for n in range(keyword._KEPT_SEARCHES + 10):
        index.search(f"transformer layer {n}", 2)
    assert len(index._found) == keyword._KEPT_SEARCHES


def test_the_documents_own_name_weighs_little_in_a_query(tmp_path):
    from engine.retrieval.keyword import name_terms, weighted_query

    pages = [
        ["Welcome to your Kestrel 90 kettle. Kestrel 90 service hotline: call the Kestrel desk."],
        ["Place the kettle with a gap of 40 mm at the rear, away from walls and other appliances."],
    ]
    doc = document(pages).model_copy(update={"repeated_lines": ("Owner's guide Kestrel 90", "7")})
    assert name_terms(doc) == frozenset({"owner", "guid", "kestrel", "90"})  # the page number names nothing
    assert weighted_query("gap rear kestrel 90", name_terms(doc)) == "gap rear kestrel^0.3 90^0.3"
    assert weighted_query("kestrel 90", name_terms(doc)) == "kestrel 90"  # nothing else to search for
    index = KeywordIndex.build(doc, tmp_path / "ix", CFG)
    assert index.search("gap at the rear of the Kestrel 90", 2).hits[0].chunk.page == 2
    plain = KeywordIndex.build(document(pages), tmp_path / "plain", CFG)  # no running header: no name known
    assert plain.search("gap at the rear of the Kestrel 90", 2).hits[0].chunk.page == 1
