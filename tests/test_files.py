"""Files are written whole or not at all, and a failed write says what to do."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from oche.cli import main
from oche.errors import UserError
from oche.files import write_atomic


def test_a_full_disk_keeps_the_old_file_and_says_so(tmp_path, monkeypatch):
    target = tmp_path / "board.svg"
    target.write_text("the old board")

    def full_disk(self, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Path, "write_bytes", full_disk)
    with pytest.raises(UserError, match=r"cannot write .*board\.svg: No space left on device"):
        write_atomic(target, b"the new board")
    assert target.read_text() == "the old board"
    assert list(tmp_path.iterdir()) == [target]  # no half-written file beside it


def test_a_command_that_cannot_write_its_output_gives_a_message(tmp_path, capsys, monkeypatch):
    def read_only(self, data):
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(Path, "write_bytes", read_only)
    out = tmp_path / "board.png"
    assert main(["board", "print", "classic", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"cannot write {out}: Read-only file system. Fix:" in err
    assert "Traceback" not in err
