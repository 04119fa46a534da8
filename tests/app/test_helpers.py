"""The app's pure helpers: table rows, narration lines, captions and plotly figures of a run."""

from __future__ import annotations

import re

import engine
from engine import BudgetOverride, RunResult
from tests.app.factories import run_result
from ui import charts
from ui.compare import compare_rows
from ui.evidence import page_caption
from ui.inspect import iteration_rows
from ui.library import outline_markdown
from ui.settings import build_config, default_budget
from ui.views import activation_rows, budget_caption, citation_lines, narration_lines


def plain(markdown: str) -> str:
    """Escaped Markdown as the reader sees it (backslash escapes removed)."""
    return re.sub(r"\\(.)", r"\1", markdown)


def test_activation_rows_cover_all_seven_patterns() -> None:
    rows = activation_rows(run_result())
    assert len(rows) == 7
    on = [r["pattern"] for r in rows if r["on"] == "ON"]
    assert on == ["keyword_retrieval", "two_hop_references"]  # the engine's names, for the details
    assert all(r["reason"].startswith("rule ") for r in rows)
    plain_rows = engine.analyst_activation_rows(run_result())
    assert [r["step"] for r in plain_rows if r["used"] == "yes"] == ["Keyword search", "Following references"]


def test_narration_one_line_per_pass() -> None:
    lines = narration_lines(run_result())
    assert len(lines) == 2
    assert lines[1].startswith("**1** · `pending_references` → `two_hop`: followed Table 3")
    plain_lines = engine.pass_lines(run_result())
    assert plain_lines[0].startswith("First reading: Loupe searched the documents")
    assert plain_lines[1].startswith("Follow-up pass 1: The answer pointed to another part of the document, so ")
    assert "Pass 1" not in plain_lines[1] and "page 5" in plain_lines[1] and "confidence 80%" in plain_lines[1]


def test_budget_caption_and_usage_chart() -> None:
    result = run_result(iterations=0)
    assert "follow-up passes 1 of 0 ·" in budget_caption(result)
    cached = result.model_copy(update={"usage": result.usage.model_copy(update={"cached_retrievals": 5})})
    assert "5 more answered from earlier searches" in budget_caption(cached), "cache hits are shown, not hidden"
    figure = charts.usage_chart(result)
    bar = figure.data[0]
    assert list(bar.y) == ["Follow-up passes", "Language-model calls", "Searches", "Different searches",
                           "Text read (tokens)", "Seconds"]  # fmt: skip
    assert bar.x[0] == 100.0  # 1 iteration spent of a zero budget reads as full
    assert bar.x[1] == 100.0 and bar.text[1] == "8 of 8"
    assert figure.layout.xaxis.range[1] <= 102.0  # the axis ends at the limit, not at 120%
    assert bar.marker.color[1] == charts.OVER_COLOR and bar.marker.color[2] == charts.BAR_COLOR


def test_page_caption_marks_later_passes() -> None:
    result = run_result()
    assert plain(page_caption(result.evidence_pages[0], 0)) == "report.pdf · page 2"
    assert plain(page_caption(result.evidence_pages[1], 1)) == "report.pdf · page 5 · added in pass 1"
    assert plain(page_caption(result.evidence_pages[0], 0, True)) == "report.pdf · page 2 · supporting passage"
    assert plain(page_caption(result.evidence_pages[0], 0, ocr=True)) == "report.pdf · page 2 · read by OCR"


def test_library_rows_show_ocr_pages_and_indexes_still_building() -> None:
    from ui.library import entry_rows

    entry = run_result().profiles[0]
    from engine.contracts import LibraryEntry

    base = LibraryEntry(doc_id=entry.doc_id, file_name="scan.pdf", size_bytes=2048, total_pages=entry.total_pages,
                        added_at="2025-01-02T03:04:05+00:00", profile=entry.model_copy(update={"ocr_pages": (1, 2)}))  # fmt: skip
    building, ready = entry_rows([base.model_copy(update={"building": ("keyword index",)}), base])
    assert building["OCR pages"] == 2 and building["state"] == "building: keyword index"
    assert ready["state"] == "ready"


def test_citation_lines_split_the_answer_from_supporting_passages() -> None:
    from engine import Citation

    result = run_result()
    support = Citation(chunk_id=result.evidence_chunks[0].chunk_id, doc_id=result.evidence_chunks[0].doc_id,
                       page=2, quote="median", role="support")  # fmt: skip
    answer = result.answer.model_copy(update={"citations": (*result.answer.citations, support)})
    result = result.model_copy(update={"answer": answer})
    assert [plain(line).split("]")[0] for line in citation_lines(result, "answer")] == ["[1"]
    lines = [plain(line) for line in citation_lines(result, "support")]
    assert len(lines) == 1 and lines[0].startswith("[2]") and "page 2" in lines[0]


def test_confidence_and_page_score_charts() -> None:
    result = run_result()
    confidence = charts.confidence_chart(result)
    assert list(confidence.data[0].y) == [40.0, 80.0] and list(confidence.data[0].x) == [
        "First reading",
        "Follow-up pass 1",
    ]
    one = result.model_copy(update={"history": result.history[:1]})
    single = charts.confidence_chart(one)
    assert single.layout.xaxis.type == "category" and tuple(single.layout.yaxis.range) == (0, 100)
    scores = charts.page_scores_chart(result)
    assert sorted(t.name for t in scores.data) == ["following references", "keyword search", "table of contents"]
    assert all(max(t.y) == 1.0 for t in scores.data)  # each retriever's best page is 1


def test_inspect_and_compare_rows() -> None:
    rows = iteration_rows(run_result())
    assert [r["action"] for r in rows] == ["retrieve", "two_hop"] and rows[1]["candidates added"] == 1
    results = [run_result("single_pass"), run_result("auto")]
    table = compare_rows(results)
    assert (
        table[1]["approach"] == "Automatic: guided search with follow-up passes"
        and table[0]["evidence pages"] == "p2, p5"
    )
    scatter = charts.cost_chart(results, "context_tokens")
    assert [t.x[0] for t in scatter.data] == [900, 900] and [t.y[0] for t in scatter.data] == [2, 2]


def test_run_json_roundtrip_is_lossless() -> None:
    result = run_result()
    assert RunResult.model_validate_json(result.model_dump_json()) == result


def test_outline_markdown_indents_levels() -> None:
    from engine import TocEntry

    toc = (TocEntry(level=1, title="1 Intro", start_page=1, end_page=2),
           TocEntry(level=2, title="1.1 Aim", start_page=2, end_page=2))  # fmt: skip
    assert outline_markdown(toc) == "- 1 Intro (pp1-2)\n    - 1\\.1 Aim (p2)"


def test_config_from_sidebar_never_dumps_the_key() -> None:
    config = build_config("fast", "openai", " http://127.0.0.1:9/v1 ", "m", "sk-secret", "dynamic")
    assert config.backend.kind == "openai" and config.backend.base_url == "http://127.0.0.1:9/v1"
    assert config.backend.api_key is not None and config.backend.api_key.get_secret_value() == "sk-secret"
    assert "sk-secret" not in config.model_dump_json() and config.strategy == "dynamic"
    assert default_budget("fast").max_iterations == 2
    override = BudgetOverride(max_iterations=0)
    assert override.apply(default_budget()).max_iterations == 0
