"""Follow-ups: rewritten into a full question, over the previous turn's documents, the first pass starting
from the previous turn's parsed question (hints) and evidence pages (seeded in the ledger)."""

from __future__ import annotations

import pytest

from engine.api import answer
from engine.api.conversation import follow_up
from engine.errors import LoupeError
from engine.history import SqliteRunStore
from engine.run.followup import inherit_parsed
from tests.run.factories import question


def test_hints_carry_over_when_the_topic_is_kept() -> None:
    previous = question("What does Table 3 report for turbidity?", keywords=("turbidity",), layout_hint="table",
                        section_hint="3")  # fmt: skip
    follow = question("What turbidity in 2022?", keywords=("turbidity", "2022"))
    inherited = inherit_parsed(follow, previous)
    assert (inherited.retrieval.layout_hint, inherited.retrieval.section_hint) == ("table", "3")


def test_hints_do_not_carry_over_to_a_new_topic_or_replace_stated_ones() -> None:
    previous = question(keywords=("turbidity",), layout_hint="table")
    assert inherit_parsed(question(keywords=("salary",)), previous).retrieval.layout_hint is None
    stated = question(keywords=("turbidity",), layout_hint="figure")
    assert inherit_parsed(stated, previous).retrieval.layout_hint == "figure"


def test_follow_up_is_rewritten_and_linked_and_saved(report, config, tmp_path) -> None:
    library, entry = report
    store = SqliteRunStore(tmp_path / "history.sqlite3")
    first = answer("What is the mean turbidity of Station B in Table 3?", [entry.doc_id], config=config,
                   library=library, store=store)  # fmt: skip
    events = []
    second = follow_up("And what about Station C?", first, config=config, library=library, store=store,
                       progress=events.append)  # fmt: skip
    assert second.asked == "And what about Station C?"
    assert second.question == "What is the mean turbidity of Station C in Table 3?"
    assert second.follow_up_of == first.run_id and second.docs == first.docs
    assert any(e.message.startswith("understood as: What is the mean turbidity of Station C") for e in events)
    assert store.get(second.run_id) == second
    assert [r.run_id for r in store.list()] == [second.run_id, first.run_id]


def test_first_pass_starts_from_the_previous_evidence_pages(report, config) -> None:
    library, entry = report
    first = answer("What does Table 3 report for Station A?", [entry.doc_id], config=config, library=library)
    events = []
    second = follow_up("Why?", first, config=config, library=library, progress=events.append)
    seeded = [e for e in events if e.message.startswith("starting from the previous turn's")]
    assert seeded and seeded[0].iteration == 0
    fused_pages = {(s.doc_id, s.page) for s in second.page_scores if s.retriever == "fused"}
    assert {(p.doc_id, p.page) for p in first.evidence_pages[:5]} <= fused_pages


def test_a_full_question_is_kept_as_asked(report, config) -> None:
    library, entry = report
    first = answer("What does Table 3 report for Station A?", [entry.doc_id], config=config, library=library)
    second = follow_up("Which filters are applied to the turbidity readings?", first, config=config, library=library)
    assert second.asked is None and second.question == "Which filters are applied to the turbidity readings?"
    assert second.follow_up_of == first.run_id


def test_an_empty_follow_up_is_refused(report, config) -> None:
    library, entry = report
    first = answer("What does Table 3 report for Station A?", [entry.doc_id], config=config, library=library)
    with pytest.raises(LoupeError, match="empty"):
        follow_up("   ", first, config=config, library=library)


def test_with_no_llm_call_left_the_rules_rewrite_and_the_run_says_so(report, config) -> None:
    from engine.contracts import BudgetOverride

    library, entry = report
    first = answer(
        "What is the mean turbidity of Station B in Table 3?", [entry.doc_id], config=config, library=library
    )
    second = follow_up("And what about Station C?", first, config=config, library=library,
                       budget=BudgetOverride(max_llm_calls=0))  # fmt: skip
    assert second.question == "What is the mean turbidity of Station C in Table 3?"
    assert "rewrite_follow_up" in [f.task for f in second.fallbacks]


def test_a_runaway_rewrite_keeps_the_users_words(report, config) -> None:
    from engine.contracts import BackendReply, Budget, FollowUpRewrite, LlmUsage
    from engine.run.budget import LoopGuard
    from engine.run.calls import LlmCalls
    from engine.run.followup import rewrite_question

    class Chatty:
        name = "chatty"

        def run(self, task, request, output_type):
            return BackendReply(value=FollowUpRewrite(question="word " * 1000), usage=LlmUsage(calls=1))

    library, entry = report
    first = answer("What does Table 3 report for Station A?", [entry.doc_id], config=config, library=library)
    llm = LlmCalls(backend=Chatty(), rules=Chatty(), guard=LoopGuard(Budget()))
    assert rewrite_question("And Station B?", first, llm) == "And Station B?"
