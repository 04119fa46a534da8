"""The compact parsed.json: a round trip keeps everything the engine reads, in a third of the size."""

from __future__ import annotations

import pytest

from engine.config import EngineConfig
from engine.documents.parsed_codec import decode, encode
from engine.documents.parsing import parse_pdf
from tests import pdfs


@pytest.fixture(scope="module")
def doc():
    return parse_pdf(pdfs.pdf_with_outline(), "outline.pdf", EngineConfig())


def test_round_trip_keeps_chunks_pages_and_outline(doc):
    back = decode(encode(doc))
    assert [c.model_copy(update={"bboxes": ()}) for c in back.chunks] == [
        c.model_copy(update={"bboxes": ()}) for c in doc.chunks
    ]
    assert all(
        abs(a - b) <= 0.005
        for x, y in zip(back.chunks, doc.chunks, strict=True)
        for p, q in zip(x.bboxes, y.bboxes, strict=True)
        for a, b in zip(p, q, strict=True)
    )
    assert [p.text for p in back.pages] == [p.text for p in doc.pages]
    assert back.toc == doc.toc and back.toc_source == doc.toc_source
    assert back.parser_version == doc.parser_version and back.doc_id == doc.doc_id
    assert decode(encode(back)) == back


def test_it_is_much_smaller_than_the_model_dump(doc):
    assert len(encode(doc)) * 2 < len(doc.model_dump_json())


def test_other_ids_and_ocr_pages_survive(doc):
    changed = doc.model_copy(
        update={"chunks": (doc.chunks[0].model_copy(update={"chunk_id": "custom"}), *doc.chunks[1:]), "ocr_pages": (2,)}
    )
    back = decode(encode(changed))
    assert back.chunks[0].chunk_id == "custom" and back.ocr_pages == (2,)


@pytest.mark.parametrize("damage", ["older", "flip", "cut", "empty"])
def test_older_or_damaged_files_are_refused(doc, damage):
    data = encode(doc)
    if damage == "older":
        data = doc.model_dump_json().encode()
    elif damage == "flip":
        data = data[:-50] + bytes([data[-50] ^ 0x20]) + data[-49:]
    elif damage == "cut":
        data = data[: len(data) // 2]
    else:
        data = b""
    with pytest.raises(ValueError):
        decode(data)


def test_orjson_writes_the_text_the_standard_library_writes(doc, monkeypatch):
    """Where orjson is installed it writes the file (a fifth of the time): the same bytes as ``json.dumps``, for
    text with quotes, backslashes, control characters and other scripts too."""
    from engine.documents import parsed_codec

    pytest.importorskip("orjson")
    chunk = doc.chunks[0].model_copy(update={"text": 'a "quoted" \\ back\tslash\x01 — Ünïcode 日本 \U0001f600'})
    tricky = doc.model_copy(update={"chunks": (chunk, *doc.chunks[1:]), "repeated_lines": ("x\ny", "z\x7f")})
    fast = encode(tricky)
    monkeypatch.setattr(parsed_codec, "_orjson", None)
    assert fast == encode(tricky)
    assert decode(fast) == decode(encode(tricky))


def test_a_box_that_is_not_a_number_is_written_as_the_standard_library_writes_it(doc):
    """orjson would write ``null`` for NaN: such a body is written by ``json`` (``NaN``) and read back alike."""
    chunk = doc.chunks[0].model_copy(update={"bboxes": ((float("nan"), 1.0, 2.0, 3.0),)})
    back = decode(encode(doc.model_copy(update={"chunks": (chunk, *doc.chunks[1:])})))
    box = back.chunks[0].bboxes[0]
    assert box[0] != box[0] and box[1:] == (1.0, 2.0, 3.0)
