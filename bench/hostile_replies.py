"""Hostile LLM endpoints: time and peak memory of one backend step against each, in fresh processes.

    python bench/hostile_replies.py [--runs N] [--timeout S]

Every mode of the reliability suite's fault server (an endless reply, a 100 MB reply, a reply trickling
one byte at a time, a hang, error storms, malformed replies) answers a ``parse_question`` step of the
OpenAI-compatible backend, which must fall back to the offline rules. Each step runs in a fresh Python
(``tests/reliability/reply_probe.py``); min and median of N runs are printed beside a healthy endpoint.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.reliability.fault_server import FaultServer
from tests.reliability.reply_probe import probe

MODES = ("ok", "endless", "huge", "trickle", "hang", "slow", "5xx", "429", "not_json", "bad_envelope")
OPTIONS: dict[str, dict] = {"trickle": {"delay": 0.05}, "slow": {"delay": 10.0}, "429": {"retry_after": "60"}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=3.0, help="the backend's timeout_seconds")
    args = parser.parse_args()
    print(f"{'mode':<13} {'s min':>6} {'s med':>6} {'MB min':>7} {'MB med':>7}  fallback reason")
    worst = ("", 0.0, 0.0)
    for mode in MODES:
        results = []
        for _ in range(args.runs):
            with FaultServer(mode, **OPTIONS.get(mode, {})) as server:
                results.append(probe(server.base_url, args.timeout))
        seconds = [r["seconds"] for r in results]
        peaks = [r["peak_mb"] for r in results]
        reason = results[-1]["reason"] or "(none: the endpoint answered)"
        print(f"{mode:<13} {min(seconds):>6.2f} {statistics.median(seconds):>6.2f} {min(peaks):>7.1f} "
              f"{statistics.median(peaks):>7.1f}  {reason[:70]}")  # fmt: skip
        if mode != "ok" and max(peaks) > worst[2]:
            worst = (mode, max(seconds), max(peaks))
    print(f"worst hostile reply by memory: {worst[0]} ({worst[2]:.1f} MB peak, {worst[1]:.2f} s)")


if __name__ == "__main__":
    main()
