"""Dawgs of War (Nathan Hansen): a side-view aerial dogfight for 2 to 8 planes.

Modules: ``hexgrid`` (map geometry, cones, rotation), ``data`` (cards, track, defaults),
``config`` (options), ``planes`` (plane state helpers), ``setup``, ``movement`` (phase 2),
``combat`` (phases 3-5), ``flow`` (phase order), ``engine`` (the ``Game``).
Rules document: ``docs/rules/dawgs-of-war.md``.
"""

from rules.dawgs.engine import DawgsOfWar

__all__ = ["DawgsOfWar"]
