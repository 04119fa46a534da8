"""Sub-command parsers whose arguments are added only when that sub-command is parsed.

``python -m engine eval`` and ``calibrate`` take their arguments from modules that import the evaluation
harness (and with it the rule engine): defined when the command line is parsed, they were imported by every
command, ``ingest`` included, whose start-up they slowed for nothing.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import Any

AddArguments = Callable[[argparse.ArgumentParser], None]


class LazyArgumentsParser(argparse.ArgumentParser):
    """An ``ArgumentParser`` that calls ``arguments`` (when given) to add its arguments on its first parse;
    ``python -m engine -h`` lists the sub-command by its help line without calling it."""

    def __init__(self, *args: Any, arguments: AddArguments | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._pending = arguments

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        if self._pending is not None:
            add, self._pending = self._pending, None
            add(self)
        return super().parse_known_args(args, namespace)


def eval_arguments(parser: argparse.ArgumentParser) -> None:
    from engine.eval.command import add_eval_arguments

    add_eval_arguments(parser)


def calibrate_arguments(parser: argparse.ArgumentParser) -> None:
    from engine.cli.calibrate import add_calibrate_arguments

    add_calibrate_arguments(parser)
