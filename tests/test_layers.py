"""The import structure: no circle in engine/, pages use only engine's public API (the other layer rules
are import-linter contracts in pyproject.toml, run by ``lint-imports`` in .ci/run)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import grimp

from engine.config import REPO_ROOT

PUBLIC_API = {"engine", "engine.eval"}


def _cycles(adjacency: dict[str, list[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in adjacency[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 5000))
    for node in adjacency:
        if node not in index:
            visit(node)
    return found


def test_cycle_finder_finds_a_circle():
    assert _cycles({"a": ["b"], "b": ["c"], "c": ["a"], "d": ["a"]}) == [["a", "b", "c"]]
    assert _cycles({"a": ["b"], "b": []}) == []


def test_no_import_circle_in_engine():
    graph = grimp.build_graph("engine")
    adjacency = {m: sorted(graph.find_modules_directly_imported_by(m)) for m in graph.modules}
    assert _cycles(adjacency) == []


def _engine_imports(path: Path) -> set[str]:
    modules: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "engine":
            modules.add(node.module)
        elif isinstance(node, ast.Import):
            modules |= {a.name for a in node.names if a.name.split(".")[0] == "engine"}
    return modules


def test_pages_import_only_the_public_api():
    files = [REPO_ROOT / "app.py", *sorted((REPO_ROOT / "pages").glob("*.py"))]
    assert len(files) > 1
    for path in files:
        assert _engine_imports(path) <= PUBLIC_API, f"{path.name} imports {_engine_imports(path) - PUBLIC_API}"


MAX_MODULE_LINES = 400


def test_every_module_is_at_most_400_lines():
    files = [*REPO_ROOT.glob("engine/**/*.py"), *REPO_ROOT.glob("ui/**/*.py"), *REPO_ROOT.glob("pages/*.py")]
    long = {
        str(p.relative_to(REPO_ROOT)): n
        for p in files
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert long == {}, f"split these along their seams: {long}"


def test_each_engine_module_name_exists_once_and_stays_short():
    """A module name says where a concept lives: two modules of one name (outside packages' own
    ``__init__``/``__main__``) make a reader guess; a module over 400 lines does too many things."""
    engine = Path(__file__).resolve().parents[1] / "engine"
    modules = [p for p in engine.rglob("*.py") if "__pycache__" not in p.parts]
    names = [p.name for p in modules if p.name not in ("__init__.py", "__main__.py")]
    assert sorted(n for n in set(names) if names.count(n) > 1) == []
    long = {str(p.relative_to(engine)): n for p in modules if (n := len(p.read_text().splitlines())) > 400}
    assert long == {}
