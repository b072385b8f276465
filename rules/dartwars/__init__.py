"""Dart Wars (Pascal Reymond, Squale Games 2006): world conquest with darts at a map.

``DartWars(board=None, options=None)`` plays on ``boards.load("dartwars")`` by default.
"""

from rules.dartwars.engine import DartWars

__all__ = ["DartWars"]
