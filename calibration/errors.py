"""Errors of the calibration step: each says what is wrong and what to do."""

from __future__ import annotations

from oche.errors import UserError


class CalibrationError(UserError):
    """Calibration could not be made (or would be too poor to use); the message says why."""
