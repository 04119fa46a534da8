"""Hostile and broken input through ``Library.ingest``: one clear error, library unchanged."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest

from engine.config import EngineConfig
from engine.errors import DocumentError, DocumentTooLargeError, EncryptedPdfError, NotAPdfError, NoTextLayerError
from engine.library.local import Library
from tests.reliability import pdfs
from tests.reliability.conftest import entry_dirs, snapshot

BROKEN = {
    "empty": (b"", NotAPdfError, ("empty",)),
    "not_a_pdf": (b"<html><body>Quarterly report</body></html>\n" * 40, NotAPdfError, ("pdf",)),
    "truncated": (None, NotAPdfError, ("pdf",)),
    "encrypted": (None, EncryptedPdfError, ("password",)),
    "image_only": (None, NoTextLayerError, ("ocr",)),
}


def _bytes(case: str) -> bytes:
    data = BROKEN[case][0]
    if data is not None:
        return data
    return {"truncated": pdfs.truncated_pdf, "encrypted": pdfs.encrypted_pdf, "image_only": pdfs.image_only_pdf}[case]()


def _assert_unchanged(library: Library, before: dict[str, int]) -> None:
    assert library.entries() == []
    assert snapshot(library.root) == before, "a rejected file left something in the library"
    assert entry_dirs(library.root) == []


def _assert_one_clear_message(error: BaseException) -> None:
    message = str(error)
    assert message.strip(), "the error has no message"
    assert "\n" not in message.strip(), f"message is not one line: {message!r}"
    assert "Traceback" not in message
    assert len(message) < 400


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_broken_file_is_rejected_with_one_clear_error(case: str, config: EngineConfig) -> None:
    library = Library(config)
    before = snapshot(library.root)
    expected, words = BROKEN[case][1], BROKEN[case][2]
    with pytest.raises(expected) as info:
        library.ingest(_bytes(case), f"{case}.pdf")
    _assert_one_clear_message(info.value)
    message = str(info.value).lower()
    assert any(word in message for word in words), f"{case}: message {message!r} lacks any of {words}"
    _assert_unchanged(library, before)


def test_library_keeps_working_after_every_rejection(config: EngineConfig) -> None:
    library = Library(config)
    for case in BROKEN:
        with pytest.raises(DocumentError):
            library.ingest(_bytes(case), f"{case}.pdf")
    entry = library.ingest(pdfs.text_pdf(), "good.pdf")
    assert [e.doc_id for e in library.entries()] == [entry.doc_id]
    assert library.load(entry.doc_id).search("turbidity", "keyword", k=3).hits


@pytest.mark.parametrize("maker", [pdfs.bad_destinations_outline_pdf, pdfs.cyclic_outline_pdf])
def test_malformed_outline_ingests_with_a_sane_toc(maker, config: EngineConfig) -> None:
    library = Library(config)
    entry = library.ingest(maker(), "outline.pdf")
    doc = library.parsed(entry.doc_id)
    assert doc.total_pages == 4
    for item in doc.toc:
        assert 1 <= item.start_page <= item.end_page <= doc.total_pages, item
        assert item.level >= 1
        item.title.encode("utf-8")  # no lone surrogates: the title can be stored and shown
        assert not any(unicodedata.category(ch) == "Cc" for ch in item.title), item.title
    reloaded = Library(config)
    assert reloaded.get(entry.doc_id).profile.toc_entries == entry.profile.toc_entries
    assert reloaded.load(entry.doc_id).search("chapter", "fused", k=3).hits


@pytest.mark.timeout(60)
def test_2000_pages_over_the_limit_are_rejected_before_parsing(two_thousand_pages: bytes, library_only_config) -> None:
    library = Library(library_only_config(max_pages=1500))
    before = snapshot(library.root)
    with pytest.raises(DocumentTooLargeError) as info:
        library.ingest(two_thousand_pages, "register.pdf")
    assert "2000" in str(info.value) and "1500" in str(info.value), str(info.value)
    _assert_one_clear_message(info.value)
    _assert_unchanged(library, before)


@pytest.mark.timeout(30)
def test_file_over_the_size_limit_is_rejected_before_opening(two_thousand_pages: bytes, library_only_config) -> None:
    library = Library(library_only_config(max_file_mb=0.25))
    with pytest.raises(DocumentTooLargeError):
        library.ingest(two_thousand_pages, "register.pdf")
    assert library.entries() == []


@pytest.mark.timeout(600)
def test_2000_pages_under_the_limit_report_increasing_progress(two_thousand_pages: bytes, library_only_config) -> None:
    library = Library(library_only_config(max_pages=2500))
    seen: list[tuple[float, str]] = []
    entry = library.ingest(two_thousand_pages, "register.pdf", progress=lambda f, m: seen.append((f, m)))
    assert entry.total_pages == 2000
    fractions = [f for f, _ in seen]
    assert len(set(fractions)) >= 5, f"too few progress steps for 2000 pages: {fractions}"
    assert all(0.0 <= f <= 1.0 for f in fractions), fractions
    assert fractions == sorted(fractions), "progress went backwards"
    assert fractions[-1] == pytest.approx(1.0)
    assert all(isinstance(m, str) and m for _, m in seen)


# ------------------------------------------------------------------------------------------------
# PDF bombs
# ------------------------------------------------------------------------------------------------


@pytest.mark.timeout(30)
@pytest.mark.parametrize("maker", [pdfs.lying_page_count_pdf, pdfs.shared_kids_bomb_pdf])
def test_page_tree_claiming_millions_of_pages_is_rejected(maker, config: EngineConfig) -> None:
    library = Library(config)
    before = snapshot(library.root)
    with pytest.raises(DocumentError) as info:
        library.ingest(maker(), "bomb.pdf")
    _assert_one_clear_message(info.value)
    _assert_unchanged(library, before)


@pytest.mark.timeout(30)
def test_200000_real_page_objects_are_rejected_by_the_page_limit(
    many_page_objects: bytes, config: EngineConfig
) -> None:
    library = Library(config)
    with pytest.raises(DocumentTooLargeError) as info:
        library.ingest(many_page_objects, "bomb.pdf")
    assert "200000" in str(info.value).replace(",", "")
    assert library.entries() == []


@pytest.mark.timeout(30)
def test_deeply_nested_page_tree_is_bounded(config: EngineConfig) -> None:
    library = Library(config)
    try:
        entry = library.ingest(pdfs.deep_tree_pdf(3000), "deep.pdf")
    except DocumentError as error:
        _assert_one_clear_message(error)
        assert library.entries() == []
    else:
        assert entry.total_pages == 1
        assert library.load(entry.doc_id).search("hostile", "keyword", k=1).hits


@pytest.mark.timeout(90)
def test_huge_content_stream_is_bounded_in_time_and_memory(content_bomb: bytes, library_dir: Path) -> None:
    """A 600 KB file with 200 MB of page operators: unbounded, text extraction takes ~35 s and ~5 GB.

    Runs in a child process limited to 3 GB of address space; it must finish (ingested or one
    DocumentError) within 60 s.
    """
    from tests.reliability.subproc import ingest_in_child

    outcome = ingest_in_child(content_bomb, "bomb.pdf", library_dir, memory_mb=3000, timeout=75)
    assert outcome.get("crashed") is None, outcome
    if outcome["ok"]:
        assert outcome["pages"] == 1
    else:
        assert outcome["is_document_error"], outcome
        assert "\n" not in outcome["message"].strip()
        assert entry_dirs(library_dir) == []


# ------------------------------------------------------------------------------------------------
# File names
# ------------------------------------------------------------------------------------------------

HOSTILE_NAMES = [
    "../../../../tmp/evil.pdf",
    "..",
    "sub/dir/report.pdf",
    "C:\\Windows\\System32\\drivers\\report.pdf",
    "/etc/passwd",
    "bad\x00name\x1b[31m\r\n\x7f.pdf",
    "\u202ereverse\u200b.pdf",
    "x" * 5000 + ".pdf",
    "",
    "   ",
    "manifest.json",
]


@pytest.mark.parametrize("index", range(len(HOSTILE_NAMES)))
def test_hostile_file_name_is_stored_under_the_doc_id_only(index: int, config: EngineConfig, outside) -> None:
    name = HOSTILE_NAMES[index]
    library = Library(config)
    before_outside = outside()
    entry = library.ingest(pdfs.text_pdf((f"Document number {index}. " + pdfs.BODY,)), name)
    assert library.wait_for_background(60)  # its indexes too, so no temporary file is mid-rename
    assert outside() == before_outside, "something was written outside the library folder"
    folder = library.root / entry.doc_id
    assert (folder / "manifest.json").is_file()
    assert (folder / "original.pdf").is_file()
    for path in library.root.rglob("*"):
        relative = path.relative_to(library.root)
        if path.is_file() and not path.name.endswith(".lock"):
            assert relative.parts[0] == entry.doc_id or relative.parts[0].startswith("."), relative
    stored = entry.file_name
    assert stored, "an empty name must be replaced by a usable one"
    assert "/" not in stored and "\\" not in stored, stored
    assert stored not in (".", ".."), stored
    assert not any(unicodedata.category(ch) in ("Cc", "Cf") for ch in stored), repr(stored)
    assert len(stored.encode()) <= 255, len(stored)
    assert Library(config).get(entry.doc_id).file_name == stored
    assert library.parsed(entry.doc_id).file_name == stored
