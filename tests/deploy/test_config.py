"""The configuration file: where it is found, what is accepted, and errors that say the fix."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from oche.cli import main
from oche.config import (
    Config,
    ConfigError,
    config_from_mapping,
    find_config_file,
    load_config,
)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def problems(tmp_path: Path, text: str) -> list[str]:
    with pytest.raises(ConfigError) as info:
        load_config(write(tmp_path / "oche.toml", text))
    return info.value.problems


def test_search_order(tmp_path: Path) -> None:
    system = tmp_path / "etc" / "oche.toml"
    user = tmp_path / "home" / "oche.toml"
    explicit = write(tmp_path / "mine.toml", "")
    from_env = write(tmp_path / "env.toml", "")
    # Nothing anywhere: the built-in defaults.
    assert find_config_file(None, {}, system, user) is None
    write(user, "")
    assert find_config_file(None, {}, system, user) == user
    write(system, "")
    assert find_config_file(None, {}, system, user) == system
    assert find_config_file(None, {"OCHE_CONFIG": str(from_env)}, system, user) == from_env
    env = {"OCHE_CONFIG": str(from_env)}
    assert find_config_file(explicit, env, system, user) == explicit


def test_named_files_must_exist(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"no such file.*oche config init --out"):
        find_config_file(tmp_path / "typo.toml", {})
    with pytest.raises(ConfigError, match=r"from \$OCHE_CONFIG.*unset OCHE_CONFIG"):
        find_config_file(None, {"OCHE_CONFIG": str(tmp_path / "gone.toml")})


def test_a_full_file_is_read(tmp_path: Path) -> None:
    write(tmp_path / "cal.json", "{}")
    config = load_config(
        write(
            tmp_path / "oche.toml",
            """
[camera]
source = "picamera2"
width = 2028
height = 1520
fps = 25
settle_seconds = 3.5
[board]
id = "groundround"
calibration = "cal.json"
[server]
host = "0.0.0.0"
port = 80
pin = "0042"
[data]
dir = "/var/lib/oche"
""",
        )
    )
    assert config.camera.source == "picamera2" and config.camera.is_pi_camera
    assert config.camera.size == (2028, 1520)
    assert config.camera.fps == 25.0 and config.camera.settle_seconds == 3.5
    assert config.board.id == "groundround"
    # Relative paths are relative to the configuration file.
    assert config.board.calibration == tmp_path / "cal.json"
    assert config.calibration_file == tmp_path / "cal.json"
    assert (config.server.port, config.server.pin) == (80, "0042")
    assert config.database == Path("/var/lib/oche/oche.sqlite3")
    assert config.warnings == ()


@pytest.mark.parametrize(
    ("written", "meant"),
    [
        ("0", "0"),
        ("2", "2"),
        ("Picamera", "picamera2"),
        ("pi", "picamera2"),
        ("sim", "sim"),
        ("rtsp://phone.local:8554/cam", "rtsp://phone.local:8554/cam"),
    ],
)
def test_camera_sources(tmp_path: Path, written: str, meant: str) -> None:
    config = load_config(write(tmp_path / "oche.toml", f'[camera]\nsource = "{written}"\n'))
    assert config.camera.source == meant


def test_a_bare_camera_number_is_understood(tmp_path: Path) -> None:
    config = load_config(write(tmp_path / "oche.toml", "[camera]\nsource = 1\n"))
    assert config.camera.source == "1"


def test_unknown_keys_and_sections_suggest_the_right_name(tmp_path: Path) -> None:
    found = problems(tmp_path, "[camera]\nsorce = 'sim'\n[sever]\nport = 80\n")
    assert len(found) == 2
    assert "unknown [camera] sorce" in found[0] and 'did you mean "source"?' in found[0]
    assert "unknown [sever]" in found[1] and 'did you mean "server"?' in found[1]
    assert str(tmp_path / "oche.toml") in found[0]


def test_unknown_key_without_a_near_name_lists_the_known_ones(tmp_path: Path) -> None:
    (problem,) = problems(tmp_path, "[server]\nzzz = 1\n")
    assert "known: host, port, pin" in problem


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[server]\nport = 70000\n", "[server] port 70000 is out of range 1..65535. Fix: use 8000"),
        ("[server]\nport = 0\n", "[server] port 0 is out of range"),
        ('[server]\nport = "80"\n', "[server] port must be a whole number, not a text"),
        ("[server]\nport = true\n", "[server] port must be a whole number, not true/false"),
        ("[server]\npin = 1234\n", "[server] pin must be in quotes"),
        ('[server]\npin = "12ab"\n', "[server] pin '12ab' is not 4 to 8 digits"),
        ("[camera]\nwidth = 1280.5\n", "[camera] width must be a whole number"),
        ("[camera]\nfps = 0\n", "[camera] fps 0 is out of range 1..120"),
        ("[camera]\nsettle_seconds = -1\n", "[camera] settle_seconds -1 is out of range"),
        ('[camera]\nsource = "webcam"\n', "[camera] source 'webcam' is not a camera"),
        ('[camera]\nsource = ""\n', "[camera] source is empty"),
        ('[board]\nid = "dartwar"\n', """no board 'dartwar'. Fix: did you mean "dartwars"?"""),
        ('[board]\nid = "nothing-like-it"\n', "no built-in board 'nothing-like-it' and no file"),
        ('[server]\nhost = "my host"\n', "[server] host 'my host' is not a host name"),
        ("camera = 3\n", "camera must be a section, not a whole number. Fix: write [camera]"),
    ],
)
def test_bad_values_name_the_key_and_the_fix(tmp_path: Path, text: str, expected: str) -> None:
    (problem,) = problems(tmp_path, text)
    assert expected in problem
    assert problem.startswith(str(tmp_path / "oche.toml"))
    assert "Fix:" in problem


def test_every_problem_is_reported_at_once(tmp_path: Path) -> None:
    found = problems(tmp_path, "[server]\nport = -1\npin = 'x'\n[camera]\nfps = 'fast'\n")
    assert [p.split("] ")[1].split(" ")[0] for p in found] == ["port", "pin", "fps"]


def test_data_dir_must_be_a_folder(tmp_path: Path) -> None:
    write(tmp_path / "afile", "")
    (problem,) = problems(tmp_path, '[data]\ndir = "afile"\n')
    assert "exists and is not a folder" in problem


def test_broken_toml_says_where(tmp_path: Path) -> None:
    (problem,) = problems(tmp_path, "[camera\nsource = 'sim'\n")
    assert "not valid TOML" in problem and "line 1" in problem


def test_missing_calibration_is_a_warning_not_an_error(tmp_path: Path) -> None:
    config = load_config(
        write(
            tmp_path / "oche.toml", f'[data]\ndir = "{tmp_path / "data"}"\n[camera]\nsource = "0"\n'
        )
    )
    (warning,) = config.warnings
    # One calibration per board, named after it, in the data folder.
    assert str(tmp_path / "data" / "calibration-dartwars.json") in warning
    assert "Calibrate page" in warning
    # The simulator calibrates itself: no warning.
    sim = load_config(write(tmp_path / "sim.toml", '[camera]\nsource = "sim"\n'))
    assert sim.warnings == ()


def test_board_file_path(tmp_path: Path) -> None:
    write(tmp_path / "boards" / "mine.json", "{}")
    config = load_config(write(tmp_path / "oche.toml", '[board]\nid = "boards/mine.json"\n'))
    assert config.board.id == str(tmp_path / "boards" / "mine.json")
    assert config.calibration_file == config.data.dir / "calibration-mine.json"


def test_default_file_reads_back_as_the_defaults(tmp_path: Path) -> None:
    text = Config().to_toml()
    assert "# pin = " in text  # optional keys are shown, commented out
    assert "# Which camera" in text
    loaded = load_config(write(tmp_path / "oche.toml", text))
    assert loaded.camera == Config().camera
    assert loaded.server == Config().server
    assert loaded.board == Config().board


def test_written_file_round_trips_every_value(tmp_path: Path) -> None:
    original = config_from_mapping(
        {
            "camera": {"source": 'rtsp://cam/stream "1"', "width": 640, "height": 480},
            "server": {"port": 80, "pin": "1234"},
            "board": {"calibration": str(tmp_path / "c.json")},
            "data": {"dir": str(tmp_path / "data")},
        },
        tmp_path / "x.toml",
    )
    again = config_from_mapping(tomllib.loads(original.to_toml()), tmp_path / "x.toml")
    assert again.to_json() == original.to_json()


def test_config_init_writes_once_then_keeps_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "etc" / "oche.toml"
    args = [
        "config",
        "init",
        "--out",
        str(out),
        "--set",
        "camera.source=picamera2",
        "--set",
        "server.port=80",
        "--set",
        f"data.dir={tmp_path / 'data'}",
    ]
    assert main(args) == 0
    config = load_config(out)
    assert (config.camera.source, config.server.port) == ("picamera2", 80)
    out.write_text(out.read_text() + "# edited by the user\n")
    assert main(args) == 2
    assert "exists already; it is kept" in capsys.readouterr().err
    assert out.read_text().endswith("# edited by the user\n")


def test_config_init_refuses_bad_values(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["config", "init", "--out", str(tmp_path / "o.toml"), "--set", "server.port=99999"])
        == 2
    )
    assert "port 99999 is out of range" in capsys.readouterr().err
    assert not (tmp_path / "o.toml").exists()


def test_config_show_reports_errors_with_exit_code_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = write(tmp_path / "oche.toml", "[server]\nprt = 80\n")
    assert main(["config", "show", "--config", str(bad)]) == 2
    assert 'did you mean "port"?' in capsys.readouterr().err
    good = write(tmp_path / "good.toml", '[camera]\nsource = "sim"\n')
    assert main(["config", "show", "--config", str(good), "--json"]) == 0
    assert '"source": "sim"' in capsys.readouterr().out
