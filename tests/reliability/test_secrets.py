"""Secrets and access: the API key never leaks; deleted documents leave nothing to serve."""

from __future__ import annotations

import gc
import logging
import tomllib
from pathlib import Path

import pytest

from engine.api import answer
from engine.config import REPO_ROOT, BackendConfig, EngineConfig
from engine.contracts import ParsedQuestion, TaskRequest
from engine.errors import DocumentNotFoundError, LoupeError
from engine.library.local import Library
from engine.llm import allow_network, make_backend
from tests.reliability import pdfs
from tests.reliability.conftest import SECRET, net_config, run_cli
from tests.reliability.fault_server import closed_port

QUESTION = "What did the Heron survey measure at the twelve stations?"


def _files_containing(root: Path, needle: bytes) -> list[str]:
    found = []
    for path in root.rglob("*"):
        try:
            if path.is_file() and needle in path.read_bytes():
                found.append(str(path))
        except FileNotFoundError:  # a temporary file renamed into place while the folder is walked
            continue
    return found


def _cache_dump(obj: object, depth: int = 0, seen: set[int] | None = None) -> str:
    """repr of everything reachable from ``obj`` through instance dicts, containers and slots."""
    seen = seen if seen is not None else set()
    if id(obj) in seen or depth > 6:
        return ""
    seen.add(id(obj))
    parts = [repr(obj)[:10000]]
    if isinstance(obj, dict):
        children = [*obj.keys(), *obj.values()]
    elif isinstance(obj, (list, tuple, set, frozenset)):
        children = list(obj)
    else:
        children = list(getattr(obj, "__dict__", {}).values())
    for child in children[:5000]:
        if not isinstance(child, (str, int, float, bytes, type(None))):
            parts.append(_cache_dump(child, depth + 1, seen))
        elif isinstance(child, (str, bytes)):
            parts.append(repr(child))
    return "\n".join(parts)


@pytest.mark.timeout(180)
@pytest.mark.parametrize("fault", ["echo_key", "5xx", "ok", "refused"])
def test_api_key_never_leaks(
    fault: str,
    fault_server,
    library_dir: Path,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    caplog.set_level(logging.DEBUG)
    base_url = f"http://127.0.0.1:{closed_port()}/v1" if fault == "refused" else fault_server(fault).base_url
    config = net_config(library_dir, base_url)
    library = Library(config)
    doc_id = library.ingest(pdfs.text_pdf(), "heron.pdf").doc_id
    with allow_network(True):
        result = answer(QUESTION, [doc_id], config=config, library=library, strategy="dispatched")
        index = library.load(doc_id)
        index.search("turbidity stations", "fused", k=4)
    exported = result.model_dump_json()
    assert SECRET not in exported, "the key is in the exported RunResult"
    assert all(SECRET not in f.reason for f in result.fallbacks)
    assert SECRET not in caplog.text, "the key is in the logs"
    assert not _files_containing(library_dir, SECRET.encode()), "the key is in the library folder"
    assert SECRET not in config.model_dump_json() and SECRET not in repr(config) and SECRET not in str(config)
    assert SECRET not in config.fingerprint()
    cache = getattr(index, "retrieval_cache", None)
    assert cache is not None, "DocumentIndex exposes no retrieval cache to inspect"
    assert SECRET not in _cache_dump(cache), "the key is in the retrieval cache"


@pytest.mark.timeout(60)
def test_backend_errors_do_not_carry_the_key(fault_server) -> None:
    server = fault_server("echo_key")
    with allow_network(True):
        backend = make_backend(
            BackendConfig(
                kind="openai",
                model="fault-model",
                base_url=server.base_url,
                api_key=SECRET,
                timeout_seconds=1,
                max_retries=0,
            )
        )
    messages: list[str] = []
    for allowed in (True, False):
        with allow_network(allowed):
            try:
                reply = backend.run("parse_question", TaskRequest(question=QUESTION), ParsedQuestion)
                messages.append(reply.fallback.reason if reply.fallback else "")
            except LoupeError as error:
                messages.append(f"{error!s} {error!r} {error.__cause__!r} {error.__context__!r}")
    assert server.count() >= 1, "the echoing endpoint was never reached"
    assert messages and all(SECRET not in m for m in messages), messages
    assert SECRET not in repr(backend) and SECRET not in str(vars(backend))


@pytest.mark.timeout(120)
def test_cli_never_prints_the_key(fault_server, tmp_path: Path, library_dir: Path) -> None:
    server = fault_server("echo_key")
    pdf = tmp_path / "heron.pdf"
    pdf.write_bytes(pdfs.text_pdf())
    proc = run_cli(
        ["-v", "ask", str(pdf), QUESTION, "--backend", "openai", "--base-url", server.base_url, "--json"],
        library_dir, OPENAI_API_KEY=SECRET, LOUPE_NO_NETWORK="",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert server.count() >= 1
    assert SECRET not in proc.stdout and SECRET not in proc.stderr
    assert not _files_containing(library_dir, SECRET.encode())


def test_streamlit_config_keeps_xsrf_and_an_upload_limit() -> None:
    settings = tomllib.loads((REPO_ROOT / ".streamlit" / "config.toml").read_text())
    server = settings.get("server", {})
    assert server.get("enableXsrfProtection") is True
    assert server.get("enableCORS", True) is True, "XSRF protection needs CORS protection on"
    limit = server.get("maxUploadSize")
    assert isinstance(limit, int) and 0 < limit <= EngineConfig().library.max_file_mb


# ------------------------------------------------------------------------------------------------
# Delete: folder, index and cached retrieval results are gone
# ------------------------------------------------------------------------------------------------


@pytest.mark.timeout(120)
def test_deleted_document_leaves_nothing_to_serve(config: EngineConfig, library_dir: Path) -> None:
    library = Library(config)
    data = pdfs.text_pdf((f"Delete check {library_dir.parent.name}. " + pdfs.BODY,))  # bytes no other test cached
    doc_id = library.ingest(data, "heron.pdf").doc_id
    query = "turbidity stations"
    assert not library.load(doc_id).search(query, "fused", k=4).from_cache
    assert library.load(doc_id).search(query, "fused", k=4).from_cache, "the retrieval cache is not in use"
    library.delete(doc_id)
    assert not (library_dir / doc_id).exists(), "the document folder survived delete"
    leftovers = [p for p in library_dir.rglob("*") if doc_id in str(p) and p.parent.name != ".locks"]
    assert not leftovers, f"files of the deleted document remain: {leftovers}"
    for lib in (library, Library(config)):
        assert lib.entries() == []
        with pytest.raises(DocumentNotFoundError):
            lib.get(doc_id)
        with pytest.raises(DocumentNotFoundError):
            lib.load(doc_id)
    # the same bytes again: a fresh entry, not results cached for the deleted one
    again = library.ingest(data, "heron.pdf")
    assert again.doc_id == doc_id
    first = library.load(doc_id).search(query, "fused", k=4)
    assert not first.from_cache, "cached results of a deleted document were served"
    # different bytes under the same name: only its own chunks, never the deleted one's
    library.delete(doc_id)
    other = library.ingest(pdfs.text_pdf(("Turbidity stations were replaced by new rainfall gauges.",)), "heron.pdf")
    assert other.doc_id != doc_id
    hits = library.load(other.doc_id).search(query, "fused", k=4)
    assert not hits.from_cache
    assert hits.hits and all(h.chunk.doc_id == other.doc_id for h in hits.hits)
    gc.collect()
