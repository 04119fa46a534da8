"""CLI commands over the run history and the library: ``runs list|show|delete``, ``export``,
``library list``, and the follow-up form of ``ask`` (``ask --follow-up RUN_ID "QUESTION"``)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engine.config import EngineConfig
from engine.contracts import RunResult
from engine.present.caveat_text import caveat_texts


def add_history_commands(sub: argparse._SubParsersAction) -> None:
    """Register ``runs``, ``export`` and ``library`` on the CLI's sub-command parser."""
    runs = sub.add_parser("runs", help="the saved runs (newest first)")
    runs_sub = runs.add_subparsers(dest="runs_command", required=True)
    listing = runs_sub.add_parser("list", help="list saved runs, newest first")
    listing.add_argument("--search", default="", help="keep runs whose question, answer or documents contain this")
    listing.add_argument("--limit", type=int, default=50)
    listing.add_argument("--json", action="store_true")
    show = runs_sub.add_parser("show", help="one saved run")
    show.add_argument("run_id")
    show.add_argument("--json", action="store_true")
    delete = runs_sub.add_parser("delete", help="delete a saved run")
    delete.add_argument("run_id")

    export = sub.add_parser("export", help="write a saved run's evidence pack (Markdown or PDF)")
    export.add_argument("run_id")
    export.add_argument("--format", choices=("md", "pdf"), required=True)
    export.add_argument("--out", required=True, help="file to write (Markdown also writes <stem>-images/)")

    library = sub.add_parser("library", help="the documents in the library")
    library_sub = library.add_subparsers(dest="library_command", required=True)
    library_sub.add_parser("list", help="list documents, newest first").add_argument("--json", action="store_true")


def human_result(result: RunResult) -> str:
    """A run as the CLI prints it without ``--json``."""
    lines = []
    if result.asked and result.asked != result.question:
        lines.append(f"understood as: {result.question}")
    lines += [result.answer.text, ""]
    lines += [
        f"  [{c.page}]{' (support)' if c.role == 'support' else ''} {c.quote[:120]}" for c in result.answer.citations
    ]
    lines += [f"strategy: {result.strategy_effective} ({result.strategy_reason})"]
    lines += [f"  {name:<20} {'ON ' if d.on else 'off'}  {d.reason}" for name, d in result.activations.items()]
    lines += [f"  {r.narration}" for r in result.history]
    pages = ", ".join(f"{p.file_name} p.{p.page}" for p in result.evidence_pages) or "none"
    lines += [f"evidence pages: {pages}", f"stop: {result.stop_reason} (exhausted: {result.exhausted})"]
    if result.picked_by:
        lines.append(f"documents picked by corpus-wide search: {result.picked_by}")
    lines += [f"caveat: {c}" for c in caveat_texts(result.answer.caveats)]
    if result.run_id:
        lines.append(
            f"run: {result.run_id}" + (f" (follow-up of {result.follow_up_of})" if result.follow_up_of else "")
        )
    return "\n".join(lines)


def _emit(payload: str, as_json: bool, human: str) -> None:
    sys.stdout.write((payload if as_json else human) + "\n")


def cmd_runs(args: argparse.Namespace, config: EngineConfig) -> None:
    from engine.history import open_run_store

    store = open_run_store(config)
    if args.runs_command == "list":
        if args.limit < 1:
            raise ValueError("--limit must be at least 1")
        rows = store.list(args.search, limit=args.limit)
        human = "\n".join(
            f"{r.run_id}  {r.created_at[:19].replace('T', ' ')}  {r.strategy:<12} "
            f"{'↳ ' if r.follow_up_of else ''}{r.question[:90]}"
            for r in rows
        )
        payload = json.dumps({"runs": [r.model_dump(mode="json") for r in rows]})
        _emit(payload, args.json, human or "no saved runs")
    elif args.runs_command == "show":
        result = store.get(args.run_id)
        _emit(result.model_dump_json(), args.json, human_result(result))
    else:
        store.delete(args.run_id)
        _emit("", False, f"deleted run {args.run_id}")


def cmd_export(args: argparse.Namespace, config: EngineConfig) -> None:
    from engine.history import open_run_store
    from engine.library import open_library
    from engine.present.export import export_run

    result = open_run_store(config).get(args.run_id)
    written = export_run(result, open_library(config).pdf_bytes, args.format, Path(args.out))
    _emit("", False, "wrote " + ", ".join(str(p) for p in written[:1]) + (
        f" and {len(written) - 1} image(s)" if len(written) > 1 else ""))  # fmt: skip


def cmd_library(args: argparse.Namespace, config: EngineConfig) -> None:
    from engine.library import open_library

    entries = open_library(config).entries()
    human = "\n".join(f"{e.doc_id[:12]}  {e.total_pages:>5} pages  {e.file_name}" for e in entries)
    payload = json.dumps({"documents": [e.model_dump(mode="json") for e in entries]})
    _emit(payload, args.json, human or "the library is empty")


def cmd_search_all(query: str, k: int, as_json: bool, config: EngineConfig) -> None:
    """``search --all "QUERY"``: the best passages of the whole library (one line per hit)."""
    from engine.api.corpus_search import search_library
    from engine.library import open_library

    library = open_library(config)
    hits = search_library(library, query, k)
    human = "\n".join(
        f"{i:>2}. {h.doc_id[:12]} {h.file_name[:40]:<40} p.{h.page:<4} {h.score:>8.4f} {h.text[:80]!r}"
        for i, h in enumerate(hits, start=1)
    )
    payload = json.dumps({"query": query, "scope": "library", "hits": [h.model_dump(mode="json") for h in hits]})
    _emit(payload, as_json, human or "no hits")
