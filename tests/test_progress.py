"""Long commands count their work on the terminal, and only there."""

from __future__ import annotations

import io
import sys

from oche.cli import main
from oche.progress import Progress


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_rewrites_one_line_and_leaves_it_blank():
    screen = _Terminal()
    progress = Progress("frames", screen, every=2)
    for done in range(1, 6):
        progress(done, 5)
    # every second count, the last one, then the line blanked for what follows
    assert screen.getvalue() == "\r2/5 frames\r4/5 frames\r5/5 frames\r\033[K"


def test_a_log_or_a_pipe_gets_no_progress():
    piped = io.StringIO()
    progress = Progress("frames", piped)
    progress(1, 2)
    progress.clear()
    assert piped.getvalue() == ""


def test_detect_counts_its_frames_on_the_terminal_apart_from_its_report(
    tmp_path, capsys, monkeypatch
):
    frames = tmp_path / "frames"
    record = ["sim", "record", "--board", "classic", "--out", str(frames), "--seed", "6"]
    assert main([*record, "--darts", "1"]) == 0
    capsys.readouterr()
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    calibration = str(frames / "calibration.json")
    detect = ["detect", "--board", "classic", "--frames", str(frames), "--mode", "video"]
    assert main([*detect, "--calibration", calibration, "--json"]) == 0
    captured = capsys.readouterr()
    total = len(list(frames.glob("frame_*.jpg")))
    assert f"\r{total}/{total} frames" in captured.err and "\r10/" in captured.err
    assert captured.out.startswith('{"event": "calibrated"')  # the report is left clean


def test_the_vision_benchmark_counts_its_sessions(capsys, monkeypatch):
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    assert main(["bench", "vision", "--boards", "classic", "--sessions", "2", "--json"]) == 0
    err = capsys.readouterr().err
    assert "\r1/2 sessions" in err and "\r2/2 sessions" in err
