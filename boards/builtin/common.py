"""Pieces shared by the board generators: margin markers and writing the file."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from boards.fileformat import save_file
from boards.model import Board, Marker

#: ArUco id ranges per built-in board, so calibration can tell the boards apart in a photo.
MARKER_ID_BASE = {"dartwars": 0, "groundround": 16, "classic": 32}


def margin_markers(
    width_mm: float, height_mm: float, size_mm: float, inset_mm: float, first_id: int
) -> tuple[Marker, ...]:
    """Eight markers: the four corners and the middle of each side of the sheet.

    ``inset_mm`` is the distance from the sheet edge to the marker (it includes the white
    quiet zone the detector needs around each marker).
    """
    low_x, high_x = inset_mm, width_mm - inset_mm - size_mm
    low_y, high_y = inset_mm, height_mm - inset_mm - size_mm
    mid_x, mid_y = (width_mm - size_mm) / 2, (height_mm - size_mm) / 2
    origins = [
        (low_x, low_y),
        (mid_x, low_y),
        (high_x, low_y),
        (high_x, mid_y),
        (high_x, high_y),
        (mid_x, high_y),
        (low_x, high_y),
        (low_x, mid_y),
    ]
    return tuple(
        Marker(
            first_id + i,
            ((x, y), (x + size_mm, y), (x + size_mm, y + size_mm), (x, y + size_mm)),
        )
        for i, (x, y) in enumerate(origins)
    )


def generator_main(board_id: str, build: Callable[[], Board]) -> None:
    """Command line of a generator module: write the board file."""
    default = Path(__file__).resolve().parent.parent / "data" / f"{board_id}.json"
    parser = argparse.ArgumentParser(description=f"Generate the built-in board {board_id!r}.")
    parser.add_argument(
        "--out", type=Path, default=default, help=f"output file (default {default})"
    )
    args = parser.parse_args()
    save_file(build(), args.out)
    print(f"wrote {args.out}")
