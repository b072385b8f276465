"""Generators of the built-in boards. Each module rebuilds its ``boards/data/<id>.json``:

    python -m boards.builtin.groundround   # writes boards/data/groundround.json

A test checks that every committed board file is exactly what its generator makes.
"""
