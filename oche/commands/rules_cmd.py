"""``oche rules selfplay GAME --games N --seed S``."""

from __future__ import annotations

import argparse
import json

from oche.errors import UserError
from oche.progress import Progress
from rules import GAMES, game_class
from rules.selfplay import selfplay


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    rules = subparsers.add_parser("rules", help="rules engines: self-play checks")
    sub = rules.add_subparsers(dest="rules_command", metavar="ACTION", required=True)
    play = sub.add_parser("selfplay", help="random legal games to the end, checking invariants")
    play.add_argument("game", help=f"one of: {', '.join(GAMES)}")
    play.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    play.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    play.add_argument("--json", action="store_true", help="print the summary as JSON")
    play.set_defaults(func=run_selfplay)


def run_selfplay(args: argparse.Namespace) -> int:
    if args.game not in GAMES:
        raise UserError(f"unknown game {args.game!r}; choose one of: {', '.join(GAMES)}")
    if args.games < 1:
        raise UserError("--games must be at least 1")
    cls = game_class(args.game)
    report = selfplay(
        args.game, args.games, args.seed, cls.random_setup, Progress("games", every=50)
    )
    summary = report.to_json()
    if args.json:
        print(json.dumps(summary))
    else:
        print(f"{cls.title} self-play, seed {args.seed}")
        print(f"  games finished     {report.finished}/{report.games}")
        print(f"  actions            {report.actions} ({summary['average_actions']:.1f} a game)")
        print(f"  average turns      {summary['average_turns']:.1f}")
        print(f"  invariant violations {len(report.violations)}")
        for example in summary["violation_examples"]:
            print(f"    - {example}")
        print(f"  time               {report.seconds:.1f} s")
    return 1 if report.violations or report.finished < report.games else 0
