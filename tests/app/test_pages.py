"""AppTest of every page: renders, asks on the sample, budget override, strategy switch, upload errors."""

from __future__ import annotations

import json

import pymupdf
import pytest
from streamlit.testing.v1 import AppTest

from engine import SAMPLE_QUESTIONS, RunResult, build_pack, open_library
from engine.llm.network import allow_network
from engine.llm.structured import MODES
from tests.app.conftest import APP
from tests.llm.stub_server import StubServer, reply

PAGES = [
    "pages/1_Inspect.py",
    "pages/2_Compare.py",
    "pages/3_Library.py",
    "pages/4_Settings.py",
    "pages/5_Evaluate.py",
    "pages/6_History.py",
]


def _app() -> AppTest:
    return AppTest.from_file(APP, default_timeout=30)


def _texts(at: AppTest) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    parts += [s.value for s in at.subheader] + [e.value for e in at.success] + [w.value for w in at.warning]
    return "\n".join(str(p) for p in parts)


def _suggest(at: AppTest, n: int = 0) -> AppTest:
    return at.button(key=f"loupe_suggest_{n}").click().run()


def _ask(at: AppTest, question: str) -> AppTest:
    return at.chat_input(key="loupe_chat").set_value(question).run()


def _pdf(text: str = "The Kestrel pump station moves 40 litres per second.") -> bytes:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), text, fontsize=11)
    page.insert_text((72, 100), "It was commissioned in 2019 after a long planning phase.", fontsize=11)
    return doc.tobytes()


@pytest.mark.parametrize("page", [None, *PAGES])
def test_every_page_renders(app_engine: str, page: str | None) -> None:
    at = _app().run()
    if page:
        at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    assert at.sidebar.selectbox(key="loupe_w_strategy").value == "auto"
    assert len(at.sidebar.number_input) == 6


def test_first_visit_preselects_sample_and_asks(app_engine: str) -> None:
    at = _app().run()
    docs = at.multiselect(key="loupe_w_docs")
    assert len(docs.value) == 1 and "sample" in docs.format_func(docs.value[0])
    at = _suggest(at, 0)
    assert not at.exception and not at.error, [e.value for e in at.error]
    activations = at.table[0].value
    assert len(activations) == 7 and set(activations["used"]) <= {"yes", "no"}
    assert "First reading" in _texts(at)
    assert at.get("image"), "no evidence image"
    assert at.get("plotly_chart"), "no plotly chart"
    spec = json.loads(at.get("plotly_chart")[0].proto.spec)
    assert "Allowance used" in json.dumps(spec["layout"]["title"])
    assert len(at.chat_message) == 2 and SAMPLE_QUESTIONS[0] in _texts(at)


def test_budget_override_changes_shown_budget(app_engine: str) -> None:
    at = _app().run()
    at = _suggest(at, 1)
    assert "follow-up passes 0 of 0 ·" not in _texts(at)
    at.sidebar.toggle(key="loupe_w_use_override").set_value(True).run()
    at.sidebar.number_input(key="loupe_w_max_iterations").set_value(0).run()
    at = _suggest(at, 1)
    assert not at.exception
    assert "follow-up passes 0 of 0 ·" in _texts(at)
    # reset restores the defaults and switches the override off
    at.sidebar.button(key="loupe_reset_budget").click().run()
    assert at.sidebar.number_input(key="loupe_w_max_iterations").value == 3
    assert at.sidebar.toggle(key="loupe_w_use_override").value is False


def test_strategy_switch_changes_effective_strategy(app_engine: str) -> None:
    at = _app().run()
    at.sidebar.selectbox(key="loupe_w_strategy").select("single_pass").run()
    at = _suggest(at, 0)
    assert "Approach: One pass, as chosen." in _texts(at)
    at.sidebar.selectbox(key="loupe_w_strategy").select("dynamic").run()
    at = _suggest(at, 0)
    assert "Approach: Sub-questions" in _texts(at)


def _encrypted() -> bytes:
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "secret text", fontsize=11)
    return doc.tobytes(encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="u", owner_pw="o")


def _blank() -> bytes:
    doc = pymupdf.open()
    doc.new_page().draw_rect((50, 50, 200, 200), fill=(0.5, 0.5, 0.5))
    return doc.tobytes()


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("notes.pdf", b"this is plain text, not a PDF"),
        ("broken.pdf", b"%PDF-1.7\n1 0 obj <<"),
        ("locked.pdf", _encrypted()),
        ("scan.pdf", _blank()),
    ],
)
def test_bad_upload_shows_error_and_keeps_library(app_engine: str, name: str, data: bytes) -> None:
    at = _app().run()
    before = list(at.multiselect(key="loupe_w_docs").options)
    at.file_uploader[0].upload(name, data, "application/pdf").run()
    assert not at.exception
    assert (at.error and name.replace(".", "\\.") in at.error[0].value) or name in at.error[0].value
    assert list(at.multiselect(key="loupe_w_docs").options) == before


def test_upload_then_ask(app_engine: str) -> None:
    at = _app().run()
    at.file_uploader[0].upload("kestrel.pdf", _pdf(), "application/pdf").run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    docs = at.multiselect(key="loupe_w_docs")
    assert len(docs.options) == 2  # the sample stays in the library ...
    assert [docs.format_func(d) for d in docs.value] == ["kestrel.pdf"]  # ... but the upload replaces it
    at = _ask(at, "How many litres per second does the Kestrel pump station move?")
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert "kestrel.pdf" in _texts(at)


def test_empty_question_is_a_message(app_engine: str) -> None:
    at = _ask(_app().run(), "   ")
    assert not at.exception
    assert any("question is empty" in e.value for e in at.error)


def test_inspect_shows_the_runs(app_engine: str) -> None:
    at = _suggest(_app().run(), 0)
    at = _suggest(at, 2)
    at.switch_page("pages/1_Inspect.py").run()
    assert not at.exception and not at.error
    run = at.selectbox(key="loupe_inspect_run")
    assert len(run.options) == 2 and SAMPLE_QUESTIONS[2][:30] in run.format_func(0)
    assert len(at.get("plotly_chart")) >= 2
    assert at.get("download_button")
    assert "Config fingerprint" in _texts(at)


def test_compare_runs_every_strategy(app_engine: str) -> None:
    at = _app().run()
    at.switch_page("pages/2_Compare.py").run()
    at.text_input(key="loupe_compare_question").input(SAMPLE_QUESTIONS[1])
    at.button[[b.label for b in at.button].index("Run comparison")].click().run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    table = at.dataframe[0].value
    assert len(table) == 5 and {"language-model calls", "evidence pages", "why it stopped"} <= set(table.columns)
    assert at.get("plotly_chart")


def test_library_outline_and_delete(app_engine: str) -> None:
    at = _app().run()
    at.switch_page("pages/3_Library.py").run()
    assert not at.exception
    assert at.dataframe[0].value["pages"].iloc[0] == 10
    assert "Sensor suite" in _texts(at)
    at.button(key="loupe_delete").click().run()
    assert at.warning and "cannot be undone" in at.warning[0].value
    at.button(key="loupe_delete_yes").click().run()
    assert not at.exception
    assert any("Deleted" in s.value and "from the library" in s.value for s in at.success), _texts(at)
    # (the page then adds the bundled sample again: a library is never left without it)


def test_api_key_stays_out_of_runs_and_exports(app_engine: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A run made with the openai backend (a stub endpoint on 127.0.0.1) is stored, and neither the stored run
    (the JSON download) nor its evidence pack holds the API key typed in the sidebar."""
    if app_engine != "real":
        pytest.skip("needs the real engine")
    MODES.clear()
    with StubServer() as stub:
        monkeypatch.setenv("OPENAI_BASE_URL", stub.base_url)
        stub.script(
            reply({"statements": [{"text": "It flies.", "passages": [1]}], "answer_found": True, "missing": []})
        )
        at = _app().run()
        at.sidebar.radio(key="loupe_w_backend").set_value("openai").run()
        key_input = at.sidebar.text_input(key="loupe_w_api_key")
        assert key_input.proto.type == key_input.proto.PASSWORD
        key_input.input("sk-test-not-a-real-key").run()
        with allow_network():
            at = _suggest(at, 0)
        assert stub.requests, "the run reached the stub endpoint"
    MODES.clear()
    assert not at.exception, [e.value for e in at.exception]
    stored = at.session_state["loupe"]["runs"]
    assert len(stored) == 1, "the run is stored (the JSON download is that run)"
    assert "sk-test-not-a-real-key" not in stored[0]
    result = RunResult.model_validate_json(stored[0])
    assert result.backend == "openai"
    pack = build_pack(result, open_library().pdf_bytes)
    assert "sk-test-not-a-real-key" not in pack.markdown(image_dir=None)


@pytest.mark.parametrize("n", range(len(SAMPLE_QUESTIONS)))
def test_every_suggested_question_answers_without_error(app_engine: str, n: int) -> None:
    at = _suggest(_app().run(), n)
    assert not at.exception
    assert not at.error, [e.value for e in at.error]
    assert at.get("image") and at.table
