"""The command line as a shell pipe uses it."""

from __future__ import annotations

import os
import subprocess
import sys


def test_a_reader_that_went_away_gets_no_traceback(tmp_path):
    # `oche detect --json | head -1`: the reader closes the pipe while events still come.
    # Here it is closed before the first one, so the write surely meets a closed pipe.
    frames = tmp_path / "frames"
    record = [sys.executable, "-m", "oche", "sim", "record", "--board", "classic"]
    subprocess.run(
        [*record, "--out", str(frames), "--seed", "6", "--darts", "1"],
        check=True,
        capture_output=True,
    )
    detect = [sys.executable, "-m", "oche", "detect", "--board", "classic", "--json"]
    detect += ["--frames", str(frames), "--calibration", str(frames / "calibration.json")]
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run(detect, stdout=write_end, stderr=subprocess.PIPE, timeout=120)
    finally:
        os.close(write_end)
    err = done.stderr.decode()
    assert "Traceback" not in err and "BrokenPipeError" not in err, err
    assert done.returncode == 1
