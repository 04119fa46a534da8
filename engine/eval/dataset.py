"""Question sets: JSONL files in the format of ``../shared/eval/`` turned into frozen ``EvalQuestion``s.

One JSON object a line with ``id``, ``doc`` (or ``docs``), ``question``, ``answer`` (a string or a
list of alternative strings), ``evidence_pages`` (1-based) and ``type``; other fields are ignored.
``evidence_pages`` may be a flat list (pages of the only document, or of any of the documents), a
list of lists (one list per document, in ``docs`` order), a mapping ``{doc: [pages]}`` or a list of
``{"doc": ..., "page": ...}`` objects. ``also_pages`` (same forms) lists further pages that hold the
same fact: a comparison side counts as covered when one of its gold or ``also_pages`` pages is cited.

The document ``"sample"`` stands for the bundled sample document (``engine.samples``).
"""

from __future__ import annotations

import json
import logging
import os
import re
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from engine.config import REPO_ROOT
from engine.errors import LoupeError

logger = logging.getLogger(__name__)

SAMPLE_DOC = "sample"
"""The ``doc`` value that names the bundled sample document."""

SETS_DIR = Path(__file__).resolve().parent / "sets"
DEFAULT_CORPUS = REPO_ROOT.parent / "shared" / "corpus"
UNANSWERABLE_TYPES = frozenset({"unanswerable", "not_answerable", "none"})
MULTI_PAGE_TYPES = frozenset({"cross_page", "comparison", "bridge", "multi_page", "multi_hop"})
_UNANSWERABLE_TEXT = re.compile(r"^\s*(not answerable|unanswerable|n/?a|none|no answer)\s*\.?\s*$", re.I)


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class GoldPage(_Frozen):
    """A page the evidence is on. ``doc`` None means "any of the question's documents"."""

    doc: str | None = None
    page: int = Field(ge=1)


class EvalQuestion(_Frozen):
    """One question of a set, with its gold answer and gold pages."""

    id: str
    docs: tuple[str, ...] = Field(min_length=1, description="Document references as written in the set.")
    question: str
    answers: tuple[str, ...] = Field(default=(), description="Alternative gold answers (any may match).")
    gold_pages: tuple[GoldPage, ...] = ()
    also_pages: tuple[GoldPage, ...] = Field(default=(), description="Other pages that hold the same fact.")
    type: str = "unknown"
    line: int = Field(0, ge=0, description="Line number in the set file (1-based; 0 when built in code).")

    @property
    def unanswerable(self) -> bool:
        """True when the set says the documents do not answer the question."""
        if self.type.lower() in UNANSWERABLE_TYPES:
            return True
        return bool(self.answers) and all(_UNANSWERABLE_TEXT.match(a) for a in self.answers)

    @property
    def multi_page(self) -> bool:
        """Questions whose evidence spans 2+ pages, or of a multi-page type (cross_page, comparison, bridge)."""
        if self.unanswerable:
            return False
        return len(self.gold_pages) >= 2 or self.type.lower() in MULTI_PAGE_TYPES


class EvalSet(_Frozen):
    """A loaded question set."""

    name: str
    path: str
    questions: tuple[EvalQuestion, ...]


def resolve_set_path(spec: str | Path) -> Path:
    """The file a set argument names: an existing path, or the name of a bundled set (``sample``)."""
    path = Path(spec)
    if path.is_file():
        return path
    bundled = SETS_DIR / f"{Path(str(spec)).stem}.jsonl"
    if not path.suffix and bundled.is_file():
        return bundled
    available = ", ".join(sorted(p.stem for p in SETS_DIR.glob("*.jsonl"))) or "none"
    raise LoupeError(f"{spec}: no such question set; give a JSONL path or a bundled set ({available})")


def load_eval_set(
    spec: str | Path, *, limit: int | None = None, answerable_only: bool = False, name: str | None = None
) -> EvalSet:
    """Load a JSONL question set.

    Args:
        spec: A path, or the name of a bundled set.
        limit: Keep the first ``limit`` questions (after the ``answerable_only`` filter), in file order.
        answerable_only: Drop the questions the set marks as unanswerable.
        name: The set's display name (default: the file stem).

    Raises:
        LoupeError: missing file, malformed line (with its number), duplicate id, bad limit.
    """
    if limit is not None and limit < 1:
        raise LoupeError("--limit must be at least 1")
    path = resolve_set_path(spec)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        raise LoupeError(f"{path}: cannot read the question set ({error})") from None
    return parse_eval_lines(
        text, source=str(path), name=name or path.stem, limit=limit, answerable_only=answerable_only
    )


def parse_eval_lines(
    text: str, *, source: str = "<upload>", name: str = "upload", limit: int | None = None,
    answerable_only: bool = False,
) -> EvalSet:  # fmt: skip
    """Parse JSONL text (the body of a set file or an upload) into an ``EvalSet``; a byte-order mark is skipped."""
    text = text.removeprefix("\ufeff")
    questions: list[EvalQuestion] = []
    seen: set[str] = set()
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        question = parse_question_line(raw, number, source)
        if question.id in seen:
            raise LoupeError(f"{source}, line {number}: duplicate id {question.id!r}")
        seen.add(question.id)
        if answerable_only and question.unanswerable:
            continue
        questions.append(question)
    if not seen:
        raise LoupeError(f"{source}: the question set is empty")
    if limit is not None:
        questions = questions[:limit]
    return EvalSet(name=name, path=source, questions=tuple(questions))


def parse_question_line(raw: str, number: int, source: str = "<set>") -> EvalQuestion:
    """One JSONL line as an ``EvalQuestion``; ``LoupeError`` naming the line when it is malformed."""
    where = f"{source}, line {number}"
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as error:
        raise LoupeError(f"{where}: not valid JSON ({error.msg})") from None
    except RecursionError:
        raise LoupeError(f"{where}: the JSON is nested too deeply; a question is one flat object") from None
    if not isinstance(data, dict):
        raise LoupeError(f"{where}: expected a JSON object")
    question = data.get("question")
    if not isinstance(question, str) or not question.strip():
        raise LoupeError(f"{where}: 'question' must be a non-empty string")
    docs = _docs(data, where)
    return EvalQuestion(
        id=str(data.get("id") or f"line-{number}"),
        docs=docs,
        question=question.strip(),
        answers=_answers(data.get("answer"), where),
        gold_pages=_gold_pages(data.get("evidence_pages"), docs, where),
        also_pages=_gold_pages(data.get("also_pages"), docs, where, field="also_pages"),
        type=str(data.get("type") or "unknown"),
        line=number,
    )


def _docs(data: dict[str, Any], where: str) -> tuple[str, ...]:
    raw = data.get("docs", data.get("doc"))
    if isinstance(raw, str) and raw.strip():
        return (raw.strip(),)
    if isinstance(raw, list) and raw and all(isinstance(d, str) and d.strip() for d in raw):
        return tuple(dict.fromkeys(d.strip() for d in raw))
    raise LoupeError(f"{where}: 'doc' (a path) or 'docs' (a list of paths) is required")


def _answers(raw: Any, where: str) -> tuple[str, ...]:
    if raw is None:
        return ()
    if isinstance(raw, str | int | float) and not isinstance(raw, bool):
        return (str(raw),)
    if isinstance(raw, list) and all(isinstance(a, str | int | float) for a in raw):
        return tuple(str(a) for a in raw)
    raise LoupeError(f"{where}: 'answer' must be a string or a list of strings")


def _pages(raw: Any, where: str, field: str = "evidence_pages") -> tuple[int, ...]:
    if not isinstance(raw, list) or not all(isinstance(p, int) and not isinstance(p, bool) for p in raw):
        raise LoupeError(f"{where}: '{field}' must hold lists of page numbers or {{doc, page}} objects")
    if any(p < 1 for p in raw):
        logger.warning("%s: evidence pages are 1-based; page numbers below 1 ignored", where)
    return tuple(dict.fromkeys(p for p in raw if p >= 1))


def _gold_pages(raw: Any, docs: tuple[str, ...], where: str, field: str = "evidence_pages") -> tuple[GoldPage, ...]:
    if raw is None:
        return ()
    if isinstance(raw, dict):
        unknown = [d for d in raw if d not in docs]
        if unknown:
            raise LoupeError(f"{where}: {field} names a document not in 'docs': {unknown[0]!r}")
        return tuple(GoldPage(doc=d, page=p) for d, pages in raw.items() for p in _pages(pages, where, field))
    if isinstance(raw, list) and raw and all(isinstance(p, dict) for p in raw):
        return tuple(_page_object(p, docs, where, field) for p in raw)
    if isinstance(raw, list) and raw and all(isinstance(p, list) for p in raw):
        if len(raw) != len(docs):
            raise LoupeError(f"{where}: {field} has {len(raw)} lists for {len(docs)} documents")
        return tuple(
            GoldPage(doc=d, page=p) for d, pages in zip(docs, raw, strict=True) for p in _pages(pages, where, field)
        )
    pages = _pages(raw, where, field)
    doc = docs[0] if len(docs) == 1 else None
    return tuple(GoldPage(doc=doc, page=p) for p in pages)


def _page_object(raw: dict[str, Any], docs: tuple[str, ...], where: str, field: str) -> GoldPage:
    """One ``{"doc": ..., "page": ...}`` entry; the document must be one of the question's."""
    doc, page = raw.get("doc"), raw.get("page")
    if not isinstance(page, int) or isinstance(page, bool) or page < 1:
        raise LoupeError(f"{where}: every {field} entry needs a 1-based 'page' number")
    if doc is None and len(docs) == 1:
        doc = docs[0]
    if doc not in docs:
        raise LoupeError(f"{where}: {field} names a document not in 'docs': {doc!r}")
    return GoldPage(doc=doc, page=page)


def corpus_folders() -> tuple[Path, ...]:
    """The folders an operator lets the web app read question-set documents from.

    The default corpus (../shared/corpus) when it exists, then every existing folder listed in
    ``$LOUPE_EVAL_CORPORA`` (separated by ``os.pathsep``). Nothing else on the server is offered.
    """
    listed = [Path(p) for p in os.environ.get("LOUPE_EVAL_CORPORA", "").split(os.pathsep) if p.strip()]
    found = [p.resolve() for p in (DEFAULT_CORPUS, *listed) if p.is_dir()]
    return tuple(dict.fromkeys(found))


def resolve_doc(ref: str, corpus: Path | None = None) -> Path | None:
    """The PDF a document reference names inside ``corpus``; None for the bundled sample.

    A reference is a relative path inside the corpus folder. Absolute paths, ``..`` and symbolic links
    that lead out of the folder are refused with the same message as a missing file, so a question set
    can neither read files elsewhere on the server nor tell whether they exist.

    Raises:
        LoupeError: no regular file of that name inside the corpus folder.
    """
    if ref == SAMPLE_DOC:
        return None
    root = corpus or DEFAULT_CORPUS
    missing = LoupeError(
        f"{ref}: not found in the corpus folder {root.name or root} or the library (a document is a path "
        "relative to the corpus folder, chosen with --corpus DIR, or the file name of a library document)"
    )
    relative = Path(ref)
    if relative.is_absolute() or ".." in relative.parts or "\x00" in ref:
        raise missing
    try:
        base = root.resolve()
        path = (base / relative).resolve()
        inside = path.is_relative_to(base) and path.is_file()
    except (OSError, ValueError):
        inside = False
    if not inside:
        raise missing
    return path
