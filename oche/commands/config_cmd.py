"""``oche config init`` (write a commented configuration file) and ``oche config show``."""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from pathlib import Path
from typing import Any

from oche.config import (
    Config,
    add_config_argument,
    config_from_mapping,
    load_config,
    user_config_path,
)
from oche.errors import UserError


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    config = subparsers.add_parser(
        "config",
        help="write or check the configuration file",
        description="Oche reads one TOML file: camera, board, web server and data folder.",
    )
    actions = config.add_subparsers(dest="config_command", metavar="ACTION", required=True)

    init = actions.add_parser(
        "init",
        help="write a commented configuration file with the defaults",
        description=(
            "Write a configuration file with every key, its default and what it means. "
            "An existing file is never replaced unless --force is given."
        ),
    )
    init.add_argument(
        "--out",
        type=Path,
        help=f"file to write ('-' prints it). Default: {user_config_path()}",
    )
    init.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="SECTION.KEY=VALUE",
        help="change a default, e.g. --set camera.source=picamera2 --set server.port=80",
    )
    init.add_argument("--force", action="store_true", help="replace an existing file")
    init.set_defaults(func=run_init)

    show = actions.add_parser(
        "show",
        help="check the configuration and print the values in effect",
        description="Find and check the configuration file; exits with 2 if it has errors.",
    )
    add_config_argument(show)
    show.add_argument("--json", action="store_true", help="print JSON")
    show.set_defaults(func=run_show)


def _parse_override(text: str) -> tuple[str, str, Any]:
    name, sep, raw = text.partition("=")
    section, dot, key = name.strip().partition(".")
    if not (sep and dot and section and key):
        raise UserError(f"--set {text!r}: expected SECTION.KEY=VALUE, e.g. server.port=80")
    try:
        value = tomllib.loads(f"value = {raw}")["value"]
    except tomllib.TOMLDecodeError:
        value = raw  # a bare word or path: take it as text
    return section, key, value


def run_init(args: argparse.Namespace) -> int:
    out: Path | None = args.out
    target = user_config_path() if out is None else out
    document: dict[str, dict[str, Any]] = {}
    for text in args.set:
        section, key, value = _parse_override(text)
        document.setdefault(section, {})[key] = value
    where = Path.cwd() / "(--set)" if str(target) == "-" else target.absolute()
    config = config_from_mapping(document, where) if document else Config()
    text = config.to_toml()
    if str(target) == "-":
        sys.stdout.write(text)
        return 0
    if target.exists() and not args.force:
        raise UserError(f"{target} exists already; it is kept. Fix: add --force to replace it")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    print(f"wrote {target}")
    return 0


def run_show(args: argparse.Namespace) -> int:
    config = load_config(args.config)  # a ConfigError lists every problem and exits with 2
    if args.json:
        print(json.dumps(config.to_json(), indent=2))
    else:
        print(f"configuration: {config.file or 'built-in defaults (no file found)'}")
        for section, values in config.to_json().items():
            if isinstance(values, dict):
                for key, value in values.items():
                    print(f"  {section}.{key} = {value if value is not None else '(not set)'}")
        print(f"  calibration in use: {config.calibration_file}")
        print(f"  database: {config.database}")
    for warning in config.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    return 0
