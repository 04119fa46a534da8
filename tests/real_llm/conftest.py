"""A real model on 127.0.0.1 for the ``real_llm`` tests: found from the environment, or started here.

``.ci/run`` builds llama-cpp-python's server, starts it on a free loopback port with the
SmolLM2-135M-Instruct GGUF and exports ``LOUPE_REAL_LLM_URL`` (its ``/v1`` base URL). Locally, either
export that variable for a server you run, or set ``LOUPE_LLAMA_PYTHON`` (a Python with
``llama-cpp-python[server]``) and ``LOUPE_LLAMA_MODEL`` (a GGUF file) and the fixture starts one for
the session. With neither, the tests skip; under ``CI=true`` they fail instead, so a CI run that lost
its server cannot pass by skipping.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.llm.network import is_loopback

URL_VARIABLE = "LOUPE_REAL_LLM_URL"
PYTHON_VARIABLE = "LOUPE_LLAMA_PYTHON"
MODEL_VARIABLE = "LOUPE_LLAMA_MODEL"
READY_SECONDS = 180.0


def server_ready(base_url: str, wait_seconds: float) -> bool:
    """True once ``GET {base_url}/models`` answers 200 with a model list, polled up to ``wait_seconds``."""
    deadline = time.monotonic() + wait_seconds
    while True:
        try:
            with urllib.request.urlopen(f"{base_url.rstrip('/')}/models", timeout=5) as response:
                if response.status == 200 and "data" in json.loads(response.read()):
                    return True
        except (OSError, urllib.error.URLError, ValueError):
            pass
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.5)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _unavailable(message: str) -> None:
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(f"real_llm: {message} (CI must provide the server: see .ci/run)")
    pytest.skip(f"real_llm: {message}")


@pytest.fixture(scope="session")
def real_llm_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The ``/v1`` base URL of a real OpenAI-compatible model server on 127.0.0.1."""
    url = os.environ.get(URL_VARIABLE, "").strip()
    if url:
        if not is_loopback(url):
            _unavailable(f"{URL_VARIABLE}={url!r} is not a loopback address")
        if not server_ready(url, 30.0):
            _unavailable(f"no model server answers at {url}")
        yield url
        return
    python, model = os.environ.get(PYTHON_VARIABLE, ""), os.environ.get(MODEL_VARIABLE, "")
    if not (python and model and Path(python).is_file() and Path(model).is_file()):
        _unavailable(f"set {URL_VARIABLE}, or {PYTHON_VARIABLE} and {MODEL_VARIABLE}, to run these tests")
    yield from _started_server(python, model, tmp_path_factory.mktemp("llama") / "server.log")


def _started_server(python: str, model: str, log_path: Path) -> Iterator[str]:
    port = free_port()
    command = [
        python, "-m", "llama_cpp.server", "--model", model, "--host", "127.0.0.1", "--port", str(port),
        "--n_ctx", "8192", "--logits_all", "False", "--flash_attn", "True",
    ]  # fmt: skip
    with log_path.open("wb") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}/v1"
    try:
        if not server_ready(url, READY_SECONDS) or process.poll() is not None:
            tail = log_path.read_text(errors="replace")[-800:]
            _unavailable(f"the llama.cpp server did not start: {tail}")
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
