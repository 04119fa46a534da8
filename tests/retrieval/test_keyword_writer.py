"""The keyword index's direct segment writer writes what whoosh's own ``add_document`` + ``commit`` write."""

from __future__ import annotations

import pytest
from whoosh.codec.whoosh3 import W3Codec

from engine.config import RetrievalConfig
from engine.retrieval import keyword
from engine.retrieval.keyword import KeywordIndex, _PrivateRamStorage, _schema, _section_text, _write, segment_codec

from .factories import document


def _whoosh_write(ix, doc, codec=None) -> None:
    writer = ix.writer(codec=codec or segment_codec())
    for chunk in doc.chunks:
        writer.add_document(body=chunk.text, section=_section_text(chunk))
    writer.commit()


def _segment_bytes(write, doc, config: RetrievalConfig) -> tuple[bytes, dict[str, int]]:
    storage = _PrivateRamStorage()
    write(storage.create_index(_schema(config)), doc)
    (name,) = [n for n in storage.files if n.endswith(".seg")]
    segment_id = name[: -len(".seg")].rsplit("_", 1)[-1]
    ix = storage.open_index()
    with ix.searcher() as searcher:
        stats = {"docs": searcher.doc_count(), "body": searcher.field_length("body"),
                 "section": searcher.field_length("section")}  # fmt: skip
    return bytes(storage.files[name]).replace(segment_id.encode(), b"SEGMENT"), stats


def _sample_document():
    """Made-up pages: a word in more chunks than one posting block holds (128), a word repeated
    more than 255 times in one chunk, empty text, repeated and empty sections, bold run-in terms."""
    pages = []
    for p in range(1, 31):
        items: list[str | tuple] = []
        for i in range(6):
            text = f"Gearbox maintenance note {p}-{i}: lubricate the bearings every {p * i} hours."
            section = ("Maintenance", f"Schedule {p % 3}") if i % 2 else ()
            items.append((text, "text", ("Torque",) if i == 3 else (), section))
        pages.append(items)
    pages.append(["", "bearing " * 300, "Warranty terms and the service desk.", ("x", "text", (), ("Maintenance",))])
    return document(pages)


@pytest.mark.parametrize("boost", [1.0, 2.5])
def test_segment_files_are_byte_identical_to_whooshs(boost):
    doc = _sample_document()
    config = RetrievalConfig(heading_boost=boost)
    assert _segment_bytes(_write, doc, config) == _segment_bytes(_whoosh_write, doc, config)


def test_an_empty_document_writes_an_empty_index():
    doc = document([[]])
    storage = _PrivateRamStorage()
    _write(storage.create_index(_schema(RetrievalConfig())), doc)
    assert storage.open_index().doc_count() == 0


def test_rankings_equal_whooshs_own_build(tmp_path, monkeypatch):
    doc = _sample_document()
    config = RetrievalConfig(heading_boost=1.7)
    ours = KeywordIndex.build(doc, tmp_path / "ours", config)
    monkeypatch.setattr(keyword, "_write", _whoosh_write)
    theirs = KeywordIndex.build(doc, tmp_path / "theirs", config)
    for query in ("bearing lubricate", "maintenance schedule 2", "torque hours", "warranty service desk", "gearbox"):
        got = [(h.chunk.chunk_id, h.score) for h in ours.search(query, 12).hits]
        assert got, query
        assert got == [(h.chunk.chunk_id, h.score) for h in theirs.search(query, 12).hits], query


def test_a_built_index_searches_its_memory_copy_like_the_files_it_wrote(tmp_path):
    doc = _sample_document()
    config = RetrievalConfig()
    built = KeywordIndex.build(doc, tmp_path / "fresh", config)
    assert built.memory_backed
    (tmp_path / "fresh").rename(tmp_path / "index")  # the library renames the folder into place
    reopened = KeywordIndex.open(tmp_path / "index", doc, config)
    assert not reopened.memory_backed
    for query in ("bearing torque", "schedule maintenance", "warranty"):
        got = [(h.chunk.chunk_id, h.score) for h in built.search(query, 10).hits]
        assert got and got == [(h.chunk.chunk_id, h.score) for h in reopened.search(query, 10).hits]


def test_postings_are_written_uncompressed_and_rank_like_whooshs_compressed_default(tmp_path, monkeypatch):
    """The segment's posting blocks are not zlib-compressed (a fifth of a build's time); whoosh's default
    (compressed) build of the same chunks gives the same scores and rankings, page filters included."""
    doc = _sample_document()
    config = RetrievalConfig(heading_boost=1.3)
    ours = KeywordIndex.build(doc, tmp_path / "ours", config)
    with ours._ix.reader() as reader:
        assert reader.segment().codec()._compression == 0
    monkeypatch.setattr(keyword, "_write", lambda ix, d: _whoosh_write(ix, d, codec=W3Codec()))
    compressed = KeywordIndex.build(doc, tmp_path / "compressed", config)
    with compressed._ix.reader() as reader:
        assert reader.segment().codec()._compression > 0
    pages = frozenset(range(2, 30, 3))
    for query in ("bearing lubricate", "maintenance schedule 2", "torque hours", "warranty service desk", "gearbox"):
        for filter_ in (None, pages):
            got = [(h.chunk.chunk_id, h.score) for h in ours.search(query, 40, filter_).hits]
            assert got or filter_, query
            assert got == [(h.chunk.chunk_id, h.score) for h in compressed.search(query, 40, filter_).hits], query
