"""deploy/install.sh and deploy/oche.service, checked on this Debian machine without changing it.

The dry runs execute with every system-changing command (apt-get, systemctl, useradd, install,
rm, tar...) shadowed by a stub that records the call and fails, so a dry run that tried to do
anything would be caught, and the places the installer writes to are checked before and after.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
INSTALL = REPO / "deploy" / "install.sh"
UNIT_TEMPLATE = REPO / "deploy" / "oche.service"
WRITES = [
    Path("/opt/oche"),
    Path("/etc/oche"),
    Path("/var/lib/oche"),
    Path("/etc/systemd/system/oche.service"),
    Path("/etc/avahi/services/oche.service"),
]
CHANGERS = [
    "apt-get", "apt", "dpkg", "systemctl", "journalctl", "useradd", "usermod", "userdel",
    "groupadd", "hostnamectl", "install", "mkdir", "rm", "cp", "mv", "ln", "tee", "chown",
    "chmod", "tar", "mktemp", "pip", "pip3", "sudo", "touch",
]  # fmt: skip


def user_exists(name: str) -> bool:
    return subprocess.run(["id", name], capture_output=True).returncode == 0


def system_snapshot() -> tuple[object, ...]:
    return (
        tuple(p.exists() for p in WRITES),
        user_exists("oche"),
        Path("/etc/hostname").read_text() if Path("/etc/hostname").exists() else None,
        Path("/etc/hosts").read_text(),
    )


def dry_runs(
    tmp: Path, *runs: tuple[tuple[str, ...], Path | None]
) -> list[subprocess.CompletedProcess[str]]:
    """Run ``install.sh --dry-run ARGS`` for each (ARGS, stand-in root or None), side by side
    (apt-cache is slow here)."""
    stubs = tmp / "stubs"
    stubs.mkdir(exist_ok=True)
    calls = tmp / "calls.log"
    for name in CHANGERS:
        stub = stubs / name
        stub.write_text(f'#!/bin/sh\necho "{name} $*" >> "{calls}"\nexit 1\n')
        stub.chmod(0o755)
    before = system_snapshot()
    env = {**os.environ, "PATH": f"{stubs}:{os.environ['PATH']}"}
    # The trap works: a command the script would run lands in the log instead of the system.
    subprocess.run(["bash", "-c", "systemctl enable oche.service"], env=env, check=False)
    assert calls.read_text() == "systemctl enable oche.service\n"
    calls.unlink()
    processes = [
        subprocess.Popen(
            ["bash", str(INSTALL), "--dry-run", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            text=True,
            env=env if root is None else {**env, "OCHE_INSTALL_ROOT": str(root)},
        )
        for args, root in runs
    ]
    results = []
    for process in processes:
        out, err = process.communicate(timeout=60)
        results.append(subprocess.CompletedProcess(process.args, process.returncode, out, err))
    assert not calls.exists(), f"the dry run changed the system: {calls.read_text()}"
    assert system_snapshot() == before
    return results


def dry_run(tmp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return dry_runs(tmp, (args, None))[0]


MY_CONFIG = "[server]\nport = 8080  # edited by the user\n"


@pytest.fixture(scope="module")
def plans(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str, str, Path]:
    """Plans for: a Pi camera with a new host name; a USB camera on port 8000; and a machine
    (a stand-in root folder) that already has a configuration file."""
    tmp = tmp_path_factory.mktemp("plans")
    root = tmp / "root"
    (root / "etc" / "oche").mkdir(parents=True)
    (root / "etc" / "oche" / "oche.toml").write_text(MY_CONFIG)
    pi, plain, again = dry_runs(
        tmp,
        (("--camera", "picamera2", "--hostname", "oche"), None),
        (("--camera", "0", "--port", "8000"), None),
        (("--camera", "0", "--port", "8000"), root),
    )
    for result in (pi, plain, again):
        assert result.returncode == 0, result.stderr
    return pi.stdout, plain.stdout, again.stdout, root


@pytest.fixture(scope="module")
def pi_plan(plans: tuple[str, str, str, Path]) -> str:
    return plans[0]


def planned(plan: str) -> list[str]:
    return [line.split("would run: ", 1)[1] for line in plan.splitlines() if "would run: " in line]


def written(plan: str, path: str) -> str:
    """The content the dry run shows for a file it would write."""
    lines = plan.splitlines()
    start = next(i for i, line in enumerate(lines) if f"would write {path} " in line)
    body = []
    for line in lines[start + 1 :]:
        if not line.startswith("        |"):
            break
        body.append(line[len("        | ") :])
    return "\n".join(body) + "\n"


def test_plan_installs_picamera2_from_apt(pi_plan: str) -> None:
    (install,) = [c for c in planned(pi_plan) if "apt-get install" in c]
    assert "python3-picamera2" in install and "--no-install-recommends" in install
    assert "apt-get update" in planned(pi_plan)
    # This Debian has no Raspberry Pi archive: the plan says so instead of failing silently.
    assert "python3-picamera2 is not in this machine's apt sources" in pi_plan


def test_plan_makes_a_venv_that_sees_the_system_packages(pi_plan: str) -> None:
    assert "/usr/bin/python3 -m venv --system-site-packages /opt/oche/venv" in planned(pi_plan)


def test_plan_pins_numpy_to_the_system_one(pi_plan: str) -> None:
    constraints = written(pi_plan, "/opt/oche/constraints.txt")
    (pin,) = re.findall(r"^numpy==(\d+\.\d+[.\d]*)$", constraints, re.M)
    pip = [c for c in planned(pi_plan) if "-m pip install" in c]
    assert pip == [
        "/opt/oche/venv/bin/python -m pip install --quiet --root-user-action=ignore "
        "--constraint /opt/oche/constraints.txt /opt/oche/src"
    ]
    # After installing, the plan checks that the venv really uses that numpy and picamera2.
    check = next(c for c in planned(pi_plan) if c.startswith("/opt/oche/venv/bin/python -c"))
    check = check.replace("\\", "")  # undo the shell quoting of the printed command
    assert f"assert numpy.__version__ == '{pin}'" in check
    assert "import picamera2" in check


def test_plan_writes_config_once_and_enables_the_service(pi_plan: str) -> None:
    steps = planned(pi_plan)
    assert any(
        s.startswith("/opt/oche/venv/bin/oche config init --out /etc/oche/oche.toml")
        and "camera.source=picamera2" in s
        and "server.port=80" in s
        for s in steps
    )
    assert "systemctl enable oche.service" in steps
    assert "systemctl restart oche.service" in steps
    assert steps.index("systemctl enable oche.service") < steps.index(
        "systemctl restart oche.service"
    )
    assert "/etc/oche/oche.toml exists" not in pi_plan  # nothing there yet on this machine


def test_an_existing_configuration_is_never_overwritten(plans: tuple[str, str, str, Path]) -> None:
    _, _, again, root = plans
    config = root / "etc" / "oche" / "oche.toml"
    assert config.read_text() == MY_CONFIG
    assert f"{config} exists: kept as it is" in again
    assert "--camera --port not applied" in again
    steps = planned(again)
    assert not any(" config init " in s for s in steps)
    # It is still checked, so a broken edit shows before the service restarts.
    assert f"{root}/opt/oche/venv/bin/oche config show --config {config}" in steps


def test_plan_creates_a_system_user_with_camera_access(pi_plan: str) -> None:
    steps = planned(pi_plan)
    assert any(s.startswith("useradd --system") and s.endswith(" oche") for s in steps)
    assert "usermod -aG video oche" in steps


def test_plan_renames_the_host_only_when_asked(plans: tuple[str, str, str, Path]) -> None:
    pi_plan, plain, _, _ = plans
    assert "hostnamectl set-hostname oche" in planned(pi_plan)
    avahi = written(pi_plan, "/etc/avahi/services/oche.service")
    assert "<type>_http._tcp</type>" in avahi and "<port>80</port>" in avahi
    assert "http://oche.local" in pi_plan
    # Without --hostname (and no terminal to ask on) the name stays.
    assert not any("hostnamectl" in s for s in planned(plain))
    if socket.gethostname() != "oche":
        assert "run again with --hostname oche for http://oche.local" in plain
    assert ":8000" in plain
    assert "python3-picamera2 not needed (camera 0)" in plain


def test_plan_says_where_the_pin_comes_from(pi_plan: str) -> None:
    assert "Table PIN" in pi_plan
    assert "settings key 'pin' in /var/lib/oche/oche.sqlite3" in pi_plan


def test_rendered_unit(pi_plan: str, tmp_path: Path) -> None:
    unit = written(pi_plan, "/etc/systemd/system/oche.service")
    assert re.findall(r"@[A-Z_]+@", unit) == []  # every placeholder filled in
    assert re.findall(r"@[A-Z_]+@", UNIT_TEMPLATE.read_text())  # (there were some)
    settings = dict(
        line.split("=", 1) for line in unit.splitlines() if "=" in line and not line.startswith("#")
    )
    assert settings["Restart"] == "always"
    assert settings["Type"] == "notify"
    assert int(settings["WatchdogSec"]) >= 10
    assert settings["ExecStart"] == "/opt/oche/venv/bin/oche serve"
    assert settings["User"] == "oche"
    assert settings["AmbientCapabilities"] == "CAP_NET_BIND_SERVICE"
    assert "OCHE_CONFIG=/etc/oche/oche.toml" in unit
    assert settings["WantedBy"] == "multi-user.target"
    analyze = shutil.which("systemd-analyze")
    if analyze is None:  # the checks above still ran
        return
    # verify needs the program to exist: point ExecStart at a stand-in.
    program = tmp_path / "oche"
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    path = tmp_path / "oche.service"
    path.write_text(unit.replace("/opt/oche/venv/bin/oche", str(program)))
    result = subprocess.run([analyze, "verify", str(path)], capture_output=True, text=True)
    problems = [line for line in result.stderr.splitlines() if "oche.service" in line]
    assert result.returncode == 0 and problems == [], result.stderr
    # And the check itself catches mistakes.
    path.write_text(unit.replace("Type=notify", "Type=notfy").replace(
        "/opt/oche/venv/bin/oche", str(program)))  # fmt: skip
    bad = subprocess.run([analyze, "verify", str(path)], capture_output=True, text=True)
    assert "Failed to parse service type" in bad.stderr


def test_uninstall_keeps_games_unless_purged(tmp_path: Path) -> None:
    keep = dry_run(tmp_path, "--uninstall")
    assert keep.returncode == 0, keep.stderr
    steps = planned(keep.stdout)
    assert "systemctl disable --now oche.service" in steps
    assert "rm -rf /opt/oche" in steps
    assert not any("/var/lib/oche" in s for s in steps)
    assert "kept: games, PIN and calibration in /var/lib/oche" in keep.stdout
    purge = dry_run(tmp_path, "--uninstall", "--purge")
    steps = planned(purge.stdout)
    assert "rm -rf /var/lib/oche /etc/oche" in steps
    assert "userdel oche" in steps


def test_bad_option_shows_usage(tmp_path: Path) -> None:
    result = dry_run(tmp_path, "--frobnicate")
    assert result.returncode == 2
    assert "unknown option --frobnicate" in result.stderr and "usage:" in result.stderr


def test_scripts_are_valid_shell() -> None:
    for script in (INSTALL,):
        subprocess.run(["bash", "-n", str(script)], check=True)
        assert os.access(script, os.X_OK), f"{script} must be executable"
    shellcheck = shutil.which("shellcheck")
    if shellcheck is not None:  # not installed here; bash -n above still ran
        result = subprocess.run(
            [shellcheck, "-S", "warning", str(INSTALL)], capture_output=True, text=True
        )
        assert result.returncode == 0, result.stdout
