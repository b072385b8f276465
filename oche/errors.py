"""Errors caused by the user (bad file, bad argument): shown as a message, never a traceback."""

from __future__ import annotations


class UserError(Exception):
    """A mistake the user can fix. The message says what is wrong and what to do."""

    exit_code = 2
