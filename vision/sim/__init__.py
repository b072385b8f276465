"""The scene simulator: a printed board seen by a simulated camera, with darts, pieces, people.

``random_session(board, seed)`` gives a scripted, seeded session with its ground truth.
"""

from vision.sim.darts import Dart, DartModel, Magnet, Pin
from vision.sim.render import FrameSpec, Hand, Light, Renderer
from vision.sim.scenario import CameraSetup, Session, SessionBuilder, random_session

__all__ = [
    "CameraSetup",
    "Dart",
    "DartModel",
    "FrameSpec",
    "Hand",
    "Light",
    "Magnet",
    "Pin",
    "Renderer",
    "Session",
    "SessionBuilder",
    "random_session",
]
