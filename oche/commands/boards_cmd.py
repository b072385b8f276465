"""``oche boards`` and ``oche board print|export|import|locate``."""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

import boards
from boards.exchange import import_board, to_geojson, to_svg
from boards.fileformat import save_file
from boards.printing import PAPER_MM, print_board
from oche.errors import UserError


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    listing = subparsers.add_parser("boards", help="list the built-in boards")
    listing.add_argument("--json", action="store_true", help="print JSON")
    listing.set_defaults(func=run_boards)

    board = subparsers.add_parser("board", help="print, export, import a board; look up a point")
    sub = board.add_subparsers(dest="board_command", metavar="ACTION", required=True)

    printing = sub.add_parser("print", help="write the printable board (SVG, PDF or PNG)")
    printing.add_argument("board", help="built-in board id or board file")
    printing.add_argument("--out", required=True, type=Path, help="FILE.svg, FILE.pdf or FILE.png")
    printing.add_argument("--dpi", type=float, default=150, help="PNG resolution (default 150)")
    printing.add_argument("--tiles", choices=sorted(PAPER_MM), help="split into overlapping sheets")
    printing.set_defaults(func=run_print)

    export = sub.add_parser("export", help="export a board as GeoJSON (board mm)")
    export.add_argument("board")
    export.add_argument(
        "--format",
        choices=["geojson", "json", "svg"],
        default="geojson",
        help="geojson (default), json (board file) or svg (zones for tracing tools)",
    )
    export.add_argument("--out", type=Path, help="output file (default: standard output)")
    export.set_defaults(func=run_export)

    importing = sub.add_parser("import", help="make a board file from a traced GeoJSON or SVG")
    importing.add_argument("file", type=Path, help="FILE.geojson or FILE.svg")
    importing.add_argument("--out", required=True, type=Path, help="BOARD.json to write")
    importing.set_defaults(func=run_import)

    locate = sub.add_parser("locate", help="the zone at a board position (mm)")
    locate.add_argument("board")
    locate.add_argument("x", type=float, help="x in mm from the sheet's left edge")
    locate.add_argument("y", type=float, help="y in mm from the sheet's top edge")
    locate.add_argument("--sigma", type=float, default=0.0, help="position uncertainty in mm")
    locate.set_defaults(func=run_locate)


def run_boards(args: argparse.Namespace) -> int:
    rows = []
    for name in boards.BUILTIN:
        board = boards.load(name)
        kinds: dict[str, int] = {}
        for zone in board.top_zones:
            kinds[zone.kind] = kinds.get(zone.kind, 0) + 1
        rows.append(
            {
                "id": board.id,
                "name": board.name,
                "size_mm": [board.width_mm, board.height_mm],
                "zones": len(board.top_zones),
                "kinds": kinds,
                "markers": len(board.markers),
                "description": board.description,
            }
        )
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    for row in rows:
        kinds = ", ".join(f"{n} {k}" for k, n in sorted(row["kinds"].items()))
        w, h = row["size_mm"]
        print(f"{row['id']:<12} {row['name']}: {w:g} x {h:g} mm, {row['zones']} zones ({kinds})")
        if row["description"]:
            print(f"{'':<12} {row['description']}")
    return 0


def run_print(args: argparse.Namespace) -> int:
    board = boards.load(args.board)
    written = print_board(board, args.out, dpi=args.dpi, tiles=args.tiles)
    for path in written:
        print(f"wrote {path}")
    if args.tiles:
        print(
            f"{len(written) if len(written) > 1 else 'all'} sheet(s): print at 100%, lay the + marks over each other"
        )
    return 0


def run_export(args: argparse.Namespace) -> int:
    board = boards.load(args.board)
    if args.format == "svg":
        text = to_svg(board)
    else:
        data = to_geojson(board) if args.format == "geojson" else boards.board_to_json(board)
        text = json.dumps(data, indent=1) + "\n"
    if args.out is None:
        sys.stdout.write(text)
    else:
        args.out.write_text(text, encoding="utf-8")
        print(f"wrote {args.out}", file=sys.stderr)
    return 0


def run_import(args: argparse.Namespace) -> int:
    board = import_board(args.file)
    if args.out.suffix.lower() != ".json":
        raise UserError(f"{args.out}: a board file ends in .json")
    save_file(board, args.out)
    adjacency = board.adjacency
    lonely = sorted(z for z, n in adjacency.items() if not n)
    print(f"wrote {args.out}: board {board.id!r}, {len(board.zones)} zones")
    if lonely:
        print(f"note: zones with no neighbour: {', '.join(lonely)}")
    return 0


def run_locate(args: argparse.Namespace) -> int:
    if not all(math.isfinite(v) for v in (args.x, args.y, args.sigma)):
        raise UserError("X, Y and --sigma are board millimetres: give finite numbers, e.g. 120.5")
    if args.sigma < 0:
        raise UserError("--sigma must not be negative")
    board = boards.load(args.board)
    location = board.locate(args.x, args.y, args.sigma)
    print(json.dumps(location.to_json()))
    return 0
