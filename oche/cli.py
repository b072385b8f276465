"""The ``oche`` command line. Each sub-command lives in its own module under oche/commands."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from oche import __version__
from oche.errors import UserError
from rules.base import RulesError

#: Modules under oche.commands; each has ``add_parser(subparsers)`` that sets ``func``.
COMMAND_MODULES = [
    "boards_cmd",
    "rules_cmd",
    "calibrate_cmd",
    "detect_cmd",
    "bench_cmd",
    "serve_cmd",
    "config_cmd",
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="oche",
        description="Oche: a camera referee for dartboard games.",
    )
    parser.add_argument("--version", action="version", version=f"oche {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(f"oche.commands.{name}").add_parser(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except UserError as exc:
        print(f"oche: {exc}", file=sys.stderr)
        return exc.exit_code
    except RulesError as exc:
        print(f"oche: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("oche: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`oche detect --json | head -3`): nothing is wrong. Point stdout
        # at nothing, or Python's own flush at exit fails on the closed pipe again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
