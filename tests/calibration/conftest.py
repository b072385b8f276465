"""Shared fixtures for the calibration tests."""

from __future__ import annotations

import pytest

import boards


@pytest.fixture(scope="session")
def groundround():
    return boards.load("groundround")


@pytest.fixture(scope="session")
def classic():
    return boards.load("classic")
