"""Sparta: the rules engine (``rules.sparta:Sparta`` in the registry)."""

from rules.sparta.engine import COLOURS, Sparta, board_outcome

__all__ = ["COLOURS", "Sparta", "board_outcome"]
