"""Words for people: the one table of display names for patterns, strategies, triggers, actions, stop
reasons, budget lines, progress stages and the pass-by-pass narration, used by the app and the evidence pack.

The engine's own identifiers (``single_pass``, ``keyword_retrieval``, ``budget_llm_calls``) and its reason
strings stay in the run record and are shown only under "details"; an analyst reads what this module
makes. One concept has one name here: a feedback pass is a "follow-up pass" (never an "iteration"), a
distinct query is a "different search" (never a "unique query"), the LLM is "the language model".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import get_args

from engine.contracts import (
    Action,
    BackendFallback,
    IterationRecord,
    PageRef,
    PatternName,
    ProgressEvent,
    RunResult,
    StopReason,
    StrategyName,
    Trigger,
)

PATTERN_LABELS: dict[PatternName, str] = {
    "toc_retrieval": "Table of contents",
    "keyword_retrieval": "Keyword search",
    "dense_retrieval": "Search by meaning",
    "two_hop_references": "Following references",
    "listing_aggregation": "Collecting list items",
    "adaptive_parsing": "Re-reading tables",
    "iterative_feedback": "Follow-up passes",
}
PATTERN_PURPOSE: dict[PatternName, str] = {
    "toc_retrieval": "goes straight to the section the document's contents point to",
    "keyword_retrieval": "finds the pages that use the question's words",
    "dense_retrieval": "finds pages that say the same thing in other words",
    "two_hop_references": "opens what a page refers to (\u201csee Note 7\u201d, \u201cTable 3\u201d)",
    "listing_aggregation": "gathers every item of a list spread over several pages",
    "adaptive_parsing": "reads a table again, cell by cell, when its text came out jumbled",
    "iterative_feedback": "looks again when the first answer is incomplete",
}
STRATEGY_LABELS: dict[StrategyName, str] = {
    "auto": "Automatic",
    "single_pass": "One pass",
    "dispatched": "Guided search with follow-up passes",
    "dynamic": "Sub-questions, re-planned as needed",
    "plan_execute": "Step-by-step plan",
}
QUESTION_KINDS: dict[str, str] = {
    "simple_fact": "a simple fact",
    "multi_hop": "a question that needs several facts put together",
    "investigative": "an open, investigative question",
    "procedural": "a question about a procedure or a list",
}
INTENT_LABELS: dict[str, str] = {
    "single_fact": "one fact",
    "comparison": "a comparison",
    "multi_hop": "several facts put together",
    "listing": "a list",
    "section_retrieval": "a section of the document",
    "open_scoped": "an open question about these documents",
    "open_corpus_wide": "an open question across the library",
    "vague": "an unclear question",
}
TRIGGER_LABELS: dict[Trigger, str] = {
    "initial": "The question was asked",
    "incomplete_answer": "The answer was incomplete",
    "discovered_vocabulary": "The pages used other words for the subject",
    "pending_references": "The answer pointed to another part of the document",
    "cardinality_mismatch": "Fewer items were found than the document announces",
    "garbled_context": "A page's text came out jumbled",
    "validation_failure": "A quote could not be checked against its page",
    "side_missing": "One side of the comparison had no evidence",
    "missing_value": "A figure the answer needs was missing",
    "insufficient_evidence": "The evidence was not enough",
    "passage_continues": "The cited passage runs on to the next page",
    "plan_layer": "The next step of the plan",
}
ACTION_LABELS: dict[Action, str] = {
    "retrieve": "searched the documents",
    "widen_scope": "searched more widely",
    "enable_dense": "searched by meaning as well",
    "expand_keywords": "searched again with the document's own words",
    "two_hop": "opened the part referred to",
    "broaden_section": "read the whole section",
    "adaptive_parse": "re-read the tables",
    "retry_answer": "wrote the answer again",
    "side_quota_retrieve": "searched for the missing side",
    "retrieve_inputs": "searched for the missing figures",
    "read_continuation": "read on to the next page",
    "re_plan": "planned again",
    "execute_steps": "ran the plan's steps",
}
STOP_SENTENCES: dict[StopReason, str] = {
    "complete": "The answer covers the question",
    "single_pass": "One pass was asked for, so the documents were read once",
    "iteration_cap": "The most follow-up passes allowed were made",
    "no_new_candidates": "The last pass found no new evidence",
    "repeated_trigger_action": "The same gap asked for the same step again, so Loupe stopped",
    "repeated_queries": "Every search worth trying had already been made",
    "confidence_drop": "Confidence fell, so the best earlier answer is given",
    "drift": "New evidence wandered away from the question, so Loupe stopped",
    "no_improvement": "The last pass changed neither the cited passages nor the confidence",
    "no_trigger": "Nothing suggested a useful next step",
    "budget_iterations": "The allowance of follow-up passes is used up",
    "budget_llm_calls": "The allowance of language-model calls is used up",
    "budget_retrieval_calls": "The allowance of searches is used up",
    "budget_unique_queries": "The allowance of different searches is used up",
    "budget_context_tokens": "The allowance of text to read is used up",
    "budget_seconds": "The time allowance is used up",
    "partial_answer": "The evidence is partial and the allowance permits no more passes",
    "plan_complete": "Every step of the plan ran",
}
STAGE_LABELS: dict[str, str] = {
    "parse": "Opening the documents",
    "understand": "Reading the question",
    "dispatch": "Choosing an approach",
    "retrieve": "Searching",
    "pass": "Looking again",
    "answer": "Writing the answer",
    "done": "Done",
}
TASK_LABELS: dict[str, str] = {
    "parse_question": "question-reading",
    "plan_subqueries": "sub-question planning",
    "judge_sufficiency": "evidence check",
    "answer": "answer",
    "make_plan": "planning",
    "rewrite_follow_up": "follow-up reading",
}
INTERNAL_NAMES: tuple[str, ...] = ("Whoosh", "BM25", "LSA", "layer-1", "ledger", "chunk", "fingerprint")
"""Engine words that mean nothing to an analyst: the analyst view never shows them (tests scan for them)."""
_SNAKE = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")


def snake_case_words(text: str) -> list[str]:
    """The snake_case identifiers in ``text`` (what an analyst view must not show)."""
    return _SNAKE.findall(text)


def _plain(identifier: str) -> str:
    return identifier.replace("_", " ")


def pattern_label(name: str) -> str:
    return PATTERN_LABELS.get(name, _plain(name).capitalize())  # type: ignore[call-overload]


def strategy_label(name: str) -> str:
    return STRATEGY_LABELS.get(name, _plain(name).capitalize())  # type: ignore[call-overload]


def question_kind(result: RunResult) -> str:
    """What the router took the question for ("a simple fact"), or "" when the strategy was chosen by hand."""
    found = re.match(r"auto \((\w+)\)", result.strategy_reason)
    return QUESTION_KINDS.get(found.group(1), _plain(found.group(1))) if found else ""


def strategy_line(result: RunResult) -> str:
    """ "Approach: One pass, picked automatically for a simple fact." """
    label = strategy_label(result.strategy_effective)
    if result.strategy_requested == "auto":
        kind = question_kind(result)
        return f"Approach: {label}, picked automatically" + (f" for {kind}." if kind else ".")
    if result.strategy_requested != result.strategy_effective:
        return f"Approach: {label} ({strategy_label(result.strategy_requested)} was asked for and handed over)."
    return f"Approach: {label}, as chosen."


def stop_sentence(result: RunResult) -> str:
    """Why the run stopped, one sentence."""
    return STOP_SENTENCES.get(result.stop_reason, _plain(result.stop_reason).capitalize()) + "."


def pass_title(record: IterationRecord) -> str:
    return "First reading" if record.iteration == 0 else f"Follow-up pass {record.iteration}"


def pass_sentence(record: IterationRecord) -> str:
    """One pass for an analyst: why it ran, what it did, what it added and the confidence after it."""
    why = "" if record.trigger == "initial" else TRIGGER_LABELS.get(record.trigger, _plain(record.trigger)) + ", so "
    did = ACTION_LABELS.get(record.action_taken, _plain(record.action_taken))
    pages = sorted({p.page for p in record.pages_added})
    added = f"; added page{'s' if len(pages) > 1 else ''} {', '.join(map(str, pages))}" if pages else "; no new page"
    text = f"{why}Loupe {did}" if why else f"Loupe {did}"
    return f"{pass_title(record)}: {text}{added}; confidence {record.confidence_after:.0%} after it."


def pass_lines(result: RunResult) -> list[str]:
    return [pass_sentence(r) for r in result.history]


def budget_lines(result: RunResult) -> list[tuple[str, float, float]]:
    """(what, used, allowed) for every allowance of a run, in plain words."""
    b, u = result.budget, result.usage
    return [
        ("Follow-up passes", u.iterations, b.max_iterations),
        ("Language-model calls", u.llm_calls, b.max_llm_calls),
        ("Searches", u.retrieval_calls, b.max_retrieval_calls),
        ("Different searches", u.unique_queries, b.max_unique_queries),
        ("Text read (tokens)", u.context_tokens, b.max_context_tokens),
        ("Seconds", round(u.latency_ms / 1000, 1), b.max_seconds),
    ]


def budget_sentence(result: RunResult) -> str:
    """ "Used: 1 of 3 follow-up passes · 2 of 28 searches (8 more answered from earlier searches) · …"."""
    parts = []
    for label, used, allowed in budget_lines(result):
        part = f"{label.lower()} {used:g} of {allowed:g}"
        if label == "Searches" and result.usage.cached_retrievals:
            part += f" ({result.usage.cached_retrievals} more answered from earlier searches)"
        parts.append(part)
    return "Used: " + " · ".join(parts)


def fallback_sentence(fallback: BackendFallback) -> str:
    step = TASK_LABELS.get(fallback.task, _plain(fallback.task))
    return f"The {step} step was done by Loupe's built-in rules instead of the language model."


def progress_label(event: ProgressEvent) -> str:
    """A progress event as the status box shows it: the stage in words (the engine's message is for logs)."""
    label = STAGE_LABELS.get(event.stage, _plain(event.stage).capitalize())
    if event.stage == "understand" and event.message.startswith("understood as: "):
        return "Reading the follow-up as a full question"
    if event.stage == "pass" and event.iteration:
        return f"Follow-up pass {event.iteration}"
    return label


def question_rows(result: RunResult) -> list[dict[str, str]]:
    """How the question was read, for analysts: what it asks for and what Loupe searched with."""
    q = result.parsed_question
    rows = [("asks for", INTENT_LABELS.get(q.intent, _plain(q.intent)) + (", a figure" if q.asks_for_value else ""))]
    rows.append(("searched with", ", ".join(q.keywords) or q.retrieval.main_query))
    if q.retrieval.expansions:
        rows.append(("also searched for the document's words", ", ".join(q.retrieval.expansions)))
    if q.sides:
        rows.append(("compares", " · ".join(side.label for side in q.sides)))
    if q.references:
        rows.append(("refers to", ", ".join(q.references)))
    if q.retrieval.section_hint:
        rows.append(("section named", q.retrieval.section_hint))
    if q.instructions:
        rows.append(("answer format asked", " ".join(q.instructions)))
    return [{"": k, "reading": v} for k, v in rows]


def document_rows(result: RunResult) -> list[dict[str, str]]:
    """The documents of a run, for analysts (no ids, no hashes)."""
    return [
        {
            "document": p.file_name,
            "pages": str(p.total_pages),
            "contents list": f"{p.toc_entries} entries" if p.has_usable_toc else "none usable",
            "tables": "yes" if p.has_tables else "no",
            "scanned": f"yes ({len(p.ocr_pages)} page(s) read by OCR)" if p.ocr_pages else "no",
        }
        for p in result.profiles
    ]


def pages_text(pages: Sequence[PageRef], several: bool = True) -> str:
    """Pages as a reader scans them: "p. 1, 4, 5" for one document; "a.pdf p. 1, 4 · b.pdf p. 2" for several."""
    by_file: dict[str, list[int]] = {}
    for ref in pages:
        by_file.setdefault(ref.file_name, [])
        if ref.page not in by_file[ref.file_name]:
            by_file[ref.file_name].append(ref.page)
    parts = [
        (f"{name} " if several else "") + "p. " + ", ".join(map(str, sorted(nums))) for name, nums in by_file.items()
    ]
    return " · ".join(parts)


def pass_rows(result: RunResult) -> list[dict[str, str]]:
    """Every pass as a table row for analysts."""
    return [
        {
            "pass": pass_title(r),
            "why": TRIGGER_LABELS.get(r.trigger, _plain(r.trigger)),
            "what Loupe did": ACTION_LABELS.get(r.action_taken, _plain(r.action_taken)),
            "pages added": pages_text(r.pages_added, several=len(result.docs) > 1) or "none",
            "confidence after": f"{r.confidence_after:.0%}",
        }
        for r in result.history
    ]


def analyst_activation_rows(result: RunResult) -> list[dict[str, str]]:
    """The activation column for analysts: each step, whether it was used, what it does."""
    return [
        {"step": pattern_label(name), "used": "yes" if d.on else "no", "what it does": PATTERN_PURPOSE.get(name, "")}
        for name, d in result.activations.items()
    ]


def covered(kind: str) -> set[str]:
    """The identifiers of one kind that have a display name (for the completeness test)."""
    tables: dict[str, tuple[dict, object]] = {
        "stop": (STOP_SENTENCES, StopReason),
        "trigger": (TRIGGER_LABELS, Trigger),
        "action": (ACTION_LABELS, Action),
        "strategy": (STRATEGY_LABELS, StrategyName),
        "pattern": (PATTERN_LABELS, PatternName),
    }
    table, literal = tables[kind]
    return set(table) & set(_literal_values(literal))


def _literal_values(literal: object) -> list[str]:
    values: list[str] = []
    for arg in get_args(literal):
        values += _literal_values(arg) if get_args(arg) else [arg]
    return values
