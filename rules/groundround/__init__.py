"""Ground Round: capture symbol hexes with darts; whoever holds every Flag wins."""

from rules.groundround.engine import GroundRound

__all__ = ["GroundRound"]
