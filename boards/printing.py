"""Drawing a board scene as SVG, PNG or PDF, whole or tiled onto home-printer sheets.

PNG convention (a contract, see the README): at D dpi, board point (x, y) mm is pixel
coordinate (x, y) * D / 25.4, with integer coordinates at pixel centres (OpenCV's
convention), so pixel (0, 0) is board (0, 0).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from html import escape
from pathlib import Path

import cv2
import numpy as np
from shapely.geometry import LineString
from shapely.ops import substring

from boards.model import Board
from boards.scene import BLACK, Circle, Line, Primitive, Rect, Scene, Shape, Text, build_scene
from oche.errors import UserError
from oche.files import write_atomic

PAPER_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
PAGE_MARGIN_MM = 8.0  # what home printers cannot reach
TILE_OVERLAP_MM = 15.0
FORMATS = (".svg", ".png", ".pdf")


@dataclass(frozen=True)
class Window:
    """The part of the board (mm) drawn on one output page."""

    x: float
    y: float
    w: float
    h: float


# --- PNG ------------------------------------------------------------------------------
SHIFT = 4  # sub-pixel bits for OpenCV drawing


def _pts(points: Iterable[tuple[float, float]], scale: float, window: Window) -> np.ndarray:
    arr = (np.asarray(list(points), dtype=float) - (window.x, window.y)) * scale
    return np.round(arr * (1 << SHIFT)).astype(np.int32)


def _bgr(color: tuple[int, int, int]) -> tuple[int, int, int]:
    return (color[2], color[1], color[0])


def render_png(scene: Scene, dpi: float, window: Window | None = None) -> np.ndarray:
    """The scene as a BGR image at ``dpi``."""
    window = window or Window(0, 0, scene.width_mm, scene.height_mm)
    scale = dpi / 25.4
    size = (round(window.w * scale), round(window.h * scale))
    if size[0] * size[1] > 400_000_000:
        raise UserError(f"{dpi} dpi makes a {size[0]}x{size[1]} image: too big, use a lower --dpi")
    image = np.full((size[1], size[0], 3), 255, np.uint8)
    for item in scene.items:
        _draw_png(image, item, scale, window)
    return image


def _thickness(width_mm: float, scale: float) -> int:
    return max(1, round(width_mm * scale))


def _draw_png(image: np.ndarray, item: Primitive, scale: float, window: Window) -> None:
    aa = cv2.LINE_AA
    if isinstance(item, Rect):
        pts = _pts(
            [
                (item.x, item.y),
                (item.x + item.w, item.y),
                (item.x + item.w, item.y + item.h),
                (item.x, item.y + item.h),
            ],
            scale,
            window,
        )
        cv2.fillPoly(image, [pts], _bgr(item.fill), aa, SHIFT)
    elif isinstance(item, Shape):
        pts = _pts(item.points, scale, window)
        if item.fill is not None:
            cv2.fillPoly(image, [pts], _bgr(item.fill), aa, SHIFT)
        if item.stroke is not None and item.width_mm > 0:
            _polyline_png(
                image, item.points, True, item.stroke, item.width_mm, item.dash_mm, scale, window
            )
    elif isinstance(item, Line):
        _polyline_png(
            image, item.points, False, item.color, item.width_mm, item.dash_mm, scale, window
        )
    elif isinstance(item, Circle):
        center = _pts([item.center], scale, window)[0]
        radius = round(item.radius_mm * scale * (1 << SHIFT))
        if item.fill is not None:
            cv2.circle(image, tuple(int(v) for v in center), radius, _bgr(item.fill), -1, aa, SHIFT)
        if item.stroke is not None and item.width_mm > 0:
            thickness = _thickness(item.width_mm, scale)
            cv2.circle(
                image,
                tuple(int(v) for v in center),
                radius,
                _bgr(item.stroke),
                thickness,
                aa,
                SHIFT,
            )
    elif isinstance(item, Text):
        _text_png(image, item, scale, window)


def _dashes(points: np.ndarray, dash: float, gap: float) -> list[np.ndarray]:
    """Split a polyline (mm) into dash segments, one every ``dash + gap`` along its length."""
    line = LineString(points)
    pieces = []
    for begin in np.arange(0.0, line.length, dash + gap):
        piece = substring(line, float(begin), float(min(begin + dash, line.length)))
        coords = np.asarray(piece.coords, dtype=float)
        if len(coords) >= 2:
            pieces.append(coords)
    return pieces


def _polyline_png(
    image: np.ndarray,
    points: Iterable[tuple[float, float]],
    closed: bool,
    color: tuple[int, int, int],
    width_mm: float,
    dash_mm: tuple[float, float] | None,
    scale: float,
    window: Window,
) -> None:
    pts = np.asarray(list(points), dtype=float)
    if closed and len(pts) and not np.allclose(pts[0], pts[-1]):
        pts = np.vstack([pts, pts[:1]])
    thickness = _thickness(width_mm, scale)
    pieces = _dashes(pts, *dash_mm) if dash_mm else [pts]
    polylines = [_pts(p, scale, window) for p in pieces if len(p) >= 2]
    if polylines:
        cv2.polylines(image, polylines, False, _bgr(color), thickness, cv2.LINE_AA, SHIFT)


def _text_png(image: np.ndarray, item: Text, scale: float, window: Window) -> None:
    font = cv2.FONT_HERSHEY_DUPLEX if item.bold else cv2.FONT_HERSHEY_SIMPLEX
    height_px = item.size_mm * scale
    font_scale = height_px / 22.0  # Hershey capitals are about 22 units tall at scale 1
    thickness = max(1, round(font_scale * (2.0 if item.bold else 1.4)))
    (w, h), _ = cv2.getTextSize(item.text, font, font_scale, thickness)
    x = (item.position[0] - window.x) * scale - w / 2
    y = (item.position[1] - window.y) * scale + h / 2
    cv2.putText(
        image,
        item.text,
        (round(x), round(y)),
        font,
        font_scale,
        _bgr(item.color),
        thickness,
        cv2.LINE_AA,
    )


# --- SVG ------------------------------------------------------------------------------
def _rgb(color: tuple[int, int, int]) -> str:
    return f"#{color[0]:02x}{color[1]:02x}{color[2]:02x}"


def _path_d(points: Iterable[tuple[float, float]], closed: bool) -> str:
    coords = " ".join(f"{x:.2f},{y:.2f}" for x, y in points)
    return f"M{coords}{' Z' if closed else ''}"


def render_svg(
    scene: Scene, window: Window | None = None, page_mm: tuple[float, float] | None = None
) -> str:
    """The scene as an SVG document in millimetres."""
    window = window or Window(0, 0, scene.width_mm, scene.height_mm)
    page_w, page_h = page_mm or (window.w, window.h)
    parts = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{page_w:.2f}mm" height="{page_h:.2f}mm" '
        f'viewBox="0 0 {page_w:.2f} {page_h:.2f}">',
        f'<defs><clipPath id="w"><rect x="{window.x:.2f}" y="{window.y:.2f}" width="{window.w:.2f}" '
        f'height="{window.h:.2f}"/></clipPath></defs>',
        f'<g transform="translate({-window.x:.2f},{-window.y:.2f})" clip-path="url(#w)">',
    ]
    parts.extend(_svg_item(item) for item in scene.items)
    parts.append("</g>")
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _svg_item(item: Primitive) -> str:
    if isinstance(item, Rect):
        return f'<rect x="{item.x:.2f}" y="{item.y:.2f}" width="{item.w:.3f}" height="{item.h:.3f}" fill="{_rgb(item.fill)}"/>'
    if isinstance(item, Shape | Line):
        closed = isinstance(item, Shape)
        fill = _rgb(item.fill) if isinstance(item, Shape) and item.fill else "none"
        stroke_color = item.stroke if isinstance(item, Shape) else item.color
        attrs = f'fill="{fill}"'
        if stroke_color is not None and item.width_mm > 0:
            attrs += f' stroke="{_rgb(stroke_color)}" stroke-width="{item.width_mm:.2f}" stroke-linejoin="round"'
            if item.dash_mm:
                attrs += f' stroke-dasharray="{item.dash_mm[0]:.2f},{item.dash_mm[1]:.2f}"'
            if isinstance(item, Line):
                attrs += ' stroke-linecap="round"'
        return f'<path d="{_path_d(item.points, closed)}" {attrs}/>'
    if isinstance(item, Circle):
        fill = _rgb(item.fill) if item.fill else "none"
        stroke = ""
        if item.stroke is not None and item.width_mm > 0:
            stroke = f' stroke="{_rgb(item.stroke)}" stroke-width="{item.width_mm:.2f}"'
        return f'<circle cx="{item.center[0]:.2f}" cy="{item.center[1]:.2f}" r="{item.radius_mm:.2f}" fill="{fill}"{stroke}/>'
    assert isinstance(item, Text)
    weight = ' font-weight="bold"' if item.bold else ""
    # font-size is the em size; capitals are about 0.7 em tall.
    return (
        f'<text x="{item.position[0]:.2f}" y="{item.position[1] + item.size_mm / 2:.2f}" '
        f'font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="{item.size_mm / 0.7:.2f}" '
        f'text-anchor="middle" fill="{_rgb(item.color)}"{weight}>{escape(item.text)}</text>'
    )


# --- PDF ------------------------------------------------------------------------------
def render_pdf(pages: list[tuple[Scene, Window, tuple[float, float]]]) -> bytes:
    """Vector PDF, one page per (scene, window, page size mm)."""
    from fpdf import FPDF

    pdf = FPDF(unit="mm")
    pdf.set_auto_page_break(False)
    pdf.set_margin(0)
    for scene, window, page in pages:
        pdf.add_page(format=page)
        offset_x = (page[0] - window.w) / 2 - window.x
        offset_y = (page[1] - window.h) / 2 - window.y
        with pdf.rect_clip(offset_x + window.x, offset_y + window.y, window.w, window.h):
            for item in scene.items:
                _draw_pdf(pdf, item, offset_x, offset_y)
    return bytes(pdf.output())


def _draw_pdf(pdf, item: Primitive, ox: float, oy: float) -> None:
    def moved(points: Iterable[tuple[float, float]]) -> list[tuple[float, float]]:
        return [(x + ox, y + oy) for x, y in points]

    if isinstance(item, Rect):
        pdf.set_fill_color(*item.fill)
        pdf.rect(item.x + ox, item.y + oy, item.w, item.h, style="F")
    elif isinstance(item, Shape | Line):
        stroke = item.stroke if isinstance(item, Shape) else item.color
        fill = item.fill if isinstance(item, Shape) else None
        if fill is not None:
            pdf.set_fill_color(*fill)
            pdf.polygon(moved(item.points), style="F")
        if stroke is not None and item.width_mm > 0:
            pdf.set_draw_color(*stroke)
            pdf.set_line_width(item.width_mm)
            pdf.set_dash_pattern(*(item.dash_mm or (0, 0)))
            if isinstance(item, Shape):
                pdf.polygon(moved(item.points), style="D")
            else:
                pdf.polyline(moved(item.points), style="D")
            pdf.set_dash_pattern()
    elif isinstance(item, Circle):
        style = ("F" if item.fill else "") + ("D" if item.stroke and item.width_mm > 0 else "")
        if item.fill:
            pdf.set_fill_color(*item.fill)
        if item.stroke:
            pdf.set_draw_color(*item.stroke)
            pdf.set_line_width(item.width_mm)
        if style:
            pdf.circle(item.center[0] + ox, item.center[1] + oy, item.radius_mm, style=style)
    elif isinstance(item, Text):
        size_pt = item.size_mm / 0.7 / 25.4 * 72
        pdf.set_font("helvetica", "B" if item.bold else "", size_pt)
        pdf.set_text_color(*item.color)
        text = item.text.encode("latin-1", "replace").decode("latin-1")
        width = pdf.get_string_width(text)
        pdf.text(item.position[0] + ox - width / 2, item.position[1] + oy + item.size_mm / 2, text)


# --- tiling ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Tile:
    row: int
    col: int
    window: Window
    rows: int
    cols: int


def plan_tiles(
    width_mm: float, height_mm: float, paper: str
) -> tuple[list[Tile], tuple[float, float]]:
    """Overlapping windows covering the board, in the orientation that needs fewer sheets."""
    if paper not in PAPER_MM:
        raise UserError(f"unknown paper {paper!r}: use {' or '.join(PAPER_MM)}")
    best: tuple[int, list[Tile], tuple[float, float]] | None = None
    for page in (PAPER_MM[paper], PAPER_MM[paper][::-1]):
        usable_w, usable_h = page[0] - 2 * PAGE_MARGIN_MM, page[1] - 2 * PAGE_MARGIN_MM
        step_w, step_h = usable_w - TILE_OVERLAP_MM, usable_h - TILE_OVERLAP_MM
        cols = max(1, math.ceil((width_mm - TILE_OVERLAP_MM) / step_w))
        rows = max(1, math.ceil((height_mm - TILE_OVERLAP_MM) / step_h))
        tiles = [
            Tile(r, c, Window(c * step_w, r * step_h, usable_w, usable_h), rows, cols)
            for r in range(rows)
            for c in range(cols)
        ]
        if best is None or rows * cols < best[0]:
            best = (rows * cols, tiles, page)
    assert best is not None
    return best[1], best[2]


def tile_scene(scene: Scene, tile: Tile, board_name: str) -> Scene:
    """The scene plus alignment crosses in the overlaps and a sheet label."""
    marked = Scene(scene.width_mm, scene.height_mm, list(scene.items))
    w = tile.window
    # Crosses at board positions inside the overlap strips: the same crosses print on both
    # neighbouring sheets, so laying one cross over the other aligns the sheets exactly.
    half = TILE_OVERLAP_MM / 2
    xs = [w.x + half, w.x + w.w - half]
    ys = [w.y + half, w.y + w.h - half]
    for x in xs:
        for y in ys:
            marked.add(Line(((x - 5, y), (x + 5, y)), BLACK, 0.3))
            marked.add(Line(((x, y - 5), (x, y + 5)), BLACK, 0.3))
            marked.add(Circle((x, y), 2.0, stroke=BLACK, width_mm=0.3))
    label = f"{board_name}: sheet row {tile.row + 1} col {tile.col + 1} of {tile.rows}x{tile.cols}"
    marked.add(Text((w.x + w.w / 2, w.y + 3.5), label, 2.2, (120, 120, 120)))
    return marked


# --- the command ----------------------------------------------------------------------
def print_board(board: Board, out: Path, dpi: float = 150, tiles: str | None = None) -> list[Path]:
    """Write the printable board; returns the files written."""
    suffix = out.suffix.lower()
    if suffix not in FORMATS:
        raise UserError(
            f"{out}: unknown output format {suffix or '(none)'}: use .svg, .png or .pdf"
        )
    if not 10 <= dpi <= 1200:
        raise UserError(f"--dpi {dpi} is out of range: use 10 to 1200")
    if out.parent and not out.parent.exists():
        raise UserError(f"{out.parent}: no such folder")
    scene = build_scene(board)
    full = Window(0, 0, board.width_mm, board.height_mm)
    if tiles is None:
        pages = [(scene, full, (board.width_mm, board.height_mm), out)]
    else:
        plan, paper = plan_tiles(board.width_mm, board.height_mm, tiles)
        pages = [
            (
                tile_scene(scene, t, board.name),
                t.window,
                paper,
                out.with_name(f"{out.stem}-r{t.row + 1}c{t.col + 1}{suffix}"),
            )
            for t in plan
        ]
    if suffix == ".pdf":
        write_atomic(out, render_pdf([(s, w, p) for s, w, p, _ in pages]))
        return [out]
    written = []
    for page_scene, window, page, path in pages:
        if suffix == ".svg":
            write_atomic(path, render_svg(page_scene, window).encode())
        else:
            image = render_png(page_scene, dpi, window)
            ok, data = cv2.imencode(".png", image)
            if not ok:
                raise UserError(f"{path}: could not encode the PNG")
            write_atomic(path, png_with_dpi(data.tobytes(), dpi))
        written.append(path)
        del page  # page size only matters to PDF output
    return written


def png_with_dpi(png: bytes, dpi: float) -> bytes:
    """Insert a pHYs chunk so printing programs print the PNG at its true size."""
    import struct
    import zlib

    per_metre = round(dpi / 0.0254)
    body = b"pHYs" + struct.pack(">IIB", per_metre, per_metre, 1)
    chunk = struct.pack(">I", 9) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)
    # IHDR is always first: 8-byte signature + 25-byte IHDR chunk.
    return png[:33] + chunk + png[33:]
