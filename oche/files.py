"""Writing files so that a crash or a full disk never leaves half a file over a good one."""

from __future__ import annotations

from pathlib import Path

from oche.errors import UserError


def write_atomic(path: str | Path, data: bytes | str) -> None:
    """Write ``data`` to a temporary file beside ``path``, then rename it into place."""
    path = Path(path)
    tmp = path.with_name(path.name + ".part")
    try:
        if isinstance(data, str):
            tmp.write_text(data, encoding="utf-8")
        else:
            tmp.write_bytes(data)
        tmp.replace(path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise UserError(
            f"cannot write {path}: {exc.strerror or exc}. Fix: give a path in a folder that "
            "exists and that you may write to, on a disk with room left"
        ) from None
