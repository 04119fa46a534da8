"""The evidence pack of a run, to take away: Markdown (with image files or inline) and PDF.

A pack holds the question (and the user's own words for a follow-up), the answer, the citations with
page numbers, the activation column with reasons, the narration, the stop reason, the budget spent
against its limits, and the cited region of every evidence page as an image. Every piece of text that
came from a document, a person or a model is escaped: Markdown punctuation in the Markdown pack, HTML
in the PDF (which PyMuPDF's ``Story`` lays out from HTML).
"""

from __future__ import annotations

import base64
import html
import io
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pymupdf

from engine.contracts import RunResult
from engine.errors import LoupeError
from engine.present.caveat_text import caveat_texts
from engine.present.names import (
    analyst_activation_rows,
    budget_lines,
    fallback_sentence,
    pass_lines,
    stop_sentence,
    strategy_line,
)
from engine.present.render import escape_inline, escape_markdown, page_marks, render_page

logger = logging.getLogger(__name__)

PdfSource = Callable[[str], bytes]
"""doc_id -> the PDF's bytes (``Library.pdf_bytes``)."""

CROP_DPI = 150
"""Resolution of the cited regions: 10-point text comes out about 21 pixels high."""
PAGE_SIZE = pymupdf.paper_rect("a4")
MARGIN = 48


@dataclass(frozen=True)
class PackImage:
    """The cited region of one evidence page."""

    name: str
    caption: str
    png: bytes


@dataclass(frozen=True)
class EvidencePack:
    """A run laid out for export: the plain facts, already gathered, and the page images."""

    result: RunResult
    images: tuple[PackImage, ...]
    missing: tuple[str, ...] = field(default=())

    # ------------------------------------------------------------------ Markdown

    def markdown(self, image_dir: str | None = "images") -> str:
        """The pack as Markdown; images link to ``image_dir/NAME`` or, with ``image_dir=None``, are inline."""
        r = self.result
        out = [f"# Loupe evidence pack: {escape_inline(r.question)}", ""]
        out += [f"- {escape_inline(k)}: {escape_inline(v)}" for k, v in _facts(r)]
        out += ["", "## Answer", "", escape_markdown(r.answer.text) or "_(empty answer)_", ""]
        if r.answer.citations:
            out += ["## Citations", ""]
            out += [f"{n}. {escape_inline(c)}" for n, c in enumerate(_citations(r), start=1)] + [""]
        out += ["## How Loupe searched", "", "| step | used | what it does |", "|---|---|---|"]
        out += [f"| {row['step']} | {row['used']} | {escape_inline(row['what it does'])} |"
                for row in analyst_activation_rows(r)]  # fmt: skip
        out += ["", "## What each pass did", ""]
        out += [f"- {escape_inline(line)}" for line in pass_lines(r)] or ["_No pass was recorded._"]
        out += ["", "## Why it stopped", "", f"- {escape_inline(_stop(r))}"]
        out += [f"- Note: {escape_inline(c)}" for c in caveat_texts(r.answer.caveats)]
        out += [f"- {escape_inline(fallback_sentence(f))}" for f in r.fallbacks]
        out += ["", "## Allowance used", "", "| allowance | used | allowed |", "|---|---|---|"]
        out += [f"| {label} | {spent:g} | {limit:g} |" for label, spent, limit in budget_lines(r)]
        out += ["", "## Evidence pages", ""]
        for image in self.images:
            target = (
                f"data:image/png;base64,{base64.b64encode(image.png).decode()}"
                if image_dir is None
                else f"{image_dir}/{image.name}"
            )
            out += [f"**{escape_inline(image.caption)}**", "", f"![{escape_inline(image.caption)}]({target})", ""]
        out += [f"- {escape_inline(m)}" for m in self.missing]
        out += ["", DETAILS_HEADING, "", *(f"- {escape_inline(k)}: {escape_inline(v)}" for k, v in _engineering(r))]
        out += ["", "| pattern | on | reason |", "|---|---|---|"]
        out += [
            f"| {name} | {'ON' if d.on else 'off'} | {escape_inline(d.reason)} |" for name, d in r.activations.items()
        ]
        out += ["", *(f"- {escape_inline(line)}" for line in _narration(r))]
        return "\n".join(out).rstrip() + "\n"

    def write_markdown(self, out: Path) -> list[Path]:
        """Write ``out`` (Markdown) and its images in ``<out stem>-images/``; returns every file written."""
        folder = out.with_name(f"{out.stem}-images")
        written = [out]
        if self.images:
            folder.mkdir(parents=True, exist_ok=True)
            for image in self.images:
                (folder / image.name).write_bytes(image.png)
                written.append(folder / image.name)
        out.write_text(self.markdown(folder.name), encoding="utf-8")
        return written

    # ------------------------------------------------------------------ PDF

    def html(self) -> str:
        """The pack as the HTML that the PDF is laid out from (every text escaped)."""
        r, e = self.result, html.escape
        parts = [f"<h1>Loupe evidence pack</h1><h2>{e(r.question)}</h2><ul>"]
        parts += [f"<li><b>{e(k)}:</b> {e(v)}</li>" for k, v in _facts(r)] + ["</ul><h2>Answer</h2>"]
        parts += [f"<p>{e(line)}</p>" for line in r.answer.text.splitlines() if line.strip()] or ["<p>(empty)</p>"]
        if r.answer.citations:
            parts += ["<h2>Citations</h2><ol>"] + [f"<li>{e(c)}</li>" for c in _citations(r)] + ["</ol>"]
        parts += ["<h2>How Loupe searched</h2><table><tr><th>step</th><th>used</th><th>what it does</th></tr>"]
        parts += [f"<tr><td>{e(row['step'])}</td><td>{row['used']}</td><td>{e(row['what it does'])}</td></tr>"
                  for row in analyst_activation_rows(r)] + ["</table><h2>What each pass did</h2><ul>"]  # fmt: skip
        parts += [f"<li>{e(line)}</li>" for line in pass_lines(r)] + ["</ul><h2>Why it stopped</h2><ul>"]
        parts += [f"<li>{e(_stop(r))}</li>"] + [f"<li>Note: {e(c)}</li>" for c in caveat_texts(r.answer.caveats)]
        parts += [f"<li>{e(fallback_sentence(f))}</li>" for f in r.fallbacks]
        parts += ["</ul><h2>Allowance used</h2><table><tr><th>allowance</th><th>used</th><th>allowed</th></tr>"]
        parts += [
            f"<tr><td>{e(label)}</td><td>{spent:g}</td><td>{limit:g}</td></tr>"
            for label, spent, limit in budget_lines(r)
        ]
        parts += ["</table><h2>Evidence pages</h2>"]
        for image in self.images:
            parts += [f'<p><b>{e(image.caption)}</b></p><p><img src="{image.name}" width="100%"/></p>']
        parts += [f"<p>{e(m)}</p>" for m in self.missing]
        parts += [f"<h2>{e(DETAILS_HEADING[3:])}</h2><ul>"] + [f"<li>{e(k)}: {e(v)}</li>" for k, v in _engineering(r)]
        parts += ["</ul><table><tr><th>pattern</th><th>on</th><th>reason</th></tr>"]
        parts += [f"<tr><td>{e(name)}</td><td>{'ON' if d.on else 'off'}</td><td>{e(d.reason)}</td></tr>"
                  for name, d in r.activations.items()] + ["</table><ul>"]  # fmt: skip
        parts += [f"<li>{e(line)}</li>" for line in _narration(r)] + ["</ul>"]
        return "".join(parts)

    def pdf(self) -> bytes:
        """The pack as a PDF (A4), laid out by PyMuPDF's Story from ``html()``."""
        archive = pymupdf.Archive()
        for image in self.images:
            archive.add((image.png, image.name))
        story = pymupdf.Story(html=self.html(), user_css=_CSS, archive=archive)
        sink = io.BytesIO()
        writer = pymupdf.DocumentWriter(sink)
        where = pymupdf.Rect(PAGE_SIZE.x0 + MARGIN, PAGE_SIZE.y0 + MARGIN, PAGE_SIZE.x1 - MARGIN, PAGE_SIZE.y1 - MARGIN)
        more = True
        while more:
            device = writer.begin_page(PAGE_SIZE)
            more, _ = story.place(where)
            story.draw(device)
            writer.end_page()
        writer.close()
        return sink.getvalue()


_CSS = """
body { font-family: sans-serif; font-size: 10pt; }
h1 { font-size: 16pt; } h2 { font-size: 12pt; margin-top: 10pt; }
table { border-collapse: collapse; } td, th { border: 0.5pt solid #999; padding: 2pt; font-size: 8.5pt; }
"""


_PASS_PREFIX = re.compile(r"^Pass \d+:\s*")
DETAILS_HEADING = "## Details for engineers"
"""The pack's last section: the engine's own names and records (what comes before it is for analysts)."""


def _facts(r: RunResult) -> list[tuple[str, str]]:
    facts = [("asked on", r.created_at[:16].replace("T", " ") + " UTC" if r.created_at else "unknown")]
    if r.asked and r.asked != r.question:
        facts.append(("asked as", r.asked))
        facts.append(("understood as", r.question))
    facts.append(("documents", ", ".join(d.file_name for d in r.docs)))
    facts.append(("approach", strategy_line(r).removeprefix("Approach: ")))
    facts.append(("confidence", f"{r.answer.confidence:.0%}"))
    return facts


def _engineering(r: RunResult) -> list[tuple[str, str]]:
    facts = [("run", r.run_id or "(not saved)"), ("created_at", r.created_at or "unknown")]
    if r.follow_up_of:
        facts.append(("follow_up_of", r.follow_up_of))
    facts.append(("strategy", f"{r.strategy_effective} (asked {r.strategy_requested}; {r.strategy_reason})"))
    facts.append(("backend", r.backend))
    facts.append(("stop_reason", r.stop_reason + (" (exhausted)" if r.exhausted else "")))
    facts += [(f"fallback {f.task}", f.reason) for f in r.fallbacks]
    return facts


def _citations(r: RunResult) -> list[str]:
    names = {d.doc_id: d.file_name for d in r.docs}
    rows = []
    for c in r.answer.citations:
        role = " (supporting passage)" if c.role == "support" else ""
        rows.append(f"{names.get(c.doc_id, c.doc_id[:12] or 'document')}, page {c.page}{role}: “{c.quote}”")
    return rows


def _narration(r: RunResult) -> list[str]:
    """The engine's narration, one line per pass (its own "Pass N:" prefix dropped: the line starts with it)."""
    return [f"{h.iteration} · {h.trigger} → {h.action_taken}: {_PASS_PREFIX.sub('', h.narration)}" for h in r.history]


def _stop(r: RunResult) -> str:
    text = stop_sentence(r)
    return text + (" An allowance ran out; the best answer so far is given." if r.exhausted else "")


def budget_rows(r: RunResult) -> list[tuple[str, float, float]]:
    """(label, spent, limit) for every allowance of a run, in plain words."""
    return budget_lines(r)


def build_pack(result: RunResult, pdf_source: PdfSource, dpi: int = CROP_DPI) -> EvidencePack:
    """Gather a run's pack: the cited region of each evidence page rendered with its highlights.

    A page whose document is no longer in the library (or cannot be rendered) is listed as missing.
    """
    images, missing = [], []
    for n, ref in enumerate(result.evidence_pages, start=1):
        caption = f"{ref.file_name}, page {ref.page}"
        try:
            png = render_page(pdf_source(ref.doc_id), ref.page, dpi=dpi, marks=page_marks(result, ref.doc_id, ref.page),
                              crop=True)  # fmt: skip
        except LoupeError as error:
            missing.append(f"{caption}: image unavailable ({error})")
            continue
        images.append(PackImage(name=f"evidence-{n:02d}-p{ref.page}.png", caption=caption, png=png))
    return EvidencePack(result=result, images=tuple(images), missing=tuple(missing))


def export_run(result: RunResult, pdf_source: PdfSource, fmt: str, out: Path) -> list[Path]:
    """Write a run's pack as ``md`` (plus an images folder) or ``pdf``; returns the files written."""
    if fmt not in ("md", "pdf"):
        raise LoupeError(f"unknown export format {fmt!r}; choose md or pdf")
    pack = build_pack(result, pdf_source)
    out.parent.mkdir(parents=True, exist_ok=True)
    if fmt == "pdf":
        out.write_bytes(pack.pdf())
        return [out]
    return pack.write_markdown(out)
