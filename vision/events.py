"""What the detector reports: plain values with the JSON shape of ``oche detect``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class DartEvent:
    frame: str
    x_mm: float
    y_mm: float
    sigma_mm: float
    zone: str | None
    candidates: tuple[str, ...]
    tip_px: tuple[float, float] = field(default=(0.0, 0.0), compare=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "event": "dart",
            "frame": self.frame,
            "x_mm": round(self.x_mm, 2),
            "y_mm": round(self.y_mm, 2),
            "sigma_mm": round(self.sigma_mm, 2),
            "zone": self.zone,
            "candidates": list(self.candidates),
        }


@dataclass(frozen=True)
class BounceoutEvent:
    frame: str

    def to_json(self) -> dict[str, Any]:
        return {"event": "bounceout", "frame": self.frame}


@dataclass(frozen=True)
class TakeoutEvent:
    frame: str

    def to_json(self) -> dict[str, Any]:
        return {"event": "takeout", "frame": self.frame}


Event = DartEvent | BounceoutEvent | TakeoutEvent
