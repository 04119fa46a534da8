"""Structural guards run before MuPDF interprets a page, so common PDF bombs are refused in milliseconds.

A page's cost is the decoded size of its content streams plus, for every Form XObject it draws,
that form's cost times the number of times it is drawn (recursively: forms that draw forms).
Flate streams are inflated incrementally and never past the limit, so a bomb costs at most the
limit in memory. What these guards do not model (Type3 glyph procedures, tiling patterns, exotic
filters) is bounded by the worker process that reads the PDF (:mod:`engine.library.isolation`).
"""

from __future__ import annotations

import re
import zlib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pymupdf

from engine.config import LibraryConfig
from engine.errors import DocumentNotFoundError, DocumentTooLargeError

MAX_FORM_DRAWS = 10_000
"""Form XObjects one page may draw, nested draws counted in full. Real pages draw a few hundred at
most; 10**4 nested draws already cost MuPDF ~0.5 s and ~85 MB, and each further level ten times that."""

_MAX_FLATE_RATIO = 1032
"""Deflate cannot expand data more than ~1032 times: a shorter stream cannot pass the limit."""
_SMALL_OTHER_FILTER = 1 << 20
"""Streams with a filter other than a single FlateDecode are decoded by MuPDF only below this raw size."""
_PIECE = 1 << 20
_DO = re.compile(rb"/([^\s/\[\]()<>{}%]+)\s*Do\b")
_REF = re.compile(rb"/([^\s/\[\]()<>{}%]+)\s*(\d+)\s+\d+\s+R")
_TAIL = 256  # bytes kept between pieces so an operator split across two pieces is still seen


@dataclass
class _Cost:
    size: int = 0
    draws: int = 0


FormMemo = dict[int, _Cost]
"""Costs of forms already measured in this document (a form shared by many pages is decoded once)."""


def _raw_length(pdf: pymupdf.Document, xref: int) -> int | None:
    """The stream's stored /Length (an indirect one resolved), or None when it is not a number."""
    kind, value = pdf.xref_get_key(xref, "Length")
    if kind == "xref":
        value = pdf.xref_object(int(value.split()[0]), compressed=True).strip()
    elif kind != "int":
        return None
    return int(value) if value.isdigit() else None


def _pieces(pdf: pymupdf.Document, xref: int, limit: int) -> Iterator[bytes]:
    """The decoded stream of ``xref`` in pieces, stopping once more than ``limit`` bytes came out."""
    filters = pdf.xref_get_key(xref, "Filter")[1]
    if filters in ("null", ""):
        yield pdf.xref_stream_raw(xref) or b""
        return
    if filters != "/FlateDecode":
        length = _raw_length(pdf, xref)
        if length is not None and length <= _SMALL_OTHER_FILTER:
            yield pdf.xref_stream(xref) or b""
        else:  # not modelled: count the raw bytes; the worker's bounds cover the rest
            yield pdf.xref_stream_raw(xref) or b""
        return
    inflater = zlib.decompressobj()
    pending = pdf.xref_stream_raw(xref) or b""
    total = 0
    while pending and total <= limit:
        try:
            out = inflater.decompress(pending, _PIECE)
        except zlib.error:
            return  # damaged data: MuPDF stops there too
        if not out:
            return
        total += len(out)
        pending = inflater.unconsumed_tail
        yield out


def _xobject_forms(pdf: pymupdf.Document, owner: int, memo_kinds: dict[int, bool]) -> dict[bytes, int]:
    """Names of the Form XObjects in ``owner``'s own resources -> their xrefs."""
    kind, value = pdf.xref_get_key(owner, "Resources/XObject")
    if kind == "xref":
        value = pdf.xref_object(int(value.split()[0]), compressed=True)
    elif kind != "dict":
        return {}
    forms: dict[bytes, int] = {}
    for name, number in _REF.findall(value.encode("latin-1", "replace")):
        xref = int(number)
        is_form = memo_kinds.get(xref)
        if is_form is None:
            is_form = memo_kinds[xref] = pdf.xref_get_key(xref, "Subtype")[1] == "/Form"
        if is_form:
            forms[name] = xref
    return forms


class _Walker:
    """Measures one page: decoded bytes and nested form draws, stopping as soon as a limit is passed."""

    def __init__(self, pdf: pymupdf.Document, limit: int, memo: FormMemo) -> None:
        self.pdf, self.limit, self.memo = pdf, limit, memo
        self.kinds: dict[int, bool] = {}

    def stream(self, xref: int, forms: dict[bytes, int], stack: tuple[int, ...]) -> _Cost:
        cost = _Cost()
        calls: Counter[bytes] = Counter()
        tail = b""
        for piece in _pieces(self.pdf, xref, self.limit):
            cost.size += len(piece)
            if forms:
                window = tail + piece
                calls.update(name for name in _DO.findall(window) if name in forms)
                tail = window[-_TAIL:]
                calls.subtract(name for name in _DO.findall(tail) if name in forms)  # seen again next time
            if cost.size > self.limit:
                return cost
        calls.update(name for name in _DO.findall(tail) if name in forms)
        for name, count in calls.items():
            if count <= 0:
                continue
            child = self.form(forms[name], forms, stack)
            cost.size += count * child.size
            cost.draws += count * (1 + child.draws)
            if cost.size > self.limit or cost.draws > MAX_FORM_DRAWS:
                break
        return cost

    def form(self, xref: int, inherited: dict[bytes, int], stack: tuple[int, ...]) -> _Cost:
        if xref in stack:
            return _Cost()  # a form drawing itself: MuPDF stops the cycle
        known = self.memo.get(xref)
        if known is None:
            own = _xobject_forms(self.pdf, xref, self.kinds)
            has_resources = self.pdf.xref_get_key(xref, "Resources")[0] != "null"
            known = self.stream(xref, own if has_resources else inherited, (*stack, xref))
            self.memo[xref] = known
        return known


def page_forms(pdf: pymupdf.Document, page: pymupdf.Page) -> dict[bytes, int]:
    """The Form XObjects a page's resources name (inherited resources resolved by MuPDF)."""
    if pdf.xref_get_key(page.xref, "Resources")[0] != "null":
        kind = pdf.xref_get_key(page.xref, "Resources/XObject")[0]
        if kind == "null":
            return {}
        return _xobject_forms(pdf, page.xref, {})
    return {name.encode("latin-1", "replace"): xref for xref, name, invoker, _ in page.get_xobjects() if invoker == 0}


def check_page_content(
    pdf: pymupdf.Document, page: pymupdf.Page, limits: LibraryConfig, memo: FormMemo | None = None
) -> None:
    """Refuse a page whose drawing instructions, forms expanded, pass ``limits.max_page_content_mb``
    or that draws more than ``MAX_FORM_DRAWS`` forms.

    Raises:
        DocumentTooLargeError: the page is a decompression or nesting bomb (or absurdly heavy).
    """
    limit = int(limits.max_page_content_mb * 1024 * 1024)
    forms = page_forms(pdf, page)
    walker = _Walker(pdf, limit, memo if memo is not None else {})
    total = _Cost()
    for xref in page.get_contents():
        if not forms:
            length = len(pdf.xref_stream_raw(xref) or b"")  # the bytes MuPDF reads, whatever /Length says
            if length * _MAX_FLATE_RATIO <= limit - total.size:
                total.size += length * _MAX_FLATE_RATIO  # its largest possible decoded size
                continue
        cost = walker.stream(xref, forms, ())
        total.size += cost.size
        total.draws += cost.draws
        if total.size > limit or total.draws > MAX_FORM_DRAWS:
            break
    where = f"page {page.number + 1}"
    if total.draws > MAX_FORM_DRAWS:
        raise DocumentTooLargeError(
            f"{where} draws more than {MAX_FORM_DRAWS} nested forms (a damaged or hostile PDF); "
            "export the document again or split that page out"
        )
    if total.size > limit:
        raise DocumentTooLargeError(
            f"{where} holds more than {limits.max_page_content_mb:g} MB of drawing instructions "
            "(a damaged or hostile PDF); export the document again or split that page out"
        )


def read_pdf_file(path: str | Path) -> tuple[bytes, str]:
    """The bytes and file name of a PDF on disk; ``DocumentNotFoundError`` with what to do otherwise."""
    path = Path(path)
    try:
        return path.read_bytes(), path.name
    except FileNotFoundError:
        raise DocumentNotFoundError(f"no file at {path}; check the path and try again") from None
    except IsADirectoryError:
        raise DocumentNotFoundError(f"{path} is a folder; give the path of a PDF file") from None
