"""Hand-built ParsedDocuments for retrieval tests (fast and precise; no PDF parsing)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.contracts import Chunk, ChunkKind, PageText, ParsedDocument, TocEntry

DOC_ID = "ab" * 32


def chunk(
    page: int,
    index: int,
    text: str,
    *,
    kind: ChunkKind = "text",
    section: Sequence[str] = (),
    bold: Sequence[str] = (),
    doc_id: str = DOC_ID,
) -> Chunk:
    return Chunk(
        chunk_id=f"{doc_id[:16]}:p{page}:b{index}",
        doc_id=doc_id,
        page=page,
        index=index,
        text=text,
        bboxes=((0.0, 0.0, 100.0, 10.0),),
        section_path=tuple(section),
        kind=kind,
        bold_terms=tuple(bold),
    )


def document(
    page_texts: Sequence[Sequence[str | tuple]],
    toc: Sequence[TocEntry] = (),
    *,
    doc_id: str = DOC_ID,
    parse_method: str = "layer1",
) -> ParsedDocument:
    """``page_texts[i]`` holds page i+1's chunks: a string, or (text, kind, bold_terms[, section])."""
    chunks: list[Chunk] = []
    pages: list[PageText] = []
    for p, items in enumerate(page_texts, start=1):
        for i, item in enumerate(items):
            if isinstance(item, str):
                chunks.append(chunk(p, i, item, doc_id=doc_id))
            else:
                text, kind, bold, *rest = item
                chunks.append(chunk(p, i, text, kind=kind, bold=bold, section=rest[0] if rest else (), doc_id=doc_id))
        pages.append(PageText(page=p, text="\n".join(c.text for c in chunks if c.page == p), width=612, height=792))
    return ParsedDocument(
        doc_id=doc_id,
        file_name="test.pdf",
        total_pages=len(page_texts),
        pages=tuple(pages),
        chunks=tuple(chunks),
        toc=tuple(toc),
        toc_source="outline" if toc else "none",
        parse_method=parse_method,
    )  # type: ignore[arg-type]


def toc_entry(level: int, title: str, start: int, end: int, number: str | None = None) -> TocEntry:
    return TocEntry(level=level, title=title, number=number, start_page=start, end_page=end)


def paper() -> ParsedDocument:
    """A small Transformer-like paper: sections, a regularization enumeration, tables and references."""
    pages = [
        [
            ("1 Introduction", "heading", ()),
            "Recurrent neural networks have been the state of the art in sequence modeling and translation.",
            "We compare our results in Table 3 and describe the setup in Section 5.4 below.",
        ],
        [
            ("5 Training", "heading", ()),
            "This section describes the training regime for our models on the WMT 2014 dataset.",
            ("5.4 Regularization", "heading", ()),
            "We employ three types of regularization during training:",
        ],
        [
            (
                "Residual Dropout We apply dropout to the output of each sub-layer before it is added.",
                "text",
                ("Residual Dropout",),
            ),
            (
                "Label Smoothing During training, we employed label smoothing of value 0.1. This hurts perplexity.",
                "text",
                ("Label Smoothing",),
            ),
            ("6 Results", "heading", ()),
            ("Table 2: The Transformer achieves better BLEU scores than previous models.", "caption", ()),
        ],
        [
            ("6.2 Model Variations", "heading", ()),
            "To evaluate the importance of components we varied the base model, see Table 3 for the numbers.",
            ("Table 3: Variations on the Transformer architecture. Unlisted values are identical.", "caption", ()),
            ("N | d_model | BLEU\n6 | 512 | 25.8", "table", ()),
        ],
        [
            ("Appendix B Attention Visualizations", "heading", ()),
            "Many of the attention heads exhibit behaviour related to the structure of the sentence.",
        ],
    ]
    toc = [
        toc_entry(1, "Introduction", 1, 1, "1"),
        toc_entry(1, "Training", 2, 3, "5"),
        toc_entry(2, "Regularization", 2, 3, "5.4"),
        toc_entry(1, "Results", 3, 4, "6"),
        toc_entry(2, "Model Variations", 4, 4, "6.2"),
        toc_entry(1, "Appendix B Attention Visualizations", 5, 5, "B"),
    ]
    return document(pages, toc)
