"""The command line: ``python -m engine [--user NAME] ingest|search|ask|eval|runs|export|library|collections|audit``.

With access control on (``$LOUPE_ADMINS``) every command acts as ``--user`` (or ``$LOUPE_USER``) and is
refused without one (``engine.cli.collections``). See README.md.

With ``--json`` the last line of stdout is one JSON object. Bad input exits 2 with one line
``error: ...`` on stderr and no traceback.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import os
import stat
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from engine.cli.collections import acting_config, add_access_commands, cmd_audit, cmd_collections
from engine.cli.history_commands import (
    add_history_commands,
    cmd_export,
    cmd_library,
    cmd_runs,
    cmd_search_all,
    human_result,
)
from engine.cli.lazy_arguments import LazyArgumentsParser, calibrate_arguments, eval_arguments
from engine.config import BYTES_PER_MB, EngineConfig
from engine.contracts import BudgetOverride
from engine.errors import DocumentTooLargeError, LoupeError
from engine.llm import BACKEND_NAMES
from engine.run.strategies import STRATEGY_NAMES

logger = logging.getLogger("engine.cli")

EMBEDDINGS_KEY_ENV = "LOUPE_EMBEDDINGS_API_KEY"
"""The key of an embeddings endpoint other than the chat endpoint (an environment variable, not a flag: a flag's
value shows in the process list)."""


class CliError(Exception):
    """Bad input on the command line."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m engine", description="Loupe engine: dispatched RAG over PDFs.")
    parser.add_argument("-v", "--verbose", action="store_true", help="log progress to stderr")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=LazyArgumentsParser)

    ingest = sub.add_parser("ingest", help="add a PDF to the library and print its profile")
    ingest.add_argument("file")
    ingest.add_argument("--collection", default=None, help="the collection it goes to (access control on)")
    ingest.add_argument("--json", action="store_true")

    search = sub.add_parser("search", help="ranked hits for a query (ingests on first use), or across the library")
    search.add_argument("args", nargs="+", metavar="FILE.pdf QUERY")
    search.add_argument("--all", action="store_true", help="search every document of the library (give only QUERY)")
    search.add_argument("--k", type=int, default=8)
    search.add_argument("--retriever", choices=("keyword", "toc", "dense", "fused"), default="fused")
    search.add_argument("--json", action="store_true")

    ask = sub.add_parser("ask", help="answer a question over one or more PDFs (the run is saved in the history)")
    ask.add_argument("args", nargs="+", metavar="FILE.pdf ... QUESTION")
    ask.add_argument("--follow-up", default=None, metavar="RUN_ID",
                     help="ask a follow-up of a saved run (its documents; give only the question)")  # fmt: skip
    ask.add_argument("--doc", action="append", default=[], metavar="DOC_ID",
                     help="a library document by id (or unique prefix); repeatable")  # fmt: skip
    ask.add_argument("--all", action="store_true",
                     help="ask the whole library: a corpus-wide search picks the documents (give only the question)")  # fmt: skip
    ask.add_argument("--strategy", choices=STRATEGY_NAMES, default="auto")
    ask.add_argument("--backend", choices=BACKEND_NAMES, default="offline")
    ask.add_argument("--model", default=None, help="model name for a model backend (openai)")
    ask.add_argument("--base-url", default=None, help="OpenAI-compatible endpoint (default $OPENAI_BASE_URL)")
    ask.add_argument("--timeout", type=float, default=None, help="seconds one request may take (--backend openai)")
    ask.add_argument("--context-window", type=int, default=None, help="the model's context window, in tokens")
    ask.add_argument("--embeddings-model", default=None,
                     help="rank dense retrieval with this model's vectors (POST /v1/embeddings; default: offline LSA)")  # fmt: skip
    ask.add_argument("--embeddings-url", default=None,
                     help="embeddings endpoint (default: the chat endpoint); needs --embeddings-model; its key is "
                     f"${EMBEDDINGS_KEY_ENV} (never the chat endpoint's key)")  # fmt: skip
    for flag, kind in (
        ("--max-iterations", int), ("--max-llm-calls", int), ("--max-retrieval-calls", int),
        ("--max-unique-queries", int), ("--max-context-tokens", int), ("--max-seconds", float),
    ):  # fmt: skip
        ask.add_argument(flag, type=kind, default=None)
    ask.add_argument("--json", action="store_true")

    sub.add_parser("eval", help="evaluate strategies on a JSONL question set", arguments=eval_arguments)
    sub.add_parser(
        "calibrate", help="refit the calibrated confidence on the training split", arguments=calibrate_arguments
    )
    add_history_commands(sub)
    add_access_commands(parser, sub)
    return parser


def _read_pdf(path_text: str, config: EngineConfig) -> tuple[bytes, str]:
    """The bytes and name of a PDF given on the command line; ``CliError`` naming what is wrong with the path."""
    path = Path(path_text)
    try:
        info = path.stat()
    except FileNotFoundError:
        raise CliError(f"{path_text}: no such file; check the path") from None
    except OSError as error:
        raise CliError(f"{path_text}: cannot read it ({error.strerror or type(error).__name__})") from None
    if stat.S_ISDIR(info.st_mode):
        raise CliError(f"{path_text} is a folder; give the path of a PDF file")
    if not stat.S_ISREG(info.st_mode):
        raise CliError(f"{path_text} is not a regular file (a pipe, socket or device); give the path of a PDF file")
    limit = config.library.max_file_mb * BYTES_PER_MB
    if info.st_size > limit:
        raise DocumentTooLargeError(
            f"{path.name} is {info.st_size / BYTES_PER_MB:.1f} MB, over the {config.library.max_file_mb:g} MB "
            "limit; split it into smaller files or raise the library size limit"
        )
    try:
        with path.open("rb") as handle:
            data = handle.read(int(limit) + 1)
    except OSError as error:
        raise CliError(f"{path_text}: cannot read it ({error.strerror or type(error).__name__})") from None
    return data, path.name


def _budget_override(args: argparse.Namespace) -> BudgetOverride:
    """The ``--max-*`` flags as a BudgetOverride; ``CliError`` naming the flag when one is out of range."""
    values = {name: getattr(args, name) for name in BudgetOverride.model_fields}
    for name, value in values.items():
        if isinstance(value, float) and not math.isfinite(value):
            raise CliError(f"--{name.replace('_', '-')} must be a finite number, not {value}")
    try:
        return BudgetOverride(**values)
    except ValidationError as error:
        first = error.errors(include_url=False)[0]
        flag = "--" + "-".join(str(part) for part in first["loc"]).replace("_", "-")
        message = first["msg"].replace("Input should be", "must be")
        raise CliError(f"{flag} {message} (got {first.get('input')!r})") from None


def _emit(payload: str, as_json: bool, human: str) -> None:
    sys.stdout.write((payload if as_json else human) + "\n")


def _cmd_ingest(args: argparse.Namespace, config: EngineConfig) -> None:
    from engine.library import open_library

    data, name = _read_pdf(args.file, config)
    # nothing is asked before both indexes are built: the worker builds them at once, on both cores, and this
    # process only moves them into the entry
    quick = {"dense_after_keyword": False, "load_after_ingest": False}
    library = open_library(config.model_copy(update={"library": config.library.model_copy(update=quick)}))
    watch = _WriteFailures()
    logging.getLogger("engine.library").addHandler(watch)
    try:
        entry = library.ingest(data, name)
        _indexes_built(library, watch)
    finally:
        logging.getLogger("engine.library").removeHandler(watch)
    p = entry.profile
    human = (
        f"{p.file_name}: {p.total_pages} pages, outline {p.toc_entries} entries (usable: {p.has_usable_toc}), "
        f"scanned: {p.is_likely_scanned}, tables: {p.has_tables}, suggested: {p.suggested_strategy}\n"
        f"doc_id {p.doc_id}"
    )
    _emit(p.model_dump_json(), args.json, human)


class _WriteFailures(logging.Handler):
    """Collects the file-system errors (``OSError``) the library logs while this process works: the background
    index builds of an ingest report their failures only to the log."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.errors: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, OSError):
            self.errors.append(error.strerror or type(error).__name__)


def _indexes_built(library: Any, watch: _WriteFailures) -> None:
    """Wait for this process's background index builds; ``CliError`` when one could not write its files (a full
    disk): the command must not end in success with the document unsearchable. Another process's build of the
    same document is not this command's to judge."""
    wait = getattr(library, "wait_for_background", None)
    if wait is not None:
        wait()
    if watch.errors:
        raise CliError(
            f"the document was added, but its search indexes could not be written ({watch.errors[0]}); free some "
            "space and run the command again (the next question also builds them)"
        )


def _cmd_search(args: argparse.Namespace, config: EngineConfig) -> None:
    from engine.library import open_library

    if args.k < 1:
        raise CliError("--k must be at least 1")
    if args.all:
        if len(args.args) != 1:
            raise CliError('with --all give only the query: search --all "QUERY"')
        cmd_search_all(args.args[0], args.k, args.json, config)
        return
    if len(args.args) != 2:
        raise CliError('search needs a PDF and a query: search FILE.pdf "QUERY" (or search --all "QUERY")')
    data, name = _read_pdf(args.args[0], config)
    library = open_library(config)
    entry = library.ingest(data, name)
    ranked = library.load(entry.doc_id).search(args.args[1], args.retriever, k=args.k)
    # a fused search appends the best hit of further pages (RetrievalConfig.min_pages); --k is a hard cap here
    rows = [
        {"rank": h.rank, "page": h.chunk.page, "score": round(h.score, 4), "retriever": h.retriever,
         "chunk_id": h.chunk.chunk_id, "text": h.chunk.text}
        for h in ranked.hits[: args.k]
    ]  # fmt: skip
    lines = [
        f"{h.rank:>2}. p.{h.chunk.page:<4} {h.score:>8.4f} {h.retriever:<8} {h.chunk.text[:100]!r}"
        for h in ranked.hits[: args.k]
    ]
    human = "\n".join(lines) or "no hits"
    _emit(json.dumps({"query": args.args[1], "retriever": args.retriever, "hits": rows}), args.json, human)


def _cmd_ask(args: argparse.Namespace, config: EngineConfig) -> None:
    from engine.api import answer, check_bounds, check_question_length
    from engine.history import open_run_store
    from engine.library import open_library

    if args.follow_up or args.doc or args.all:
        if len(args.args) != 1:
            raise CliError('with --follow-up, --doc or --all give only the question: ask --doc DOC_ID "QUESTION"')
        files, question = [], args.args[0]
    elif len(args.args) < 2:
        raise CliError('ask needs at least one PDF and a question: ask FILE.pdf "QUESTION"')
    else:
        *files, question = args.args
    if sum((bool(args.follow_up), bool(args.doc), args.all)) > 1:
        raise CliError("give one of --follow-up (a run's documents), --doc (documents by id) or --all (the library)")
    override = _budget_override(args)
    flags = (args.model, args.base_url, args.timeout, args.context_window, args.embeddings_model, args.embeddings_url)
    if args.backend != config.backend.kind or any(v is not None for v in flags):
        config = config.model_copy(update={"backend": _backend_settings(args, config)})
    check_question_length(question)  # every bound before any work (an ingest, a corpus-wide search)
    check_bounds(override, config)
    library = open_library(config)
    store = None
    if args.follow_up:
        from engine.api.conversation import follow_up

        store = open_run_store(config)
        previous = store.get(args.follow_up)
        result = follow_up(question, previous, config=config, strategy=args.strategy, budget=override,
                           library=library)  # fmt: skip
    elif args.all:
        from engine.api.corpus_search import ask_library

        result = ask_library(question, config=config, library=library, strategy=args.strategy, budget=override)
    else:
        doc_ids = [library.get(d).doc_id for d in args.doc]
        doc_ids += [library.ingest(*_read_pdf(f, config)).doc_id for f in files]
        result = answer(question, doc_ids, config=config, strategy=args.strategy, budget=override, library=library)
    result = _saved(result, store, config)
    _emit(result.model_dump_json(), args.json, human_result(result))


def _saved(result, store, config: EngineConfig):
    """``result`` saved in the run history; when it cannot be (a read-only library, a full disk, a database that is
    down) a warning goes to stderr and the answer is still printed, without a run id (nothing to look up later)."""
    from engine.history import open_run_store
    from engine.history.run_store import save_run

    try:
        store = store or open_run_store(config)
        warning = save_run(store, result)
    except LoupeError as error:
        warning = f"the run was not saved in the history ({_one_line(error)})"
    if warning is None:
        return result
    sys.stderr.write(f"warning: {warning}; the answer is printed below without a run id\n")
    return result.model_copy(update={"run_id": ""})


def _backend_settings(args: argparse.Namespace, config: EngineConfig):
    """The backend settings ``ask`` asks for (validated: a bad value is a CLI error)."""
    chosen = {"model": args.model, "base_url": args.base_url, "timeout_seconds": args.timeout,
              "context_window_tokens": args.context_window, "embeddings_model": args.embeddings_model,
              "embeddings_url": args.embeddings_url}  # fmt: skip
    if args.embeddings_url and not (args.embeddings_model or config.backend.embeddings_model):
        raise CliError("--embeddings-url needs --embeddings-model (the model the endpoint embeds with)")
    update = {"kind": args.backend, **{k: v for k, v in chosen.items() if v is not None}}
    key = os.environ.get(EMBEDDINGS_KEY_ENV, "").strip()
    if key:
        update["embeddings_api_key"] = key
    try:
        return type(config.backend).model_validate({**config.backend.model_dump(), **update})
    except ValidationError as error:
        first = error.errors(include_url=False)[0]
        raise CliError(
            f"--{str(first['loc'][0]).replace('_seconds', '').replace('_tokens', '').replace('_', '-')}: {first['msg']}"
        ) from None


def _cmd_eval(args: argparse.Namespace, config: EngineConfig) -> None:
    from engine.eval.command import run_eval_command

    run_eval_command(args, config)


def _cmd_calibrate(args: argparse.Namespace, config: EngineConfig) -> None:
    from engine.cli.calibrate import cmd_calibrate

    cmd_calibrate(args, config)


COMMANDS = {
    "ingest": _cmd_ingest, "search": _cmd_search, "ask": _cmd_ask, "eval": _cmd_eval, "calibrate": _cmd_calibrate,
    "runs": cmd_runs, "export": cmd_export, "library": cmd_library,
    "collections": cmd_collections, "audit": cmd_audit,
}  # fmt: skip


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    before = list(logging.getLogger().handlers)
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING, format="%(levelname)s %(name)s: %(message)s"
    )
    if not args.verbose:  # only the handler made here: an embedding program's own handlers keep their tracebacks
        for handler in logging.getLogger().handlers:
            if handler not in before:
                handler.setFormatter(_OneLine("%(levelname)s %(name)s: %(message)s"))
    try:
        COMMANDS[args.command](args, acting_config(args, EngineConfig()))
    except (LoupeError, CliError, ValueError) as error:
        sys.stderr.write(f"error: {_one_line(error)}\n")
        return 2
    except OSError as error:  # the library folder or a file: a disk that is full, read-only or forbidden
        where = f" ({error.filename})" if error.filename else ""
        sys.stderr.write(
            f"error: {error.strerror or _one_line(error)}{where}; check the path, its permissions and free space\n"
        )
        return 2
    except MemoryError:
        sys.stderr.write("error: out of memory; try a smaller document or fewer documents at once\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("error: interrupted\n")
        return 130
    except Exception as error:
        logger.debug("unexpected failure", exc_info=True)
        sys.stderr.write(f"error: unexpected failure ({type(error).__name__}: {_one_line(error)}); rerun with -v\n")
        return 1
    return 0


class _OneLine(logging.Formatter):
    """Log lines without their tracebacks (one line each; ``-v`` keeps them): a failing background build printed
    some 60 lines of chained tracebacks for one full disk."""

    def format(self, record: logging.LogRecord) -> str:
        saved = record.exc_info, record.exc_text
        record.exc_info, record.exc_text = None, None
        try:
            return super().format(record)
        finally:
            record.exc_info, record.exc_text = saved


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split()) or type(error).__name__
