"""Offline planning rules: sub-queries, sufficiency judgements and plan-and-execute plans."""

from __future__ import annotations

import re

from engine.contracts import ExecutionPlan, ParsedQuestion, PlanStep, SubQuery, SubQueryPlan, SufficiencyJudgement
from engine.documents.text import content_words, normalize_query, normalize_space, stems
from engine.reading.question import clauses, extract_keywords

MAX_SUBQUERIES = 4

_RELATIVE = re.compile(
    r"\b(?P<np>(?:the|a|an)\s+[\w\-]+(?:\s+[\w\-]+)?)\s+(?P<rel>(?:that|which|who|whose|where)\s+[^,?]+)", re.I
)


def _query_of(text: str) -> str:
    terms = extract_keywords(text)
    return " ".join(dict.fromkeys(w for t in terms for w in t.split())) or normalize_space(text)


def base_queries(parsed: ParsedQuestion) -> list[SubQuery]:
    """The first plan for a question, before any gap is known."""
    queries: list[SubQuery] = []
    if parsed.sides:
        queries += [SubQuery(query=s.query, purpose=f"evidence about {s.label}") for s in parsed.sides]
    else:
        parts = clauses(parsed.original_question)
        if len(parts) > 1:
            subject = [k for k in parsed.retrieval.anchor_keywords if k[:1].isupper()][:1]
            for part in parts:
                query = _query_of(part)
                if subject and subject[0].lower() not in query.lower():
                    query = f"{subject[0]} {query}"
                queries.append(SubQuery(query=query, purpose=f"part of the question: {part}"))
        else:
            queries.append(SubQuery(query=parsed.retrieval.main_query, purpose="the question's own terms"))
    if parsed.intent == "listing" and not parsed.sides:
        topic = parsed.retrieval.anchor_keywords[:1] or parsed.keywords[:1]
        if topic:
            queries.append(SubQuery(query=f"{topic[0]} types", purpose="the enumeration and its announced count"))
    for reference in parsed.references:
        queries.append(SubQuery(query=reference, purpose=f"the referenced {reference}"))
    if parsed.intent == "open_corpus_wide":
        queries += [SubQuery(query="abstract introduction overview", purpose="what the document sets out to do"),
                    SubQuery(query="conclusion summary findings", purpose="what the document concludes")]  # fmt: skip
    return _unique(queries)


def _unique(queries: list[SubQuery], previous: tuple[str, ...] = ()) -> list[SubQuery]:
    seen = {normalize_query(p) for p in previous}
    kept: list[SubQuery] = []
    for q in queries:
        key = normalize_query(q.query)
        if key and key not in seen:
            seen.add(key)
            kept.append(q)
    return kept[:MAX_SUBQUERIES]


def plan_subqueries(parsed: ParsedQuestion, gaps: tuple[str, ...], previous: tuple[str, ...]) -> SubQueryPlan:
    """1-4 sub-queries; with ``gaps``, only queries for the gaps that were not run before."""
    if gaps:
        fresh = _unique([SubQuery(query=g, purpose="fill a gap the judge found") for g in gaps], previous)
        if not fresh:
            fresh = _unique([SubQuery(query=f"{g} {parsed.retrieval.main_query}", purpose="gap with the question's terms")
                             for g in gaps], previous)  # fmt: skip
        if not fresh:
            fresh = _unique(
                [SubQuery(query=r, purpose="a rewrite of the question") for r in parsed.retrieval.rewrites], previous
            )
    else:
        fresh = _unique(base_queries(parsed), previous) or base_queries(parsed)
    return SubQueryPlan(sub_queries=tuple(fresh[:MAX_SUBQUERIES] or [SubQuery(query=parsed.retrieval.main_query)]))


def judge_sufficiency(parsed: ParsedQuestion, evidence_texts: list[str]) -> SufficiencyJudgement:
    """Sufficient when every side / part of the question has evidence overlapping its terms."""
    if not evidence_texts:
        return SufficiencyJudgement(sufficient=False, missing=(parsed.retrieval.main_query,), reason="no evidence yet")
    evidence_stems = [stems(t) for t in evidence_texts]
    missing: list[str] = []
    labels = {s.query: stems(s.label) for s in parsed.sides}
    for query in base_queries(parsed):
        terms = stems(query.query)
        if not terms:
            continue
        needed = 0.5 if len(terms) > 1 else 1.0
        label = labels.get(query.query, set())
        if not any(label <= ev and len(terms & ev) / len(terms) >= needed for ev in evidence_stems):
            missing.append(query.query)
    if missing:
        return SufficiencyJudgement(sufficient=False, missing=tuple(missing[:MAX_SUBQUERIES]),
                                    reason=f"no evidence yet for: {'; '.join(missing[:MAX_SUBQUERIES])}")  # fmt: skip
    return SufficiencyJudgement(sufficient=True, reason="every part of the question has matching evidence")


def make_plan(parsed: ParsedQuestion) -> ExecutionPlan:
    """A plan: a bridge step then a dependent step for chained questions, independent steps otherwise."""
    question = parsed.original_question.rstrip("?")
    if parsed.intent == "multi_hop" and not parsed.sides:
        match = _RELATIVE.search(question)
        if match:
            inner = f"{match.group('np')} {match.group('rel')}"
            outer = (question[: match.start()] + "{s1}" + question[match.end() :]).strip()
            outer_query = outer if len(content_words(outer.replace("{s1}", ""))) else f"{{s1}} {question}"
            return ExecutionPlan(steps=(
                PlanStep(step_id="s1", query=_query_of(inner), purpose=f"identify {match.group('np')}"),
                PlanStep(step_id="s2", query=outer_query, depends_on=("s1",), purpose="answer the question about it"),
            ))  # fmt: skip
    queries = base_queries(parsed)
    steps = tuple(
        PlanStep(step_id=f"s{i}", query=q.query.replace("{", "(").replace("}", ")"), purpose=q.purpose)
        for i, q in enumerate(queries[:6], start=1)
    )
    return ExecutionPlan(steps=steps)
