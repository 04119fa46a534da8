"""Untrusted text is escaped before Markdown rendering: no image the browser would fetch, no emphasis.

An image link in PDF text, an outline title, a file name, a question or a model's answer (after a prompt
injection) made the browser fetch outside URLs, a ready exfiltration channel; "OAS 3.*.*" rendered italic.
Every Markdown-bearing element the app draws is rendered here with a CommonMark parser and checked.
"""

from __future__ import annotations

import re
from pathlib import Path

import pymupdf
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from streamlit.testing.v1 import AppTest

from engine import BackendFallback, Caveat, CaveatKind, Citation, PatternDecision
from tests.app.conftest import APP
from tests.app.factories import run_result

LEAK = "http://127.0.0.1:9/leak.png"
MD = MarkdownIt("commonmark").enable(["table", "strikethrough"])
ALLOWED_TAGS = {"p", "br", "strong", "a", "h3", "h4", "ul", "li", "code", "div"}
"""Tags the app's own markup produces (bold labels, page links to anchors, headings, lists, code, the
evidence anchors' empty divs)."""


def _render(markdown: str) -> str:
    return MD.render(markdown)


def _assert_inert(markdown: str) -> None:
    html = _render(markdown)
    tags = set(re.findall(r"<([a-z0-9]+)", html))
    assert "img" not in tags, f"an image would be fetched: {markdown!r}"
    assert not tags - ALLOWED_TAGS, f"unexpected markup {tags - ALLOWED_TAGS} from {markdown!r}"
    for href in re.findall(r'href="([^"]*)"', html):
        # in-page anchors, and the app's own share link to a run on this server (a run id: letters, digits, -, _)
        own_run_link = re.fullmatch(r"\?run=[A-Za-z0-9][A-Za-z0-9_-]{0,63}", href)
        assert href.startswith("#") or own_run_link, f"a link out of the page: {href} from {markdown!r}"
    assert "<em>" not in html and "<del>" not in html, f"emphasis formed: {markdown!r}"


def _escape(text: str) -> str:
    from engine import escape_markdown

    return escape_markdown(text)


def _text_of(html: str) -> str:
    import html as html_lib

    return html_lib.unescape(re.sub(r"<[^>]+>", "", html.replace("<br />\n", "\n")))


# ------------------------------------------------------------------------------------------------
# The helper
# ------------------------------------------------------------------------------------------------

SPECIALS = "\\`*_[]()<>!&#~$:|-+=.0123456789 \n\tabcwhtp/"


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=SPECIALS, max_size=60))
def test_escaped_text_renders_as_itself_and_nothing_else(text: str) -> None:
    html = _render(_escape(text))
    assert set(re.findall(r"<([a-z0-9]+)", html)) <= {"p", "br"}, (text, html)
    lines = lambda t: [" ".join(line.split()) for line in t.splitlines() if line.strip()]  # noqa: E731 (spaces fold)
    assert lines(_text_of(html)) == lines(text), (text, html)


@pytest.mark.parametrize(
    "hostile",
    [
        f"![pixel]({LEAK})",
        f"<img src={LEAK}>",
        f"<{LEAK}>",
        f"[click](javascript:alert(1)) [ref]: {LEAK}",
        "OAS 3.*.* and _under_ and ~~gone~~",
        "# Heading\n> quote\n1. item\n- item\n===",
    ],
)
def test_hostile_markdown_is_inert(hostile: str) -> None:
    _assert_inert(_escape(hostile))


def test_streamlit_directives_and_autolinks_cannot_form() -> None:
    escaped = _escape(f":red[alert] :material/home: :smile: $x^2$ www.evil.example {LEAK}")
    for syntax in (":red", ":material", ":smile", "$", "www.", "://"):
        assert not re.search(r"(?<!\\)" + re.escape(syntax), escaped), f"{syntax} can still form in {escaped!r}"
    assert (
        _escape("Revenue rose 3.5% in 2021: see Table 3 (p. 12).") == "Revenue rose 3.5% in 2021: see Table 3 (p. 12)."
    )


# ------------------------------------------------------------------------------------------------
# The app
# ------------------------------------------------------------------------------------------------


def _hostile_run():
    base = run_result()
    image = lambda tag: f"![{tag}]({LEAK}?{tag})"  # noqa: E731
    name = f"*draft* {image('file')}.pdf"
    docs = tuple(d.model_copy(update={"file_name": name}) for d in base.docs)
    pages = tuple(p.model_copy(update={"file_name": name}) for p in base.evidence_pages)
    citation = Citation(chunk_id=base.evidence_chunks[1].chunk_id, doc_id=base.evidence_chunks[1].doc_id, page=5,
                        quote=f"_quoted_ {image('quote')}")  # fmt: skip
    answer = base.answer.model_copy(update={
        "text": f"OAS 3.*.* is *final* {image('answer')} <img src={LEAK}> :red[alert] $x^2$\nsecond *line*",
        "citations": (citation,), "caveats": (Caveat(kind=CaveatKind.NOTE, detail=f"*caveat* {image('caveat')}"),),
    })  # fmt: skip
    history = tuple(r.model_copy(update={"narration": f"*narrated* {image('narration')}"}) for r in base.history)
    decisions = {n: PatternDecision(on=d.on, reason=f"*reason* {image('reason')}") for n, d in base.activations}
    return base.model_copy(update={
        "question": f"What does OAS 3.*.* say? {image('question')}", "docs": docs, "evidence_pages": pages,
        "answer": answer, "history": history, "activations": base.activations.model_copy(update=decisions),
        "fallbacks": (BackendFallback(task="answer", reason=f"*endpoint* {image('fallback')}"),),
        "strategy_reason": f"*router* {image('strategy')}",
    })  # fmt: skip


def _markdown_values(at: AppTest) -> list[str]:
    values = [e.value for kind in ("markdown", "caption", "error", "warning", "success", "info", "subheader")
              for e in getattr(at, kind)]  # fmt: skip
    for table in at.table:
        values += [str(cell) for cell in table.value.to_numpy().ravel()]
    return [str(v) for v in values]


@pytest.mark.timeout(180)
@pytest.mark.parametrize("page", [None, "pages/1_Inspect.py"])
def test_a_run_full_of_hostile_text_renders_inert(page: str | None, library_dir: Path) -> None:
    at = AppTest.from_file(APP, default_timeout=60).run()
    hostile = _hostile_run().model_dump_json()
    at.session_state["loupe"]["runs"] = [hostile]  # the Inspect page's runs
    at.session_state["loupe"]["conversation"] = [hostile]  # the Ask page's conversation
    at.run()
    if page:
        at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    values = _markdown_values(at)
    shown = "\n".join(_text_of(_render(v)) for v in values)
    for tag in ("answer", "quote", "caveat", "narration", "reason", "fallback", "strategy"):
        if page and tag in ("answer", "quote", "narration"):
            continue  # the Inspect page shows no answer, and the narration in a data grid (not Markdown)
        assert f"?{tag})" in shown, f"the {tag} text is not shown at all"
    for value in values:
        _assert_inert(value)


@pytest.mark.timeout(180)
def test_a_saved_hostile_run_renders_inert_in_the_history(library_dir: Path) -> None:
    import engine
    from engine.config import EngineConfig, LibraryConfig
    from engine.history.run_store import new_run_id

    saved = _hostile_run().model_copy(update={"run_id": new_run_id()})
    engine.open_run_store(EngineConfig(library=LibraryConfig(path=str(library_dir)))).save(saved)
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.switch_page("pages/6_History.py").run()
    assert not at.exception, [e.value for e in at.exception]
    values = _markdown_values(at)
    shown = "\n".join(_text_of(_render(v)) for v in values)
    assert "?question)" in shown, "the saved run is not shown"
    for value in values:
        _assert_inert(value)


def _outline_pdf() -> bytes:
    doc = pymupdf.open()
    for n in range(3):
        doc.new_page().insert_text((72, 72), f"Chapter {n}: the Heron survey measured turbidity at station {n}.")
    doc.set_toc([[1, f"Intro ![toc]({LEAK}) *slanted*", 1], [1, "OAS 3.*.* versions", 2], [1, "End", 3]])
    return doc.tobytes()


@pytest.mark.timeout(180)
def test_outline_titles_and_file_names_render_inert(library_dir: Path) -> None:
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.file_uploader[0].upload("*draft* [v2](x).pdf", _outline_pdf(), "application/pdf").run()
    assert not at.exception
    at.switch_page("pages/3_Library.py").run()
    chooser = at.selectbox(key="loupe_library_doc")
    chooser.set_value(next(o for o in chooser.options if "draft" in chooser.format_func(o))).run()
    assert not at.exception, [e.value for e in at.exception]
    values = _markdown_values(at)
    assert any("OAS 3.*.* versions" in _text_of(_render(v)) for v in values), "the outline is not shown"
    for value in values:
        _assert_inert(value)
