"""Writing files so that a crash or a full disk never leaves half a file over a good one."""

from __future__ import annotations

from pathlib import Path


def write_atomic(path: str | Path, data: bytes | str) -> None:
    """Write ``data`` to a temporary file beside ``path``, then rename it into place."""
    path = Path(path)
    tmp = path.with_name(path.name + ".part")
    if isinstance(data, str):
        tmp.write_text(data, encoding="utf-8")
    else:
        tmp.write_bytes(data)
    tmp.replace(path)
