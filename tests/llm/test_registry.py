"""The backend registry, the factory and ``FallbackBackend``."""

from __future__ import annotations

import sys
import types

import pytest

from engine.config import BackendConfig
from engine.contracts import BackendReply, LlmUsage, SubQueryPlan, TaskRequest
from engine.errors import BackendStepError, BackendUnavailableError
from engine.llm import BACKEND_NAMES, BACKENDS, BackendSpec, FallbackBackend, make_backend, rules_backend
from engine.llm.offline import OfflineBackend

REQUEST = TaskRequest(question="What mean turbidity does Table 3 report for Station B?")


class Failing:
    name = "flaky"

    def __init__(self, error: Exception) -> None:
        self.error = error
        self.calls = 0

    def run(self, task, request, output_type):
        self.calls += 1
        raise self.error


def test_the_registry_names_every_backend_and_the_factory_builds_each_offline_one():
    assert tuple(BACKENDS) == BACKEND_NAMES and "offline" in BACKEND_NAMES and "openai" in BACKEND_NAMES
    assert isinstance(make_backend(BackendConfig()), OfflineBackend)
    assert rules_backend().name == "offline"


def test_an_unknown_backend_is_a_clear_error():
    with pytest.raises(BackendUnavailableError, match="unknown backend 'nope'; choose one of offline, openai"):
        make_backend(BackendConfig(kind="nope"))


def _register(monkeypatch, name: str, network: bool = False) -> None:
    """A backend module holding one class, and its one registry line."""
    module = types.ModuleType(f"tests_fake_{name}")
    module.Backend = type(f"{name.title()}Backend", (OfflineBackend,), {"name": name})  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, module.__name__, module)
    monkeypatch.setitem(BACKENDS, name, BackendSpec(f"{module.__name__}:Backend", name.title(), network=network))


def test_adding_a_backend_is_one_module_and_one_registry_line(monkeypatch):
    _register(monkeypatch, "echo")
    backend = make_backend(BackendConfig(kind="echo"))
    assert backend.name == "echo" and not isinstance(backend, FallbackBackend)
    assert backend.run("plan_subqueries", REQUEST, SubQueryPlan).value.sub_queries


def test_a_network_backend_comes_wrapped_with_the_offline_rules_as_fallback(monkeypatch):
    _register(monkeypatch, "remote", network=True)
    backend = make_backend(BackendConfig(kind="remote"))
    assert isinstance(backend, FallbackBackend) and backend.name == "remote"
    assert isinstance(backend.fallback, OfflineBackend)


def test_fallback_records_the_primary_cause_once_with_what_it_spent():
    spent = LlmUsage(calls=2, prompt_tokens=40, completion_tokens=3, seconds=1.5)
    primary = Failing(BackendStepError("the endpoint answered HTTP 500", usage=spent))
    reply = FallbackBackend(primary, OfflineBackend()).run("plan_subqueries", REQUEST, SubQueryPlan)
    assert primary.calls == 1
    assert reply.fallback is not None and reply.fallback.task == "plan_subqueries"
    assert reply.fallback.reason == "the endpoint answered HTTP 500"
    assert reply.usage == spent, "the cost is the primary's, not the rules' estimate"
    assert reply.value == OfflineBackend().run("plan_subqueries", REQUEST, SubQueryPlan).value


def test_fallback_names_an_unexpected_failure_by_its_type():
    reply = FallbackBackend(Failing(RuntimeError("boom")), OfflineBackend()).run(
        "plan_subqueries", REQUEST, SubQueryPlan
    )
    assert reply.fallback is not None and reply.fallback.reason == "RuntimeError: boom"
    assert reply.usage.calls == 1


def test_a_healthy_primary_is_used_as_is():
    class Fine:
        name = "fine"

        def run(self, task, request, output_type):
            return BackendReply(value=OfflineBackend().run(task, request, output_type).value, usage=LlmUsage(calls=1))

    reply = FallbackBackend(Fine(), OfflineBackend()).run("plan_subqueries", REQUEST, SubQueryPlan)
    assert reply.fallback is None and reply.usage == LlmUsage(calls=1)


def test_every_task_is_one_registry_entry_with_its_output_schema_prompt_limits_and_rule():
    from typing import get_args

    from engine.contracts import TASK_OUTPUTS, TaskName
    from engine.llm.tasks import TASKS

    assert set(TASKS) == set(get_args(TaskName)) == set(TASK_OUTPUTS)
    for name, spec in TASKS.items():
        assert spec.output is TASK_OUTPUTS[name] and spec.prompt.strip() and spec.limits.max_tokens > 0
        assert callable(spec.rule)


def test_offline_answers_never_load_the_http_client(tmp_path):
    """The bounded HTTP transport (and with it ``httpx2`` and ``openai``) is imported when an endpoint is used:
    a fresh interpreter that answers with the offline rules loads neither."""
    import subprocess

    from engine.config import REPO_ROOT
    from tests import pdfs

    pdf = tmp_path / "notes.pdf"
    pdf.write_bytes(pdfs.pdf_with_outline())
    script = (
        "import sys, engine\n"
        "from engine.config import EngineConfig, LibraryConfig\n"
        f"config = EngineConfig(library=LibraryConfig(path={str(tmp_path / 'lib')!r}))\n"
        f"entry = engine.ingest(open({str(pdf)!r}, 'rb').read(), 'notes.pdf', config=config)\n"
        "result = engine.answer('What regularization is used in training?', [entry.doc_id], config=config)\n"
        "print(bool(result.answer.citations), sorted(m for m in sys.modules if m.startswith(('httpx', 'openai'))))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=REPO_ROOT, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.splitlines()[-1].endswith(" []"), out.stdout
