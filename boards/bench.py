"""``oche bench boards``: zone lookups per second, single points and batches."""

from __future__ import annotations

import json
import time
from typing import Any

import numpy as np

import boards


def _rate(count: int, seconds: float) -> float:
    return count / seconds if seconds > 0 else float("inf")


def run(seed: int = 1, as_json: bool = False, points: int = 20_000) -> dict[str, Any]:
    """Time ``locate`` on random points of each built-in board; print a table (or JSON)."""
    rng = np.random.default_rng(seed)
    rows = []
    for name in boards.BUILTIN:
        try:
            board = boards.load(name)
        except Exception as exc:  # a board that does not load is reported, not fatal
            rows.append({"board": name, "error": str(exc)})
            continue
        xy = rng.uniform((0, 0), (board.width_mm, board.height_mm), size=(points, 2))
        sigma = rng.uniform(0, 2.0, size=points)
        board.locate(*xy[0])  # build the index outside the timing
        singles = min(points, 5_000)
        start = time.perf_counter()
        for (x, y), s in zip(xy[:singles], sigma[:singles], strict=True):
            board.locate(x, y, s)
        single_rate = _rate(singles, time.perf_counter() - start)
        start = time.perf_counter()
        located = board.locate_many(xy, sigma)
        batch_rate = _rate(points, time.perf_counter() - start)
        rows.append(
            {
                "board": name,
                "zones": len(board.zones),
                "single_per_s": round(single_rate),
                "batch_per_s": round(batch_rate),
                "on_line_share": round(sum(loc.on_line for loc in located) / points, 4),
            }
        )
    result = {"benchmark": "boards", "seed": seed, "points": points, "results": rows}
    if as_json:
        print(json.dumps(result))
    else:
        print(f"{'board':<12} {'zones':>6} {'single/s':>10} {'batch/s':>10} {'on line':>8}")
        for row in rows:
            if "error" in row:
                print(f"{row['board']:<12} error: {row['error']}")
                continue
            print(
                f"{row['board']:<12} {row['zones']:>6} {row['single_per_s']:>10,} "
                f"{row['batch_per_s']:>10,} {row['on_line_share']:>8.1%}"
            )
        print(json.dumps(result))
    return result
