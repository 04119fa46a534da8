"""Small PDFs generated with PyMuPDF for tests: ``from tests.pdfs import pdf_with_outline`` etc.

Every function is pure and fast (a few milliseconds) and returns the bytes of a PDF.
Text is written with ``TextWriter`` (embedded Helvetica), so ligature characters survive into the
text layer; bold is Helvetica-Bold.
"""

from __future__ import annotations

import os

os.environ.setdefault("PYMUPDF_SUGGEST_LAYOUT_ANALYZER", "0")

import pymupdf

WIDTH, HEIGHT = 612, 792
LEFT = 72
BODY = 10.0
RUNNING_HEADER = "Loupe Test Report - Confidential Draft"


class _Writer:
    """Writes headings and paragraphs down a page, one text object at a time."""

    def __init__(self, doc: pymupdf.Document, header: str | None = None, footer: bool = False) -> None:
        self.doc = doc
        self.regular = pymupdf.Font("helv")
        self.bold = pymupdf.Font("hebo")
        self.header = header
        self.footer = footer
        self.page: pymupdf.Page | None = None
        self.y = 0.0

    def new_page(self) -> _Writer:
        self.page = self.doc.new_page(width=WIDTH, height=HEIGHT)
        self.y = 90.0
        if self.header:
            self._text(LEFT, 40, self.header, self.regular, 8)
        if self.footer:
            number = self.doc.page_count
            self._text(LEFT, HEIGHT - 30, f"Page {number}", self.regular, 8)
        return self

    def _text(self, x: float, y: float, text: str, font: pymupdf.Font, size: float) -> tuple[float, float]:
        writer = pymupdf.TextWriter(self.page.rect)
        _, last = writer.append((x, y), text, font=font, fontsize=size)
        writer.write_text(self.page)
        return last.x, last.y

    def heading(self, text: str, size: float = 14.0, bold: bool = True) -> _Writer:
        self.y += size * 0.8
        self._text(LEFT, self.y, text, self.bold if bold else self.regular, size)
        self.y += size * 1.6
        return self

    def para(self, *lines: str, bold_lead: str | None = None) -> _Writer:
        for n, line in enumerate(lines):
            x = LEFT
            if n == 0 and bold_lead:
                x, _ = self._text(LEFT, self.y, bold_lead + " ", self.bold, BODY)
            self._text(x, self.y, line, self.regular, BODY)
            self.y += BODY * 1.3
        self.y += BODY * 1.4
        return self

    def at(self, y: float) -> _Writer:
        self.y = y
        return self


def _bytes(doc: pymupdf.Document, **kwargs: object) -> bytes:
    doc.set_metadata({})
    data = doc.tobytes(garbage=3, deflate=True, no_new_id=True, **kwargs)
    doc.close()
    return data


FILLER = (
    "The method is evaluated on several benchmark collections and compared",
    "with strong baselines under the same computational budget and settings.",
)


def pdf_with_outline() -> bytes:
    """Four pages, an outline "1 Introduction" / "2 Methods" / "2.1 Data" / "2.2 Training" / "3 Results".

    Has a running header and a page-number footer on every page, a ligature word ("ﬁrst"), a
    hyphenated line break ("regular-" / "ization") and a bold run-in header ("Residual Dropout").
    """
    doc = pymupdf.open()
    w = _Writer(doc, header=RUNNING_HEADER, footer=True)
    w.new_page().heading("A Study of Structured Documents", size=20)
    w.heading("1 Introduction").para(
        "This is the \ufb01rst paragraph of the introduction and it explains the goal.", *FILLER
    )
    w.para("To avoid overfitting we apply dropout and weight regular-", "ization to all layers of the network.")
    w.new_page().heading("2 Methods").para("This section describes the methods we use in our experiments.", *FILLER)
    w.heading("2.1 Data", size=12).para(
        "We trained on a public dataset of forty thousand annotated documents.", *FILLER
    )
    w.para("We apply dropout to the output of each sub-layer before it is added.", *FILLER,
           bold_lead="Residual Dropout")  # fmt: skip
    w.new_page().heading("2.2 Training", size=12).para(
        "Training ran for three days on eight accelerators with a fixed schedule.", *FILLER
    )
    w.new_page().heading("3 Results").para("The results show a clear improvement over the baselines.", *FILLER)
    doc.set_toc([[1, "1 Introduction", 1], [1, "2 Methods", 2], [2, "2.1 Data", 2], [2, "2.2 Training", 3],
                 [1, "3 Results", 4]])  # fmt: skip
    return _bytes(doc)


def pdf_with_table() -> bytes:
    """Page 1: prose pointing to "Table 3"; page 2: caption "Table 3: ..." above a ruled 4x3 grid."""
    doc = pymupdf.open()
    w = _Writer(doc)
    w.new_page().heading("1 Experiments").para(
        "We compare three methods on the benchmark; the results are in Table 3.", *FILLER
    )
    w.new_page().heading("2 Results").para("The accuracy of each method is reported below.", *FILLER)
    w.para("Table 3: Accuracy of the three methods on the test set.")
    rows = [("Method", "Accuracy", "Latency"), ("Baseline", "71.2", "12 ms"), ("Ours", "78.9", "15 ms"),
            ("Oracle", "83.4", "40 ms")]  # fmt: skip
    top, row_h, col_w = w.y, 22.0, 120.0
    page = w.page
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            x0, y0 = LEFT + c * col_w, top + r * row_h
            page.draw_rect(pymupdf.Rect(x0, y0, x0 + col_w, y0 + row_h), color=(0, 0, 0), width=0.8)
            w._text(x0 + 6, y0 + 15, cell, w.bold if r == 0 else w.regular, BODY)
    w.at(top + len(rows) * row_h + 30).para("The proposed method is the most accurate of the practical ones.")
    return _bytes(doc)


def pdf_heading_at_page_foot(with_outline: bool = False) -> bytes:
    """Section "2 Method" starts at the foot of page 1; its body is at the top of page 2."""
    doc = pymupdf.open()
    w = _Writer(doc)
    w.new_page().heading("1 Introduction").para("The introduction motivates the approach in detail.", *FILLER)
    w.at(HEIGHT - 90).heading("2 Method")
    w.new_page().para("The method body continues here at the top of the next page with details.", *FILLER)
    w.heading("3 Results").para("The results are summarised in this final section.", *FILLER)
    if with_outline:
        doc.set_toc([[1, "1 Introduction", 1], [1, "2 Method", 1], [1, "3 Results", 2]])
    return _bytes(doc)


def pdf_encrypted() -> bytes:
    """A one-page PDF that needs the user password "secret" to open."""
    doc = pymupdf.open()
    _Writer(doc).new_page().para("This document is protected by a password.")
    return _bytes(doc, encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="secret", owner_pw="owner-secret")


def pdf_scanned(pages: int = 2) -> bytes:
    """Pages that carry only an image (no text layer), like a scan without OCR."""
    doc = pymupdf.open()
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 60, 80), False)
    pix.set_rect(pix.irect, (200, 200, 190))
    png = pix.tobytes("png")
    for _ in range(pages):
        page = doc.new_page(width=WIDTH, height=HEIGHT)
        page.insert_image(pymupdf.Rect(36, 36, WIDTH - 36, HEIGHT - 36), stream=png)
    return _bytes(doc)


def pdf_no_outline_headings() -> bytes:
    """Three pages without an outline; headings differ from the body only by font size (not bold)."""
    doc = pymupdf.open()
    w = _Writer(doc)
    w.new_page().heading("Overview", size=16, bold=False).para("The overview introduces the product line.", *FILLER)
    w.heading("Installation", size=16, bold=False).para("Install the package with the usual tools.", *FILLER)
    w.new_page().heading("Configuration", size=16, bold=False).para("Settings live in one file.", *FILLER)
    w.new_page().heading("Troubleshooting", size=16, bold=False).para("Most problems come from paths.", *FILLER)
    return _bytes(doc)


def pdf_listing() -> bytes:
    """A section announcing "three types of regularization", then three bold run-in items."""
    doc = pymupdf.open()
    w = _Writer(doc)
    w.new_page().heading("5 Training").para("We train all models with the same optimiser settings.", *FILLER)
    w.heading("5.4 Regularization", size=12).para("We employ three types of regularization during training:")
    w.para("We apply dropout to the output of each sub-layer, before it is added.", *FILLER,
           bold_lead="Residual Dropout")  # fmt: skip
    w.para("We employed label smoothing of value 0.1 during training.", *FILLER, bold_lead="Label Smoothing")
    w.para("We also apply dropout to the attention weights of every head.", *FILLER, bold_lead="Attention Dropout")
    w.new_page().heading("6 Results").para("The regularised model generalises better.", *FILLER)
    return _bytes(doc)


def pdf_malformed_outline() -> bytes:
    """Three pages whose outline has an entry without a destination and one with an empty title."""
    doc = pymupdf.open()
    w = _Writer(doc)
    for title in ("1 Alpha", "2 Beta", "3 Gamma"):
        w.new_page().heading(title).para(f"The body of section {title} is here.", *FILLER)
    doc.set_toc([[1, "1 Alpha", 1], [1, "2 Beta", 2], [1, "Broken", 3], [1, "3 Gamma", 3]])
    xrefs = [row[3]["xref"] for row in doc.get_toc(simple=False)]
    doc.xref_set_key(xrefs[2], "Title", "()")  # empty title: garbage
    doc.xref_set_key(xrefs[1], "Dest", "null")  # no destination: page -1
    doc.xref_set_key(xrefs[1], "A", "null")
    return _bytes(doc)


def not_a_pdf() -> bytes:
    """Plain text bytes."""
    return b"This is a plain text file, not a PDF.\n" * 20


def truncated_pdf() -> bytes:
    """The first third of a valid PDF (too little for MuPDF to repair)."""
    data = pdf_with_outline()
    return data[: len(data) // 3]
