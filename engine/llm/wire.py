"""The small schemas a model fills in, and code's conversion of them into the engine's contracts.

The contracts carry what code needs (chunk ids, pages, confidence, feedback signals); a model is asked
only for what it can judge, in a schema small enough for a small model to follow, with every list
bounded (a grammar-constrained reply cannot run away). Code then decides the rest:

- answer: statements, each with the numbers of the passages that support it, plus found / missing
  parts. Code maps each number to the passage's chunk (chunk id, document and page come from the chunk,
  never from the model), checks that the passage supports the statement (``bricks.support``), cites an
  uncited statement's supporting passage when one does, and leaves out, with a caveat, a statement no
  passage supports. "complete" and confidence are computed from that check.
- parse_question: intent, keywords, compared sides, parts, document words (expansions). References are
  read by code; keywords and parts' words not in the question
  are dropped (an example in a prompt must not leak into retrieval); complexity, hints and anchors are
  computed from the rest.
- make_plan: the plan contract itself, repaired when the intent is clear (``repair_plan``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pydantic import Field

from engine.contracts import (
    AnswerWithEvidence,
    Caveat,
    CaveatKind,
    Citation,
    ComparisonSide,
    Complexity,
    Contract,
    EvidenceItem,
    ExecutionPlan,
    Intent,
    LayoutHint,
    ParsedQuestion,
    PlanStep,
    QuestionPart,
    RetrievalSpec,
    caveat,
)
from engine.documents.text import content_words, find_cardinality_cue, find_references, stems
from engine.reading.support import best_support, closest_quote, supports

# ---- answer ---------------------------------------------------------------------------------


class WireStatement(Contract):
    """One statement of an answer and the passages that support it."""

    text: str = Field(max_length=400)
    passages: tuple[int, ...] = Field(default=(), max_length=4)


class WireAnswer(Contract):
    """What the model answers: statements with passage numbers, whether an answer was found, what is missing."""

    statements: tuple[WireStatement, ...] = Field(default=(), max_length=6)
    answer_found: bool
    missing: tuple[str, ...] = Field(default=(), max_length=4)


NOT_FOUND_TEXT = "The passages do not contain an answer to this question."


def answer_from_wire(wire: WireAnswer, evidence: Sequence[EvidenceItem], max_citations: int) -> AnswerWithEvidence:
    """The contract answer for ``wire`` over the numbered ``evidence`` (passage n is ``evidence[n-1]``)."""
    texts = [e.text for e in evidence]
    kept: list[str] = []
    citations: list[Citation] = []
    notes: list[Caveat] = []
    failures: list[str] = []
    for statement in wire.statements:
        text = " ".join(statement.text.split())
        if not text:
            continue
        numbers = [n for n in dict.fromkeys(statement.passages) if 1 <= n <= len(evidence)]
        failures += [f"passage [{n}] does not exist" for n in statement.passages if not 1 <= n <= len(evidence)]
        backed = [n for n in numbers if supports(text, texts[n - 1])]
        failures += [f"passage [{n}] does not support {text[:60]!r}" for n in numbers if n not in backed]
        if not backed:
            found = best_support(text, texts)
            backed = [found + 1] if found is not None else []
        if not backed:
            notes.append(caveat(CaveatKind.UNSUPPORTED_STATEMENT, detail=text[:160]))
            continue
        kept.append(text)
        citations += [_citation(evidence[n - 1], text) for n in backed]
    citations = list({c.chunk_id: c for c in citations}.values())[:max_citations]
    found = bool(kept) and wire.answer_found
    missing = tuple(m.strip() for m in wire.missing if m.strip())
    complete = found and not missing and not notes
    supported_share = len(kept) / max(1, len(kept) + len(notes))
    confidence = (0.4 + 0.5 * supported_share - (0.1 if missing else 0.0)) if found else 0.1
    caveats = (*notes, *(caveat(CaveatKind.NOT_IN_PASSAGES, detail=m[:160]) for m in missing))
    return AnswerWithEvidence(
        text=" ".join(kept) if found else (" ".join(kept) or NOT_FOUND_TEXT),
        citations=tuple(citations) if kept else (),
        answer_found=found,
        complete_answer_found=complete,
        confidence=round(max(0.0, min(1.0, confidence)), 3),
        caveats=caveats,
        validation_failures=tuple(failures),
    )


def _citation(item: EvidenceItem, statement: str) -> Citation:
    return Citation(
        chunk_id=item.chunk_id, doc_id=item.doc_id, page=item.page, quote=closest_quote(statement, item.text)
    )


# ---- parse_question -------------------------------------------------------------------------


class WireQuestion(Contract):
    """What the model reads from a question."""

    intent: Intent
    keywords: tuple[str, ...] = Field(default=(), max_length=8)
    sides: tuple[str, ...] = Field(default=(), max_length=4)
    parts: tuple[str, ...] = Field(default=(), max_length=4)
    expansions: tuple[str, ...] = Field(default=(), max_length=6)
    asks_for_value: bool = False


_COMPLEXITY: dict[str, Complexity] = {
    "single_fact": "simple",  # one passage answers it
    "section_retrieval": "simple",  # one section answers it
    "listing": "moderate",  # items may spread over a section
    "comparison": "moderate",  # one passage per side
    "open_scoped": "moderate",  # a few passages of one topic
    "vague": "moderate",  # needs a wider search
    "multi_hop": "complex",  # one answer leads to the next search
    "open_corpus_wide": "complex",  # the whole document
}
"""Complexity by intent (the budgets scale with it), each with its reason."""


def question_from_wire(wire: WireQuestion, question: str) -> ParsedQuestion:
    """The contract parse for ``wire``: only words of the question survive as keywords."""
    asked = stems(question)
    keywords = [k.strip() for k in wire.keywords if k.strip() and stems(k) and stems(k) <= asked]
    keywords = list(dict.fromkeys(keywords)) or content_words(question)[:8]
    references = find_references(question)  # code reads references; the model is not asked
    sides = tuple(s.strip() for s in wire.sides if s.strip() and stems(s) and stems(s) <= asked)
    intent = wire.intent if wire.intent != "comparison" or len(sides) >= 2 else "single_fact"
    cue = find_cardinality_cue(question)
    section = next((r for r in references if r.split()[0] in ("Section", "Item", "Chapter", "Appendix")), None)
    layout: LayoutHint | None = "table" if any(r.startswith("Table") for r in references) else None
    if layout is None and any(r.startswith("Figure") for r in references):
        layout = "figure"
    parts = _parts(wire.parts, asked)
    expansions = tuple(dict.fromkeys(e.strip() for e in wire.expansions if 2 < len(e.strip()) <= 60))
    main_query = " ".join([*keywords, *(e for e in expansions if e.lower() not in " ".join(keywords).lower())])
    return ParsedQuestion(
        original_question=question,
        intent=intent,
        complexity=_COMPLEXITY[intent],
        keywords=tuple(keywords),
        retrieval=RetrievalSpec(
            main_query=main_query,
            anchor_keywords=tuple(keywords[:3]),
            section_hint=section,
            layout_hint=layout,
            expansions=expansions,
        ),
        parts=parts,
        sides=tuple(ComparisonSide(label=s, query=s, keywords=tuple(content_words(s))) for s in sides)
        if intent == "comparison"
        else (),
        expected_count=cue[0] if cue else None,
        references=references,
        asks_for_value=wire.asks_for_value,
    )


def _parts(phrases: Sequence[str], asked: set[str]) -> tuple[QuestionPart, ...]:
    """The question's parts: each phrase's words that are the question's own; kept only when two or more."""
    parts = []
    for phrase in phrases:
        words = tuple(w for w in content_words(phrase) if stems(w) <= asked)
        if words:
            parts.append(QuestionPart(text=phrase.strip()[:120], keywords=words))
    return tuple(parts) if len(parts) >= 2 else ()


# ---- make_plan ------------------------------------------------------------------------------

_PLACEHOLDER = re.compile(r"\{([A-Za-z][A-Za-z0-9_]*)\}")


def repair_plan(plan: ExecutionPlan) -> tuple[ExecutionPlan, tuple[str, ...]]:
    """``plan`` with the dependency mistakes whose intent is clear fixed, and a note per fix.

    A dependency on an unknown, the same or a later step that the query does not use is dropped;
    a placeholder naming an earlier step becomes a dependency. Anything else (a placeholder naming an
    unknown step, a repeated id) is left for the plan check to reject.
    """
    order = {s.step_id: i for i, s in enumerate(plan.steps)}
    steps: list[PlanStep] = []
    notes: list[str] = []
    for position, step in enumerate(plan.steps):
        used = set(_PLACEHOLDER.findall(step.query))
        depends = []
        for dep in dict.fromkeys(step.depends_on):
            if dep in used or order.get(dep, position) < position:
                depends.append(dep)
            else:
                notes.append(f"step {step.step_id}: dropped the dependency on {dep} (unknown, itself or later)")
        for name in sorted(used - set(depends)):
            if order.get(name, position) < position:
                depends.append(name)
                notes.append(f"step {step.step_id}: added the dependency on {name} its query uses")
        steps.append(step.model_copy(update={"depends_on": tuple(depends)}))
    return plan.model_copy(update={"steps": tuple(steps)}), tuple(notes)


__all__ = [
    "NOT_FOUND_TEXT",
    "WireAnswer",
    "WireQuestion",
    "WireStatement",
    "answer_from_wire",
    "question_from_wire",
    "repair_plan",
]
