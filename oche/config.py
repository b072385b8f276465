"""Oche's settings: one TOML file, validated at start with errors that say how to fix them.

Where the file is looked for (the first that applies wins):

1. ``--config FILE`` on the command line (it must exist);
2. ``$OCHE_CONFIG`` (it must exist too: a set variable is a promise);
3. ``/etc/oche/oche.toml`` if it exists (what ``deploy/install.sh`` writes on a Pi);
4. ``<user config dir>/oche.toml`` (``platformdirs.user_config_dir("oche")``) if it exists;
5. otherwise the built-in defaults.

A missing calibration file is a *warning*, not an error: a fresh install has none until the
first calibration (``oche calibrate`` or the tablet's calibrate page) writes it, and the web UI
must be up for that to happen. Everything else that is wrong stops the start with an error.
"""

from __future__ import annotations

import argparse
import dataclasses
import difflib
import json
import math
import os
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from oche.errors import UserError

SYSTEM_CONFIG = Path("/etc/oche/oche.toml")
CONFIG_NAME = "oche.toml"
PI_CAMERA = "picamera2"
SIMULATED_CAMERA = "sim"
_PI_CAMERA_ALIASES = ("picamera2", "picamera", "pi")
_MAX_PIXELS = 8192  # no camera a Pi can drive delivers more on one side


def user_config_path() -> Path:
    from platformdirs import user_config_dir

    return Path(user_config_dir("oche")) / CONFIG_NAME


def default_data_dir() -> Path:
    # The same place the web UI uses when it is given no data directory.
    from platformdirs import user_data_dir

    return Path(user_data_dir("oche"))


class ConfigError(UserError):
    """One or more problems in a configuration file; the message lists every one."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("\n  ".join(["invalid configuration:", *problems]))


@dataclass(frozen=True)
class CameraConfig:
    source: str = "0"  # "picamera2", a USB index ("0"), a stream URL, "sim" or a replay path
    width: int = 1280
    height: int = 720
    fps: float = 30.0
    settle_seconds: float = 2.0  # then exposure and white balance are frozen

    @property
    def size(self) -> tuple[int, int]:
        return (self.width, self.height)

    @property
    def is_pi_camera(self) -> bool:
        return self.source == PI_CAMERA

    @property
    def is_simulated(self) -> bool:
        return self.source == SIMULATED_CAMERA


@dataclass(frozen=True)
class BoardConfig:
    id: str = "dartwars"  # a built-in board or the path of a board file
    calibration: Path | None = None  # None: <data dir>/calibration-<board>.json


@dataclass(frozen=True)
class ServerConfig:
    host: str = "0.0.0.0"  # every interface, so tablets on the same network reach it
    port: int = 8000  # the Pi install uses 80 (the service may bind it)
    pin: str | None = None  # None: the table keeps (or makes up) its own PIN


@dataclass(frozen=True)
class DataConfig:
    dir: Path = field(default_factory=default_data_dir)


@dataclass(frozen=True)
class Config:
    camera: CameraConfig = field(default_factory=CameraConfig)
    board: BoardConfig = field(default_factory=BoardConfig)
    server: ServerConfig = field(default_factory=ServerConfig)
    data: DataConfig = field(default_factory=DataConfig)
    file: Path | None = None  # where it was read from (None: built-in defaults)
    warnings: tuple[str, ...] = ()

    @property
    def calibration_file(self) -> Path:
        """The calibration to load at start and where a new calibration is saved."""
        if self.board.calibration is not None:
            return self.board.calibration
        # One file per board, so that changing boards keeps each one's calibration.
        return self.data.dir / f"calibration-{Path(self.board.id).stem}.json"

    @property
    def database(self) -> Path:
        """The SQLite event log (games, actions, settings such as the PIN)."""
        return self.data.dir / "oche.sqlite3"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for section in _SECTIONS:
            values = dataclasses.asdict(getattr(self, section))
            out[section] = {k: str(v) if isinstance(v, Path) else v for k, v in values.items()}
        out["file"] = str(self.file) if self.file else None
        out["warnings"] = list(self.warnings)
        return out

    def to_toml(self) -> str:
        """This configuration as a commented TOML file that ``load_config`` reads back."""
        lines = [
            "# Oche configuration. Every key is optional: a missing key keeps its default.",
            "# Check it with `oche config show --config THIS_FILE`.",
        ]
        for section, keys in _SECTIONS.items():
            lines += ["", f"[{section}]"]
            values = getattr(self, section)
            for key, spec in keys.items():
                lines += [f"# {line}" for line in spec.help.splitlines()]
                value = getattr(values, key)
                if value is None:
                    lines.append(f"# {key} = {_toml_value(spec.example)}")
                else:
                    lines.append(f"{key} = {_toml_value(value)}")
        return "\n".join(lines) + "\n"


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    # A TOML basic string has JSON's escapes for everything a path or URL can hold.
    return json.dumps(str(value), ensure_ascii=False)


# --- the schema ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Key:
    """How one key is checked: ``parse`` returns the value or raises ``_BadValueError(problem, fix)``."""

    parse: Callable[[Any, Path], Any]
    help: str
    example: Any = None


class _BadValueError(Exception):
    def __init__(self, problem: str, fix: str) -> None:
        super().__init__(problem)
        self.problem = problem
        self.fix = fix


def _type_name(value: Any) -> str:
    names = {bool: "true/false", int: "a whole number", float: "a number", str: "a text"}
    return names.get(type(value), type(value).__name__)


def _integer(low: int, high: int, fix: str) -> Callable[[Any, Path], int]:
    def parse(value: Any, _base: Path) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise _BadValueError(
                f"must be a whole number, not {_type_name(value)} ({value!r})", fix
            )
        if not low <= value <= high:
            raise _BadValueError(f"{value} is out of range {low}..{high}", fix)
        return value

    return parse


def _number(low: float, high: float, fix: str) -> Callable[[Any, Path], float]:
    def parse(value: Any, _base: Path) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise _BadValueError(f"must be a number, not {_type_name(value)} ({value!r})", fix)
        if not (math.isfinite(value) and low <= value <= high):
            raise _BadValueError(f"{value} is out of range {low:g}..{high:g}", fix)
        return float(value)

    return parse


def _text(value: Any, fix: str) -> str:
    if not isinstance(value, str):
        raise _BadValueError(f"must be a text in quotes, not {_type_name(value)} ({value!r})", fix)
    if not value.strip():
        raise _BadValueError("is empty", fix)
    return value.strip()


def _path(value: Any, base: Path, fix: str) -> Path:
    """A path; relative ones are relative to the configuration file's folder."""
    path = Path(os.path.expanduser(_text(value, fix)))
    return path if path.is_absolute() else (base / path)


def _camera_source(value: Any, base: Path) -> str:
    fix = 'use "picamera2", a USB camera number such as "0", "rtsp://HOST/PATH" or "sim"'
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return str(value)  # `source = 0` means what the user thinks it means
    text = _text(value, fix)
    if text.lower() in _PI_CAMERA_ALIASES:
        return PI_CAMERA
    if text.lower() == SIMULATED_CAMERA or text.isdigit():
        return text.lower()
    scheme, sep, rest = text.partition("://")
    if sep:
        if not scheme.isalpha() or not rest:
            raise _BadValueError(f"{text!r} is not a stream URL", fix)
        return text
    replay = _path(text, base, fix)
    if replay.exists():  # a folder of images or a video file, replayed as a camera
        return str(replay)
    raise _BadValueError(
        f"{text!r} is not a camera, a stream URL or an existing file or folder", fix
    )


def _board_id(value: Any, base: Path) -> str:
    import boards

    fix = f"use one of {', '.join(boards.BUILTIN)} or the path of a board file"
    text = _text(value, fix)
    if text in boards.BUILTIN:
        return text
    path = _path(text, base, fix)
    if path.is_file():
        return str(path)
    near = difflib.get_close_matches(text, boards.BUILTIN, n=1)
    if near:
        raise _BadValueError(f"no board {text!r}", f'did you mean "{near[0]}"? ({fix})')
    raise _BadValueError(f"no built-in board {text!r} and no file {str(path)!r}", fix)


def _calibration(value: Any, base: Path) -> Path:
    return _path(value, base, "give the path of a calibration file (JSON) in quotes")


def _host(value: Any, _base: Path) -> str:
    fix = 'use "0.0.0.0" (every network interface) or "127.0.0.1" (this machine only)'
    text = _text(value, fix)
    if any(c.isspace() for c in text) or "/" in text:
        raise _BadValueError(f"{text!r} is not a host name or address", fix)
    return text


def _pin(value: Any, _base: Path) -> str:
    fix = 'write 4 to 8 digits in quotes, e.g. pin = "4711", or leave the key out'
    if isinstance(value, int) and not isinstance(value, bool):
        raise _BadValueError("must be in quotes (a number would lose leading zeros)", fix)
    text = _text(value, fix)
    if not (text.isdigit() and 4 <= len(text) <= 8):
        raise _BadValueError(f"{text!r} is not 4 to 8 digits", fix)
    return text


def _data_dir(value: Any, base: Path) -> Path:
    fix = 'give a folder Oche may write to, e.g. dir = "/var/lib/oche"'
    path = _path(value, base, fix)
    if path.exists() and not path.is_dir():
        raise _BadValueError(f"{str(path)!r} exists and is not a folder", fix)
    return path


_SECTIONS: dict[str, dict[str, _Key]] = {
    "camera": {
        "source": _Key(
            _camera_source,
            'Which camera: "picamera2" (the Pi camera module), a USB camera number ("0"),\n'
            'a network stream ("rtsp://phone.local:8554/cam") or "sim" (the simulator).',
        ),
        "width": _Key(
            _integer(160, _MAX_PIXELS, "use e.g. 1280 (with height = 720)"),
            "Frame size in pixels the camera delivers to the detector.",
        ),
        "height": _Key(
            _integer(120, _MAX_PIXELS, "use e.g. 720 (with width = 1280)"),
            "",
        ),
        "fps": _Key(
            _number(1, 120, "use e.g. 30 (frames per second)"),
            "Frames per second asked of the camera.",
        ),
        "settle_seconds": _Key(
            _number(0, 60, "use e.g. 2 (seconds)"),
            "Seconds the camera adjusts itself at start; then exposure and white balance\n"
            "are frozen so that only darts change the picture.",
        ),
    },
    "board": {
        "id": _Key(
            _board_id,
            'The board on the wall: "dartwars", "groundround", "classic" or a board file.',
        ),
        "calibration": _Key(
            _calibration,
            "The calibration file; left out: calibration-<board>.json in the data folder.\n"
            "A missing file is only a warning: calibrate from the tablet to create it.",
            example="/var/lib/oche/calibration-dartwars.json",
        ),
    },
    "server": {
        "host": _Key(_host, 'Where the web UI listens: "0.0.0.0" lets tablets connect.'),
        "port": _Key(
            _integer(1, 65535, "use 8000, or 80 when the service may bind it (the Pi install)"),
            "The web UI's port (80: tablets open http://oche.local without a port).",
        ),
        "pin": _Key(
            _pin,
            "The PIN tablets need to control the game. Left out: the table makes one\n"
            "up, keeps it in its database and prints it at start.",
            example="4711",
        ),
    },
    "data": {
        "dir": _Key(
            _data_dir,
            "Folder for the game database (oche.sqlite3), dart photos and calibration.",
        ),
    },
}


# --- loading ------------------------------------------------------------------------------


def find_config_file(
    explicit: Path | None = None,
    environ: Mapping[str, str] | None = None,
    system_path: Path = SYSTEM_CONFIG,
    user_path: Path | None = None,
) -> Path | None:
    """The file to read, in the order described at the top; None: use the defaults."""
    environ = os.environ if environ is None else environ
    if explicit is not None:
        if not explicit.is_file():
            raise ConfigError(
                [
                    f"{explicit}: no such file. Fix: check the --config path or create it "
                    f"with `oche config init --out {explicit}`"
                ]
            )
        return explicit
    from_env = environ.get("OCHE_CONFIG")
    if from_env:
        path = Path(from_env)
        if not path.is_file():
            raise ConfigError(
                [
                    f"{path} (from $OCHE_CONFIG): no such file. Fix: create it with "
                    f"`oche config init --out {path}` or unset OCHE_CONFIG"
                ]
            )
        return path
    for candidate in (system_path, user_path or user_config_path()):
        if candidate.is_file():
            return candidate
    return None


def load_config(path: Path | None = None, environ: Mapping[str, str] | None = None) -> Config:
    """Read and check the configuration (see the module docstring for where it is found)."""
    found = find_config_file(path, environ)
    if found is None:
        return _with_warnings(Config())
    try:
        document = tomllib.loads(found.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise ConfigError([f"{found}: not a text file. Fix: save it as UTF-8 text"]) from None
    except OSError as exc:
        raise ConfigError(
            [f"{found}: cannot read it ({exc.strerror}). Fix: check its permissions"]
        ) from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(
            [f"{found}: not valid TOML ({exc}). Fix: compare with `oche config init --out -`"]
        ) from None
    return config_from_mapping(document, found)


def config_from_mapping(document: Mapping[str, Any], file: Path) -> Config:
    """Check a parsed TOML document; every problem is reported at once."""
    problems: list[str] = []
    base = file.parent
    sections: dict[str, dict[str, Any]] = {name: {} for name in _SECTIONS}
    for name, table in document.items():
        if name not in _SECTIONS:
            problems.append(_unknown(file, f"[{name}]", name, list(_SECTIONS)))
            continue
        if not isinstance(table, dict):
            problems.append(
                f"{file}: {name} must be a section, not {_type_name(table)}. "
                f"Fix: write [{name}] on a line of its own and its keys below it"
            )
            continue
        keys = _SECTIONS[name]
        for key, value in table.items():
            if key not in keys:
                problems.append(_unknown(file, f"[{name}] {key}", key, list(keys)))
                continue
            try:
                sections[name][key] = keys[key].parse(value, base)
            except _BadValueError as bad:
                problems.append(f"{file}: [{name}] {key} {bad.problem}. Fix: {bad.fix}")
    if problems:
        raise ConfigError(problems)
    config = Config(
        camera=CameraConfig(**sections["camera"]),
        board=BoardConfig(**sections["board"]),
        server=ServerConfig(**sections["server"]),
        data=DataConfig(**sections["data"]),
        file=file,
    )
    return _with_warnings(config)


def _unknown(file: Path, where: str, name: str, known: list[str]) -> str:
    near = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
    hint = f'did you mean "{near[0]}"?' if near else f"known: {', '.join(known)}"
    return f"{file}: unknown {where}. Fix: {hint}"


def _with_warnings(config: Config) -> Config:
    warnings = []
    if not config.calibration_file.is_file() and not config.camera.is_simulated:
        origin = f"{config.file}: [board] calibration" if config.board.calibration else "default"
        warnings.append(
            f"no calibration file at {config.calibration_file} ({origin}): darts cannot be "
            "scored until the board is calibrated. Fix: calibrate on the tablet's "
            "Calibrate page or with `oche calibrate ... --out` to that path"
        )
    return dataclasses.replace(config, warnings=tuple(warnings))


def add_config_argument(parser: argparse.ArgumentParser) -> None:
    """``--config FILE`` with the search order in its help text (for serve, demo, config)."""
    parser.add_argument(
        "--config",
        type=Path,
        help=(
            "configuration file (TOML). Default: $OCHE_CONFIG, else /etc/oche/oche.toml, "
            f"else {user_config_path()} if they exist, else built-in defaults"
        ),
    )
