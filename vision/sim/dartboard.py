"""A steel-tip dartboard as its maker paints it, not as we print the classic board.

A real board matches our classic board's geometry (standard radii, the same order of
numbers) but not its look: its own colours, the spider's wires, numbers in another font on a
black surround, and the wall or cabinet around it instead of a white sheet. The simulator
paints sessions on it so that the detector is not measured on our print alone, and the
calibration benchmark uses it to ask whether a real board is recognised from our artwork.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from boards.model import Board

#: Standard radii (mm from the centre of the bull).
BULL_MM = 6.35
OUTER_BULL_MM = 15.9
TREBLE_MM = (99.0, 107.0)
DOUBLE_MM = (162.0, 170.0)
SURROUND_MM = 225.0

Colour = tuple[int, int, int]  # BGR

_FONTS = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
)


@dataclass(frozen=True)
class Paint:
    """One maker's look."""

    black: Colour = (25, 25, 25)
    cream: Colour = (170, 215, 235)
    red: Colour = (40, 40, 200)
    green: Colour = (60, 140, 30)
    surround: Colour = (20, 20, 20)
    wall: Colour = (90, 90, 90)  # beyond the board: no sheet edge to match
    wire: Colour = (150, 150, 150)
    wire_mm: float = 0.67
    font: int = cv2.FONT_HERSHEY_COMPLEX
    numbers: Colour = (235, 235, 235)
    numbers_mm: float = 195.0  # radius of the numbers' centres
    numbers_scale: float = 1.6  # at 3 px per mm
    numbers_mm_thick: float = 1.33

    @classmethod
    def random(cls, rng: np.random.Generator) -> Paint:
        def near(colour: Colour, spread: float) -> Colour:
            jitter = rng.normal(0, spread, 3)
            return tuple(int(np.clip(c + j, 0, 255)) for c, j in zip(colour, jitter, strict=True))

        creams = ((170, 215, 235), (200, 228, 238), (222, 230, 232), (150, 200, 225))
        reds = ((40, 40, 200), (35, 30, 165), (50, 45, 215))
        greens = ((60, 140, 30), (40, 105, 20), (75, 150, 60))
        walls = ((90, 90, 90), (45, 60, 80), (200, 200, 196), (30, 30, 30))
        wires = ((150, 150, 150), (200, 200, 200), (70, 70, 70))

        def pick(options: tuple[Colour, ...]) -> Colour:
            return options[int(rng.integers(len(options)))]

        return cls(
            black=near((25, 25, 25), 6),
            cream=near(pick(creams), 8),
            red=near(pick(reds), 8),
            green=near(pick(greens), 8),
            surround=near((20, 20, 20), 5),
            wall=near(pick(walls), 6),
            wire=near(pick(wires), 10),
            wire_mm=float(rng.uniform(0.5, 1.3)),
            font=int(_FONTS[int(rng.integers(len(_FONTS)))]),
            numbers=near((232, 232, 232), 10),
            numbers_mm=float(rng.uniform(190, 200)),
            numbers_scale=float(rng.uniform(1.4, 1.8)),
            numbers_mm_thick=float(rng.uniform(1.0, 1.7)),
        )


def is_dartboard(board: Board) -> bool:
    """True for a steel-tip dartboard (a target and an order of numbers around it)."""
    return board.target is not None and bool(board.segment_order)


def painted_dartboard(board: Board, px_per_mm: float, paint: Paint | None = None) -> np.ndarray:
    """The dartboard centred on ``board``'s bull, as an image of the whole sheet at
    ``px_per_mm`` (BGR; pixel (0, 0) = board (0, 0))."""
    paint = paint or Paint()
    if board.target is None:
        raise ValueError(f"board {board.id!r} has no target to paint a dartboard on")
    scale = px_per_mm
    size = (round(board.height_mm * scale), round(board.width_mm * scale))
    image = np.full((*size, 3), paint.wall, np.uint8)
    centre = np.array(board.target.center, dtype=np.float64) * scale
    order = board.segment_order
    count = len(order) or 20
    step = 360.0 / count
    wire_px = max(1, round(paint.wire_mm * scale))

    def pixel(point: np.ndarray) -> tuple[int, int]:
        return tuple(int(v) for v in np.round(point))

    def circle(radius_mm: float, colour: Colour, thickness: int = -1) -> None:
        cv2.circle(image, pixel(centre), round(radius_mm * scale), colour, thickness, cv2.LINE_AA)

    def ring(outer: float, inner: float, colours: tuple[Colour, Colour]) -> None:
        for k in range(count):
            angles = np.radians(np.linspace(-90 - step / 2, -90 + step / 2, 12) + step * k)
            rim = np.column_stack([np.cos(angles), np.sin(angles)])
            outline = np.vstack([centre + outer * scale * rim, centre + inner * scale * rim[::-1]])
            points = np.round(outline * 16).astype(np.int32)
            cv2.fillPoly(image, [points], colours[k % 2], cv2.LINE_AA, 4)

    circle(SURROUND_MM, paint.surround)
    ring(DOUBLE_MM[1], OUTER_BULL_MM, (paint.black, paint.cream))
    ring(DOUBLE_MM[1], DOUBLE_MM[0], (paint.red, paint.green))
    ring(TREBLE_MM[1], TREBLE_MM[0], (paint.red, paint.green))
    circle(OUTER_BULL_MM, paint.green)
    circle(BULL_MM, paint.red)
    for radius in (*DOUBLE_MM, *TREBLE_MM):
        circle(radius, paint.wire, wire_px)
    numbers_thick = max(1, round(paint.numbers_mm_thick * scale))
    font_scale = paint.numbers_scale * scale / 3.0
    for k, number in enumerate(order):
        a = np.radians(-90 - step / 2 + step * k)
        direction = np.array([np.cos(a), np.sin(a)])
        start = centre + direction * OUTER_BULL_MM * scale
        end = centre + direction * DOUBLE_MM[1] * scale
        cv2.line(image, pixel(start), pixel(end), paint.wire, wire_px, cv2.LINE_AA)
        a = np.radians(-90 + step * k)
        at = centre + np.array([np.cos(a), np.sin(a)]) * paint.numbers_mm * scale
        text = str(number)
        (w, h), _ = cv2.getTextSize(text, paint.font, font_scale, numbers_thick)
        origin = (round(at[0] - w / 2), round(at[1] + h / 2))
        cv2.putText(
            image, text, origin, paint.font, font_scale, paint.numbers, numbers_thick, cv2.LINE_AA
        )
    return image
