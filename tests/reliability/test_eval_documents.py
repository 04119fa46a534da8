"""Question sets name documents inside the corpus folder or the library, never elsewhere on the server.

An uploaded JSONL whose ``doc`` is an absolute path or climbs out with ``..`` used to copy any PDF the
server could read into the shared library, and its error messages told whether a path existed.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from engine.config import REPO_ROOT, EngineConfig
from engine.errors import LoupeError
from engine.eval import dataset
from engine.eval.dataset import load_eval_set, parse_eval_lines, resolve_doc
from engine.eval.runner import ingest_documents
from engine.library.local import Library
from tests.reliability import pdfs
from tests.reliability.conftest import entry_dirs, run_cli

EVALUATE = str(REPO_ROOT / "pages" / "5_Evaluate.py")


@pytest.fixture
def server(tmp_path: Path) -> dict[str, Path]:
    """A corpus folder, and files outside it the server can read: a PDF, a non-PDF secret, a symlink out."""
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "inside.pdf").write_bytes(pdfs.text_pdf())
    private = tmp_path / "private"
    private.mkdir()
    (private / "payroll.pdf").write_bytes(pdfs.text_pdf(("Payroll: the director earns 1,234,567 a year.",)))
    (private / "shadow").write_text("root:$6$hash:19000:0:99999:7:::\n")
    (corpus / "link.pdf").symlink_to(private / "payroll.pdf")
    return {"corpus": corpus, "private": private}


def _set(*refs: str) -> str:
    return "\n".join(
        json.dumps({"id": f"q{n}", "doc": ref, "question": "What is earned?", "evidence_pages": [1]})
        for n, ref in enumerate(refs)
    )


def _failures(refs: list[str], corpus: Path | None, library: Library, library_only: bool = False) -> dict[str, str]:
    eval_set = parse_eval_lines(_set(*refs))
    docs = ingest_documents(eval_set.questions, library, corpus, library_only=library_only)
    return docs.failures | {ref: "" for ref in docs.ids}


def _outside_refs(server: dict[str, Path]) -> dict[str, str]:
    private = server["private"]
    return {
        "absolute pdf": str(private / "payroll.pdf"),
        "absolute non-pdf": str(private / "shadow"),
        "absolute missing": str(private / "nothing-here.pdf"),
        "climbing pdf": "../private/payroll.pdf",
        "climbing non-pdf": "../private/shadow",
        "climbing missing": "../private/nothing-here.pdf",
        "symlink out": "link.pdf",
        "folder": "../private",
    }


def test_set_documents_outside_the_corpus_are_never_read(server: dict[str, Path], config: EngineConfig) -> None:
    library = Library(config)
    refs = _outside_refs(server)
    failures = _failures(list(refs.values()), server["corpus"], library)
    assert library.entries() == [] and entry_dirs(library.root) == [], "a server file was copied into the library"
    for case, ref in refs.items():
        assert failures[ref], f"{case}: {ref} was ingested"


def test_refusals_do_not_tell_whether_a_path_exists(server: dict[str, Path], config: EngineConfig) -> None:
    """Existing PDF, existing non-PDF and missing file get one message (the reference itself aside)."""
    refs = _outside_refs(server)
    failures = _failures(list(refs.values()), server["corpus"], Library(config))
    shapes = {case: failures[ref].replace(ref, "<ref>") for case, ref in refs.items()}
    assert len(set(shapes.values())) == 1, shapes
    assert "not a pdf" not in next(iter(shapes.values())).lower()


def test_corpus_documents_and_library_names_still_resolve(server: dict[str, Path], config: EngineConfig) -> None:
    library = Library(config)
    assert resolve_doc("inside.pdf", server["corpus"]) == (server["corpus"] / "inside.pdf").resolve()
    assert _failures(["inside.pdf"], server["corpus"], library) == {"inside.pdf": ""}
    assert [e.file_name for e in library.entries()] == ["inside.pdf"]


def test_library_only_sets_read_no_folder(server: dict[str, Path], config: EngineConfig) -> None:
    library = Library(config)
    failures = _failures(["inside.pdf"], server["corpus"], library, library_only=True)
    assert failures["inside.pdf"] and "library" in failures["inside.pdf"]
    assert library.entries() == [], "library-only mode read the corpus folder"
    library.ingest(pdfs.text_pdf(), "inside.pdf")
    assert _failures(["inside.pdf"], None, library, library_only=True) == {"inside.pdf": ""}


def test_only_operator_folders_are_offered(server: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LOUPE_EVAL_CORPORA", os.pathsep.join([str(server["corpus"]), str(server["private"] / "no")]))
    folders = dataset.corpus_folders()
    assert server["corpus"].resolve() in folders
    assert all(f.is_dir() for f in folders)
    assert server["private"].resolve() not in folders


def _evaluate_page() -> AppTest:
    return AppTest.from_file(EVALUATE, default_timeout=120).run()


def test_evaluate_page_has_no_free_folder_box(library_dir: Path) -> None:
    at = _evaluate_page()
    assert not at.exception
    assert not any("folder" in t.label.lower() or "corpus" in t.label.lower() for t in at.text_input)
    chooser = next(s for s in at.selectbox if s.label == "Documents from")
    assert all(isinstance(option, str) and "/" not in option for option in chooser.options), chooser.options


@pytest.mark.timeout(180)
def test_evaluate_page_upload_reads_no_server_file(server: dict[str, Path], library_dir: Path) -> None:
    at = _evaluate_page()
    at.radio[0].set_value("Upload a JSONL file").run()
    hostile = _set(str(server["private"] / "payroll.pdf"), "../private/payroll.pdf", "../private/shadow")
    at.file_uploader[0].upload("hostile.jsonl", hostile.encode(), "application/jsonl").run()
    at.multiselect[0].set_value(["single_pass"]).run()
    next(b for b in at.button if b.label == "Run evaluation").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert entry_dirs(library_dir) == [], "the upload copied a server file into the library"
    warnings = [re.sub(r"\\(.)", r"\1", w.value) for w in at.warning]  # the messages as the visitor reads them
    assert len(warnings) == 3, warnings
    refs = [str(server["private"] / "payroll.pdf"), "../private/payroll.pdf", "../private/shadow"]
    shapes = {w.replace(ref, "<ref>") for w, ref in zip(warnings, refs, strict=True)}
    assert len(shapes) == 1 and "not a PDF" not in warnings[2], warnings


# ------------------------------------------------------------------------------------------------
# Malformed sets: one clear message
# ------------------------------------------------------------------------------------------------


def test_set_with_a_byte_order_mark_loads(tmp_path: Path) -> None:
    path = tmp_path / "bom.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + _set("sample").encode())
    assert len(load_eval_set(path).questions) == 1
    assert len(parse_eval_lines("\ufeff" + _set("sample")).questions) == 1


def test_deeply_nested_json_is_one_clear_error(tmp_path: Path, library_dir: Path) -> None:
    deep = '{"id": "x", "doc": "sample", "question": "Why?", "answer": ' + "[" * 100_000 + "]" * 100_000 + "}"
    with pytest.raises(LoupeError, match="nested too deeply"):
        parse_eval_lines(deep)
    path = tmp_path / "deep.jsonl"
    path.write_text(deep)
    proc = run_cli(["eval", str(path)], library_dir)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.strip().count("\n") == 0 and proc.stderr.startswith("error: "), proc.stderr
    assert "nested too deeply" in proc.stderr
