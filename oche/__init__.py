"""Oche: a camera referee for dartboard games. The application: CLI, table session, store."""

__version__ = "0.1.0"
