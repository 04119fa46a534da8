"""One backend step against an endpoint, in a fresh Python: its time, peak memory and fallback reason.

Used by the reliability tests and by ``bench/hostile_replies.py``.
"""

from __future__ import annotations

import json
import subprocess
import sys

from tests.reliability.subproc import child_env

PROBE = r"""
import json, resource, sys, time
from engine.config import BackendConfig
from engine.contracts import ParsedQuestion, TaskRequest
from engine.llm import allow_network, make_backend

url, timeout = sys.argv[1], float(sys.argv[2])
config = BackendConfig(kind="openai", base_url=url, api_key="sk-test-probe-0000", timeout_seconds=timeout, model="m",
                       max_retries=1)
started = time.monotonic()
with allow_network(True):
    backend = make_backend(config)
    reply = backend.run("parse_question", TaskRequest(question="What did the survey measure?"), ParsedQuestion)
try:  # this process's own high-water mark (ru_maxrss can carry the parent's across fork and exec)
    status = open("/proc/self/status").read()
    peak = int(status.split("VmHWM:")[1].split()[0]) / 1024
except (OSError, IndexError, ValueError):
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"seconds": round(time.monotonic() - started, 2), "peak_mb": round(peak, 1),
                  "reason": reply.fallback.reason if reply.fallback else None}))
"""


def probe(base_url: str, timeout: float = 3.0) -> dict:
    """Run one backend step against ``base_url`` in a fresh Python; its time, peak memory and fallback."""
    proc = subprocess.run([sys.executable, "-c", PROBE, base_url, str(timeout)], env=child_env(),
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-1500:]
    return json.loads(proc.stdout.strip().splitlines()[-1])
