"""The compact on-disk form of a ``ParsedDocument`` (a library entry's ``parsed.json``).

One header line ``{"format": 3, "sha1": ...}`` then one JSON body, about a third of the size of
``model_dump_json``: chunk rows instead of objects, the doc_id and section paths written once,
boxes rounded to 0.01 pt, and no page text (a page's text is its chunks' texts joined by newlines,
exactly as the parser makes it). The body's sha1 guards against damage, so decoding can build the
models without validating every field again. Anything else (an older layout, a damaged file)
raises ``ValueError``: the caller re-parses the PDF.
"""

from __future__ import annotations

import hashlib
import json
import math
from types import ModuleType
from typing import Any, get_args

from engine.contracts import Chunk, ChunkKind, PageText, ParsedDocument, TocEntry

_orjson: ModuleType | None
try:
    import orjson as _orjson
except ImportError:  # optional: the standard library's json writes the same text, slower
    _orjson = None

PARSED_FORMAT = 3
"""Version of this layout (the older pydantic JSON dump had no header and counts as format 2)."""

_KINDS: tuple[str, ...] = get_args(ChunkKind)


def chunk_id_of(doc_id: str, page: int, index: int) -> str:
    """The stable id of a chunk: ``{doc_id[:16]}:p{page}:b{index}``."""
    return f"{doc_id[:16]}:p{page}:b{index}"


def encode(doc: ParsedDocument) -> bytes:
    """``doc`` in the compact layout (a layer-1 parse; re-parsed variants are never stored)."""
    sections: dict[tuple[str, ...], int] = {}
    rows: list[list[Any]] = []
    all_boxes, finite = _rounded_boxes(doc)
    for chunk, boxes in zip(doc.chunks, all_boxes, strict=True):
        section = sections.setdefault(chunk.section_path, len(sections))
        row: list[Any] = [chunk.page, chunk.index, chunk.text, _KINDS.index(chunk.kind), section, boxes]
        if chunk.bold_terms:
            row.append(list(chunk.bold_terms))
        if chunk.chunk_id != chunk_id_of(doc.doc_id, chunk.page, chunk.index):
            if len(row) == 6:
                row.append([])
            row.append(chunk.chunk_id)
        rows.append(row)
    sizes = [[round(p.width, 2), round(p.height, 2)] for p in doc.pages]
    body = {
        "doc_id": doc.doc_id,
        "file_name": doc.file_name,
        "total_pages": doc.total_pages,
        "parser_version": doc.parser_version,
        "sizes": sizes,
        "toc": [[e.level, e.title, e.number, e.start_page, e.end_page] for e in doc.toc],
        "toc_source": doc.toc_source,
        "repeated_lines": list(doc.repeated_lines),
        "ocr_pages": list(doc.ocr_pages),
        "sections": [list(path) for path in sections],
        "chunks": rows,
    }
    data = _dumps(body, finite and all(math.isfinite(v) for size in sizes for v in size))
    header = json.dumps({"format": PARSED_FORMAT, "sha1": hashlib.sha1(data).hexdigest()})
    return header.encode() + b"\n" + data


def _dumps(body: dict[str, Any], finite: bool) -> bytes:
    """``body`` as compact UTF-8 JSON: by orjson where it is installed (the same text as the standard library's
    ``json.dumps(ensure_ascii=False)`` in a fifth of the time), except for a body holding a number that is not
    finite (orjson writes ``null`` for it where ``json`` writes ``NaN``)."""
    if _orjson is not None and finite:
        return bytes(_orjson.dumps(body))
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _loads(body: bytes) -> Any:
    """The JSON ``body`` (orjson where installed; the standard library for a file it refuses, one holding ``NaN``)."""
    if _orjson is not None:
        try:
            return _orjson.loads(body)
        except ValueError:
            pass
    return json.loads(body)


def _rounded_boxes(doc: ParsedDocument) -> tuple[list[list[float]], bool]:
    """Every chunk's boxes as one flat list of values rounded to 0.01 pt (numpy does the rounding; imported here:
    decoding, in the process that ingests, needs none), and whether every value is finite."""
    import numpy as np

    flat = np.round(np.asarray([v for chunk in doc.chunks for box in chunk.bboxes for v in box], dtype=np.float64), 2)
    values = flat.tolist()
    out, start = [], 0
    for chunk in doc.chunks:
        end = start + 4 * len(chunk.bboxes)
        out.append(values[start:end])
        start = end
    return out, bool(np.isfinite(flat).all())


def decode(data: bytes) -> ParsedDocument:
    """The document written by :func:`encode`; ``ValueError`` for another layout or a damaged file."""
    head, newline, body = data.partition(b"\n")
    try:
        header = json.loads(head)
    except ValueError as exc:
        raise ValueError(f"no parsed-document header ({exc})") from exc
    if not newline or not isinstance(header, dict) or header.get("format") != PARSED_FORMAT:
        raise ValueError("the parsed document has an older layout")
    if header.get("sha1") != hashlib.sha1(body).hexdigest():
        raise ValueError("the parsed document is damaged (checksum mismatch)")
    try:
        return _build(_loads(body))
    except (KeyError, IndexError, TypeError, ValueError) as exc:
        raise ValueError(f"the parsed document is malformed ({exc})") from exc


_set = object.__setattr__
_CHUNK_FIELDS = frozenset(Chunk.model_fields)


def _direct_chunk(values: dict[str, Any]) -> Chunk:
    """A Chunk from checked values, the way ``model_construct`` makes it but about 3x faster."""
    chunk = Chunk.__new__(Chunk)
    _set(chunk, "__dict__", values)
    _set(chunk, "__pydantic_fields_set__", set(_CHUNK_FIELDS))
    _set(chunk, "__pydantic_extra__", None)
    _set(chunk, "__pydantic_private__", None)
    return chunk


def _pick_chunk_maker() -> Any:
    """The direct maker when it gives what ``model_construct`` gives on this pydantic, else model_construct."""
    sample: dict[str, Any] = {"chunk_id": "a:p1:b0", "doc_id": "a", "page": 1, "index": 0, "text": "t", "bboxes": ((0.0, 1.0, 2.0, 3.0),),
              "section_path": ("s",), "kind": "text", "bold_terms": ()}  # fmt: skip
    try:
        direct = _direct_chunk(dict(sample))
        if direct == Chunk.model_construct(**sample) and direct.model_dump() == Chunk(**sample).model_dump():
            return _direct_chunk
    except (AttributeError, TypeError):
        pass
    return lambda values: Chunk.model_construct(**values)


make_chunk = _pick_chunk_maker()
"""Build a Chunk from values already of the contract's types (the parser's own, or a checked file's)."""


def _build(body: dict[str, Any]) -> ParsedDocument:
    doc_id: str = body["doc_id"]
    sections = [tuple(path) for path in body["sections"]]
    chunks: list[Chunk] = []
    texts: dict[int, list[str]] = {}
    for row in body["chunks"]:
        page, index, text, kind, section, flat = row[:6]
        bold = tuple(row[6]) if len(row) > 6 else ()
        chunk_id = row[7] if len(row) > 7 else chunk_id_of(doc_id, page, index)
        boxes = tuple(tuple(flat[i : i + 4]) for i in range(0, len(flat), 4))
        values = {
            "chunk_id": chunk_id, "doc_id": doc_id, "page": page, "index": index, "text": text, "bboxes": boxes,
            "section_path": sections[section], "kind": _KINDS[kind], "bold_terms": bold,
        }  # fmt: skip
        chunks.append(make_chunk(values))
        texts.setdefault(page, []).append(text)
    pages = tuple(
        PageText.model_construct(page=n, text="\n".join(texts.get(n, ())), width=w, height=h)
        for n, (w, h) in enumerate(body["sizes"], start=1)
    )
    toc = tuple(
        TocEntry.model_construct(level=lv, title=title, number=num, start_page=start, end_page=end)
        for lv, title, num, start, end in body["toc"]
    )
    return ParsedDocument.model_construct(
        doc_id=doc_id, file_name=body["file_name"], total_pages=body["total_pages"], pages=pages,
        chunks=tuple(chunks), toc=toc, toc_source=body["toc_source"],
        repeated_lines=tuple(body["repeated_lines"]), parse_method="layer1", parser_version=body["parser_version"],
        ocr_pages=tuple(body["ocr_pages"]),
    )  # fmt: skip
