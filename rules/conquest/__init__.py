"""Conquest (Denys Fisher, 1975): the dice-tumbling rules engine.

``dice`` models a die's orientation, ``board`` the 9x8 board and starting rows, ``paths`` the
shapes a move may trace, ``engine`` the game itself.
"""

from rules.conquest.engine import Conquest

__all__ = ["Conquest"]
