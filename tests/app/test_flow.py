"""AppTest of the analyst's workflow: conversation and follow-ups, readable evidence, evidence pack,
page marking into the personal question set, History (search, reopen, re-run, compare, delete),
uploads (cancel, re-upload after delete, errors shown once) and the polish list."""

from __future__ import annotations

import json

import pymupdf
from streamlit.testing.v1 import AppTest

from engine import SAMPLE_QUESTIONS, personal_set_path
from tests.app.conftest import APP


def _app() -> AppTest:
    return AppTest.from_file(APP, default_timeout=60)


def _ok(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]


def _texts(at: AppTest) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption] + [s.value for s in at.subheader]
    parts += [s.value for s in at.success] + [w.value for w in at.warning] + [i.value for i in at.info]
    return "\n".join(str(p) for p in parts)


def _first_turn(at: AppTest) -> AppTest:
    at = at.button(key="loupe_suggest_0").click().run()
    _ok(at)
    return at


def _pdf(lines: list[str]) -> bytes:
    doc = pymupdf.open()
    page = doc.new_page()
    for n, line in enumerate(lines):
        page.insert_text((72, 72 + 20 * n), line, fontsize=11)
    return doc.tobytes()


def test_follow_up_keeps_both_turns_and_links_them(app_engine: str) -> None:
    at = _first_turn(_app().run())
    at = at.chat_input(key="loupe_chat").set_value("What is the maximum payload of the Heron 3?").run()
    _ok(at)
    assert len(at.chat_message) == 4  # two questions, two answers
    assert [m.name for m in at.chat_message] == ["user", "assistant", "user", "assistant"]
    assert any(e.label == "How it was answered, and the evidence" for e in at.expander)  # the earlier turn
    first, second = (json.loads(t) for t in at.session_state["loupe"]["conversation"])
    assert second["follow_up_of"] == first["run_id"] and second["docs"] == first["docs"]
    assert sum("used" in t.value.columns for t in at.table) == 2  # each turn keeps its activation column


def test_new_conversation_clears_the_turns(app_engine: str) -> None:
    at = _first_turn(_app().run())
    at = at.button(key="loupe_new_conversation").click().run()
    _ok(at)
    assert not at.chat_message and at.session_state["loupe"]["conversation"] == []


def test_long_question_is_echoed_short_with_the_whole_text_one_click_away(app_engine: str) -> None:
    question = "What is the flight endurance of the Heron 3? " + "Please be precise about the units. " * 50
    at = _app().run().chat_input(key="loupe_chat").set_value(question).run()
    assert not at.exception
    user = at.chat_message[0]
    assert max(len(m.value) for m in user.markdown) < 400
    assert user.expander[0].label == "The whole question" and user.expander[0].text[0].value == question.strip()


def test_evidence_opens_on_a_crop_and_pages_through_the_full_document(app_engine: str) -> None:
    at = _first_turn(_app().run())
    crop = at.get("image")[0]
    toggle = at.toggle(key="turn_0_ev_0_full")
    assert toggle.value is False
    at = toggle.set_value(True).run()
    _ok(at)
    assert any(c.value.startswith("page ") and "of 10" in c.value for c in at.caption)
    shown = next(c.value for c in at.caption if c.value.startswith("page ") and "of 10" in c.value)
    page = int(shown.split()[1])
    at = at.button(key="turn_0_ev_0_next").click().run()
    _ok(at)
    assert any(c.value.startswith(f"page {page + 1} of 10") for c in at.caption)
    at = at.button(key="turn_0_ev_0_prev").click().run()
    assert any(c.value.startswith(f"page {page} of 10") for c in at.caption)
    assert crop is not None


def test_pack_downloads_on_ask(app_engine: str) -> None:
    at = _first_turn(_app().run())
    labels = [b.proto.label for b in at.get("download_button")]
    assert "Evidence pack (PDF)" in labels and "Evidence pack (Markdown)" in labels


def test_marking_pages_builds_the_personal_set_that_evaluate_runs(app_engine: str, library_dir) -> None:
    at = _first_turn(_app().run())
    at.checkbox(key="turn_0_mark_right_0").check()
    at.text_input(key="turn_0_mark_extra").input("3")
    at = at.button(key="FormSubmitter:turn_0_mark_mark-Add to my question set").click().run()
    _ok(at)
    assert any("question set now holds 1" in s.value for s in at.success)
    record = json.loads(personal_set_path().read_text().splitlines()[0])
    assert record["question"] == SAMPLE_QUESTIONS[0] and {"page": 3}.items() <= record["evidence_pages"][-1].items()
    at.switch_page("pages/5_Evaluate.py").run()
    _ok(at)
    choice = at.radio(key="loupe_eval_set")
    assert choice.value == "My question set" and "1 questions" in choice.format_func(choice.value)
    at.multiselect[0].set_value(["single_pass"]).run()
    at = at.button(key="loupe_eval_run").click().run()
    _ok(at)
    assert "Results: my questions" in at.subheader[0].value
    metrics = set(at.dataframe[0].value.index)
    assert {"evidence recall", "median latency (ms)", "language-model calls", "answer match"} <= metrics
    assert at.dataframe[0].value.columns[0] == "One pass" and "p50ms" not in metrics
    per_question = at.dataframe[1].value
    assert list(per_question.columns) == ["question", "approach", "pages cited", "gold pages", "answer",
                                          "right or wrong", "confidence"]  # fmt: skip
    assert per_question["question"].iloc[0] == SAMPLE_QUESTIONS[0] and "3" in per_question["gold pages"].iloc[0].split(
        ", "
    )
    assert at.selectbox(key="loupe_eval_open").options
    cost = json.loads(at.get("plotly_chart")[1].proto.spec)
    assert cost["layout"]["showlegend"] is True and cost["layout"]["xaxis"]["title"]["text"]
    assert all(t["mode"] == "markers" for t in cost["data"])  # names in the legend, never printed over each other
    at = at.button(key="loupe_eval_open_go").click().run()  # a way into the question's run: asked on Ask
    _ok(at)
    assert len(at.chat_message) == 2 and SAMPLE_QUESTIONS[0] in _texts(at)


def test_marking_rejects_a_page_the_document_does_not_have(app_engine: str) -> None:
    at = _first_turn(_app().run())
    at.text_input(key="turn_0_mark_extra").input("99")
    at = at.button(key="FormSubmitter:turn_0_mark_mark-Add to my question set").click().run()
    assert not at.exception and any("does not exist" in e.value for e in at.error)
    assert not personal_set_path().exists()


def _history(at: AppTest) -> AppTest:
    at.switch_page("pages/6_History.py").run()
    _ok(at)
    return at


def test_history_lists_searches_reopens_and_compares(app_engine: str) -> None:
    at = _first_turn(_app().run())
    at = at.button(key="loupe_suggest_2").click().run()
    at = _history(at)
    assert len(at.dataframe[0].value) == 2
    assert at.selectbox(key="loupe_history_run").value is not None
    assert at.table and at.get("image")  # the opened run with its activation column and evidence
    at.text_input(key="loupe_history_search").input("sensors").run()
    assert len(at.dataframe[0].value) == 1 and "sensors" in at.dataframe[0].value["question"].iloc[0]
    at.text_input(key="loupe_history_search").input("").run()
    ids = at.selectbox(key="loupe_history_run").options
    at.multiselect(key="loupe_history_compare").select(ids[0]).select(ids[1]).run()
    _ok(at)
    table = at.dataframe[-1].value
    assert list(table.columns) == ["aspect", "first run", "second run", "same"] and "evidence pages" in set(
        table["aspect"]
    )


def test_history_reruns_with_another_strategy_and_deletes_with_confirmation(app_engine: str) -> None:
    at = _history(_first_turn(_app().run()))
    at.selectbox(key="loupe_history_strategy").select("single_pass").run()
    at = at.button(key="loupe_history_rerun").click().run()
    _ok(at)
    assert any("Re-ran the question with the approach “One pass”" in s.value for s in at.success)
    # the same question asked again with another approach: one comparison entry, the fresh run open
    assert list(at.dataframe[0].value["approach"]) == ["Comparison of 2 approaches"]
    assert at.selectbox(key=f"loupe_history_in_{at.selectbox(key='loupe_history_run').value}").index == 0
    at = at.button(key="loupe_history_delete").click().run()
    assert any("cannot be undone" in w.value for w in at.warning)
    at = at.button(key="loupe_history_delete_yes").click().run()
    _ok(at)
    assert len(at.dataframe[0].value) == 1 and any(s.value == "The run was deleted." for s in at.success)
    assert "Automatic" not in at.selectbox(key="loupe_history_strategy").options  # the first run (auto) stays


def test_history_continues_a_conversation_on_ask(app_engine: str) -> None:
    at = _first_turn(_app().run())
    at = at.chat_input(key="loupe_chat").set_value("What is the maximum payload of the Heron 3?").run()
    at = _app().run()  # a new session: the history is on disk
    at = _history(at)
    at = at.button(key="loupe_history_continue").click().run()
    _ok(at)
    assert len(at.chat_message) == 4  # the follow-up and the question it continues


def test_history_empty_state(app_engine: str) -> None:
    at = _history(_app().run())
    assert any("No saved run yet" in i.value for i in at.info)


def test_upload_errors_show_once_per_batch(app_engine: str) -> None:
    at = _app().run()
    at.file_uploader[0].upload("first.pdf", b"not a pdf", "application/pdf").run()
    assert len(at.error) == 1 and "first" in at.error[0].value
    at.file_uploader[0].upload("second.pdf", b"still not a pdf", "application/pdf").run()
    assert len(at.error) == 1 and "second" in at.error[0].value and "first" not in at.error[0].value


def test_reupload_after_delete_adds_the_document_again(app_engine: str) -> None:
    data = _pdf(["The Kestrel pump station moves 40 litres per second."])
    at = _app().run()
    at.file_uploader[0].upload("kestrel.pdf", data, "application/pdf").run()
    _ok(at)
    assert len(at.multiselect(key="loupe_w_docs").options) == 2
    at.switch_page("pages/3_Library.py").run()
    at.selectbox(key="loupe_library_doc").select_index(
        [
            at.selectbox(key="loupe_library_doc").format_func(o) for o in at.selectbox(key="loupe_library_doc").options
        ].index("kestrel.pdf")
    ).run()
    at = at.button(key="loupe_delete").click().run()
    at = at.button(key="loupe_delete_yes").click().run()
    _ok(at)
    assert any("Deleted kestrel.pdf" in s.value for s in at.success)
    at.switch_page("pages/0_Ask.py").run()
    assert len(at.multiselect(key="loupe_w_docs").options) == 1
    at.file_uploader[0].upload("kestrel.pdf", data, "application/pdf").run()
    _ok(at)
    docs = at.multiselect(key="loupe_w_docs")
    assert len(docs.options) == 2 and [docs.format_func(d) for d in docs.value] == ["kestrel.pdf"]


def test_cancelled_upload_is_reported_and_adds_nothing(app_engine: str) -> None:
    at = _app().run()
    before = list(at.multiselect(key="loupe_w_docs").options)
    at.session_state["loupe"]["upload_cancelled"] = "big.pdf"  # what Cancel's callback leaves for the rerun
    at.run()
    assert not at.exception
    assert any("Cancelled reading big.pdf" in w.value for w in at.warning)
    assert list(at.multiselect(key="loupe_w_docs").options) == before


def test_upload_shows_progress_stages(app_engine: str) -> None:
    at = _app().run()
    at.file_uploader[0].upload("kestrel.pdf", _pdf(["The Kestrel pump moves water."]), "application/pdf").run()
    _ok(at)
    assert any("Added kestrel.pdf (1 pages)" in s.value for s in at.success)


def test_several_files_in_one_upload(app_engine: str) -> None:
    at = _app().run()
    uploader = at.file_uploader[0]
    uploader.upload("one.pdf", _pdf(["The Kestrel pump moves water."]), "application/pdf")
    uploader.upload("two.pdf", _pdf(["The Osprey valve holds pressure."]), "application/pdf")
    at.run()
    _ok(at)
    docs = at.multiselect(key="loupe_w_docs")
    assert sorted(docs.format_func(d) for d in docs.value) == ["one.pdf", "two.pdf"]


def test_history_delete_can_be_cancelled(app_engine: str) -> None:
    at = _history(_first_turn(_app().run()))
    at = at.button(key="loupe_history_delete").click().run()
    at = at.button(key="loupe_history_delete_no").click().run()
    _ok(at)
    assert len(at.dataframe[0].value) == 1 and not at.warning


def test_library_delete_can_be_cancelled(app_engine: str) -> None:
    at = _app().run()
    at.switch_page("pages/3_Library.py").run()
    at = at.button(key="loupe_delete").click().run()
    at = at.button(key="loupe_delete_no").click().run()
    _ok(at)
    assert at.button(key="loupe_delete") and len(at.dataframe[0].value) == 1


def test_inspect_offers_the_pack_and_page_marking(app_engine: str) -> None:
    at = _first_turn(_app().run())
    at.switch_page("pages/1_Inspect.py").run()
    _ok(at)
    assert "Evidence pack (PDF)" in [b.proto.label for b in at.get("download_button")]
    at.checkbox(key="inspect_mark_right_0").check()
    at = at.button(key="FormSubmitter:inspect_mark_mark-Add to my question set").click().run()
    _ok(at)
    assert personal_set_path().exists()


def test_untrusted_question_is_escaped_everywhere_it_is_echoed(app_engine: str) -> None:
    hostile = "What is **this** [link](javascript:alert(1)) $x$ :red[boom] <b>bold</b>?"
    at = _app().run().chat_input(key="loupe_chat").set_value(hostile).run()
    assert not at.exception
    echoed = at.chat_message[0].markdown[0].value
    assert "[link](" not in echoed and "**this**" not in echoed and "\\$x\\$" in echoed and ":red\\[boom\\]" in echoed
    at = _history(at)
    shown = [m.value for m in at.markdown if "link" in m.value]
    assert shown and all("[link](" not in m for m in shown)
