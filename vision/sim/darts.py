"""Darts, magnets and pins as 3D objects in board millimetres (z < 0 towards the room).

A dart is a chain of tapered cylinders (point, barrel, shaft) and four flight wings along its
axis; the truth of a throw is the point where the axis meets the board (``tip_mm``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

Color = tuple[int, int, int]  # BGR

#: Points: polished and brushed steel, and black-coated ones (they nearly vanish on black).
STEEL: tuple[Color, ...] = (
    (215, 215, 220),
    (190, 190, 195),
    (160, 162, 168),
    (120, 122, 128),
    (60, 60, 64),
    (32, 32, 34),
)
#: Barrels: tungsten greys, black, brass and bronze, coloured (PVD, titanium) coatings.
BARREL: tuple[Color, ...] = (
    (150, 150, 155),
    (110, 112, 118),
    (70, 70, 75),
    (60, 160, 200),  # gold
    (40, 40, 40),
    (180, 120, 60),  # blue coated
    (60, 60, 170),  # red coated
    (25, 25, 27),  # black coated
    (70, 135, 170),  # brass
    (60, 95, 150),  # bronze / copper
    (130, 70, 110),  # purple titanium
    (70, 130, 60),  # green coated
    (185, 185, 190),  # polished tungsten
)
VIVID: tuple[Color, ...] = (
    (40, 40, 220),
    (200, 80, 30),
    (40, 180, 40),
    (30, 200, 240),
    (200, 40, 160),
    (240, 240, 240),
    (30, 30, 30),
    (0, 120, 255),
    (150, 60, 90),
    (200, 200, 60),
)
#: Shafts: the vivid nylon colours plus aluminium, dark carbon and clear nylon.
SHAFT: tuple[Color, ...] = (*VIVID, (175, 178, 182), (55, 55, 58), (215, 220, 222))
#: Flights: vivid, white, black, and pale tints (clear polyester flights, mostly see-through).
FLIGHT: tuple[Color, ...] = (*VIVID, (245, 245, 245), (20, 20, 22))
PALE: tuple[Color, ...] = ((235, 235, 230), (225, 240, 245), (245, 230, 225), (230, 245, 235))


@dataclass(frozen=True)
class DartModel:
    point_len: float  # visible length of the point (the rest is in the board)
    point_r: float
    barrel_len: float
    barrel_r: float
    shaft_len: float
    shaft_r: float
    flight_len: float
    flight_span: float  # wing width from the axis
    flight_shape: str  # standard | slim | kite
    point_color: Color
    barrel_color: Color
    ring_color: Color | None
    shaft_color: Color
    flight_color: Color
    flight_roll: float  # radians
    flight_opacity: float = 1.0  # below 1: a clear flight, the board shows through it
    flight_pattern: Color | None = None  # a second colour printed on the wings
    grip_rings: int = 0  # grooves cut round the barrel (knurled grip)
    shine: float = 0.5  # 0 matt .. 1 polished: strength of the highlight on the metal

    @classmethod
    def random(cls, rng: np.random.Generator) -> DartModel:
        def pick(options):
            return options[int(rng.integers(len(options)))]

        # The draws from ``rng`` keep their number and order (every seeded session keeps its
        # throws); what was added later is drawn from a child generator of the same rng.
        model = cls(
            # the visible part: points are 20-40 mm long, a few mm of them in the board
            point_len=float(rng.uniform(13, 33)),
            point_r=float(rng.uniform(0.9, 1.2)),
            barrel_len=float(rng.uniform(36, 52)),
            barrel_r=float(rng.uniform(2.8, 3.9)),
            shaft_len=float(rng.uniform(26, 46)),
            shaft_r=float(rng.uniform(1.5, 2.6)),
            flight_len=float(rng.uniform(28, 38)),
            flight_span=float(rng.uniform(11, 18)),
            flight_shape=pick(("standard", "slim", "kite", "standard")),
            point_color=pick(STEEL),
            barrel_color=pick(BARREL),
            ring_color=pick(VIVID) if rng.random() < 0.5 else None,
            shaft_color=pick(SHAFT),
            flight_color=pick(FLIGHT),
            flight_roll=float(rng.uniform(0, math.pi / 2)),
        )
        return model.with_finish(rng.spawn(1)[0])

    def with_finish(self, rng: np.random.Generator) -> DartModel:
        """Clear or printed flights, grip grooves and how polished the metal is."""
        opacity, color, pattern = 1.0, self.flight_color, None
        kind = rng.random()
        if kind < 0.2:
            opacity = float(rng.uniform(0.35, 0.7))
            color = PALE[int(rng.integers(len(PALE)))]
        elif kind < 0.55:
            pattern = FLIGHT[int(rng.integers(len(FLIGHT)))]
        rings = int(rng.integers(3, 9)) if rng.random() < 0.5 else 0
        return replace(
            self,
            flight_color=color,
            flight_opacity=opacity,
            flight_pattern=pattern,
            grip_rings=rings,
            shine=float(rng.uniform(0.2, 1.0)),
        )


@dataclass(frozen=True)
class Dart:
    """A dart stuck in the board at ``tip_mm`` with its tail along ``direction`` (unit, z<0).

    ``lift_mm`` moves the whole dart off the board towards the room (a falling bounce-out);
    ``sway`` (a direction) is where a dart still vibrating after the impact swings to during
    the exposure: it is drawn blurred from ``direction`` to ``sway``.
    """

    tip_mm: tuple[float, float]
    direction: tuple[float, float, float]
    model: DartModel
    lift_mm: tuple[float, float, float] = (0.0, 0.0, 0.0)
    sway: tuple[float, float, float] | None = None

    def axis_point(self, s: float) -> np.ndarray:
        base = np.array([self.tip_mm[0], self.tip_mm[1], 0.0]) + np.array(self.lift_mm)
        return base + s * np.array(self.direction)

    def body(self, step_mm: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
        """Points along the solid part of the dart (point, barrel, shaft) and its radius at
        each: the flights are left out, thin sheets that bend aside when darts touch."""
        m = self.model
        s = np.arange(0.0, m.point_len + m.barrel_len + m.shaft_len, step_mm)
        radius = np.select(
            [s < m.point_len, s < m.point_len + m.barrel_len], [m.point_r, m.barrel_r], m.shaft_r
        )
        return self.axis_point(0.0) + np.outer(s, self.direction), radius

    def clearance(self, other: Dart) -> float:
        """The gap (mm) between the solid parts of two darts where they come closest;
        negative when one would pass through the other, which no throw can do."""
        here, r_here = self.body()
        there, r_there = other.body()
        gaps = np.linalg.norm(here[:, None, :] - there[None, :, :], axis=2)
        return float((gaps - r_here[:, None] - r_there[None, :]).min())

    def vibrating(self, start: float, end: float, across: np.ndarray) -> Dart:
        """This dart swinging (about its point) from ``start`` to ``end`` radians towards the
        unit vector ``across`` (perpendicular to its axis) during one exposure."""
        d = np.array(self.direction)

        def turned(angle: float) -> tuple[float, float, float]:
            v = d * math.cos(angle) + across * math.sin(angle)
            return tuple(float(x) for x in v / np.linalg.norm(v))

        return replace(self, direction=turned(start), sway=turned(end))

    @staticmethod
    def random_direction(rng: np.random.Generator) -> tuple[float, float, float]:
        """Tail direction: 4-32 degrees off the board normal, mostly with the tail up."""
        off = math.radians(rng.uniform(4, 32))
        if rng.random() < 0.7:
            az = math.radians(-90 + rng.normal(0, 35))  # tail up: the dart fell into the board
        else:
            az = rng.uniform(0, 2 * math.pi)
        return (
            math.sin(off) * math.cos(az),
            math.sin(off) * math.sin(az),
            -math.cos(off),
        )


@dataclass(frozen=True)
class Magnet:
    center_mm: tuple[float, float]
    radius_mm: float
    color: Color
    height_mm: float = 3.0


@dataclass(frozen=True)
class Pin:
    base_mm: tuple[float, float]
    head_offset: tuple[float, float, float]  # from the base to the head centre (z < 0)
    head_r: float
    color: Color


SceneObject = Dart | Magnet | Pin
