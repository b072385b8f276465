#!/usr/bin/env bash
# Install Oche on Raspberry Pi OS (or another Debian, bookworm or later) as a service that
# starts at boot. Safe to run again: each step checks first and only changes what is missing
# or out of date, so "git pull && sudo deploy/install.sh" is also how you update.
#
#   sudo deploy/install.sh                   install or update
#   deploy/install.sh --dry-run              print every step, change nothing (no root needed)
#   sudo deploy/install.sh --hostname oche   also rename this machine so tablets open http://oche.local
#   sudo deploy/install.sh --uninstall       remove the service and program, keep games and config
#   sudo deploy/install.sh --uninstall --purge   remove games, config and the service user too
set -euo pipefail

usage() {
  cat <<'EOF'
usage: deploy/install.sh [--dry-run] [--camera SPEC] [--port N] [--hostname NAME | --keep-hostname]
       deploy/install.sh --uninstall [--purge] [--dry-run]

  --dry-run          print every step without doing it
  --camera SPEC      camera for a new configuration file: picamera2, a USB number (0) or a
                     stream URL (default: picamera2 on a Raspberry Pi, else 0)
  --port N           web port for a new configuration file (default 80: http://NAME.local)
  --hostname NAME    rename this machine to NAME, so tablets open http://NAME.local
  --keep-hostname    never ask to rename this machine
  --uninstall        stop and remove the service and the program (games and config stay)
  --purge            with --uninstall: also delete games, calibration, config and the user
EOF
}

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ROOT=${OCHE_INSTALL_ROOT:-} # only for the tests: a folder that stands in for /
PREFIX=$ROOT/opt/oche
VENV=$PREFIX/venv
CONSTRAINTS=$PREFIX/constraints.txt
CONFIG_DIR=$ROOT/etc/oche
CONFIG=$CONFIG_DIR/oche.toml
DATA_DIR=$ROOT/var/lib/oche
UNIT=$ROOT/etc/systemd/system/oche.service
AVAHI_SERVICE=$ROOT/etc/avahi/services/oche.service
SERVICE_USER=oche
SYSTEM_PYTHON=/usr/bin/python3 # apt's Python: the one python3-picamera2 is built for
DEVICE_GROUPS=(video render)   # /dev/video*, /dev/media*, /dev/dma_heap, /dev/dri

ARGS=("$@")
dry_run=0
uninstall=0
purge=0
camera=auto
port=80
new_hostname=""
keep_hostname=0
explicit=() # options that only shape a new configuration file

while [ $# -gt 0 ]; do
  case "$1" in
    --dry-run) dry_run=1 ;;
    --uninstall) uninstall=1 ;;
    --purge) purge=1 ;;
    --camera) camera=${2:?--camera needs a value, e.g. --camera 0}; explicit+=(--camera); shift ;;
    --port) port=${2:?--port needs a number, e.g. --port 8000}; explicit+=(--port); shift ;;
    --hostname) new_hostname=${2:?--hostname needs a name, e.g. --hostname oche}; shift ;;
    --keep-hostname) keep_hostname=1 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "install.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
  esac
  shift
done

# --- output and the one place where the system is changed -------------------------------------

step() { printf '\n==> %s\n' "$*"; }
note() { printf '    %s\n' "$*"; }
fail() { printf 'install.sh: %s\n' "$*" >&2; exit 1; }

# Every command that changes the system goes through run (or write_file below).
run() {
  if [ "$dry_run" -eq 1 ]; then
    printf '    [dry-run] would run:'
    printf ' %q' "$@"
    printf '\n'
  else
    printf '    +'
    printf ' %q' "$@"
    printf '\n'
    "$@"
  fi
}

# write_file PATH MODE OWNER:GROUP, content on stdin. Returns 1 when the file was already so.
write_file() {
  local path=$1 mode=$2 owner=$3 content tmp
  content=$(cat)
  if [ -f "$path" ] && [ "$(cat "$path")" = "$content" ]; then
    note "$path is up to date"
    return 1
  fi
  if [ "$dry_run" -eq 1 ]; then
    printf '    [dry-run] would write %s (mode %s, owner %s):\n' "$path" "$mode" "$owner"
    printf '%s\n' "$content" | sed 's/^/        | /'
    return 0
  fi
  tmp=$(mktemp)
  printf '%s\n' "$content" >"$tmp"
  install -D -m "$mode" -o "${owner%%:*}" -g "${owner##*:}" "$tmp" "$path"
  rm -f "$tmp"
  note "wrote $path"
}

is_installed() { [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]; }
declare -A CANDIDATE=() # apt's candidate version per package; apt-cache is slow, ask once
load_candidates() {
  local pkg version
  while read -r pkg version; do
    CANDIDATE[$pkg]=$version
  done < <(apt-cache policy "$@" 2>/dev/null | awk '/^[^ ]+:$/ {p = substr($1, 1, length($1) - 1)} /^ *Candidate:/ {print p, $2}')
}
apt_candidate() {
  [ -n "${CANDIDATE[$1]+set}" ] || load_candidates "$1"
  printf '%s\n' "${CANDIDATE[$1]:-}"
}
is_raspberry_pi() { grep -qs 'Raspberry Pi' /proc/device-tree/model; }

# --- checks -----------------------------------------------------------------------------------

preflight() {
  if [ "$dry_run" -eq 1 ]; then
    printf 'install.sh: DRY RUN. Nothing below is done; every change is printed instead.\n'
  elif [ "$(id -u)" -ne 0 ]; then
    fail "run it as root: sudo $0 ${ARGS[*]}  (or try --dry-run to see what it would do)"
  fi
  [ -f "$SRC/deploy/oche.service" ] || fail "$SRC/deploy/oche.service is missing: run the script from a full checkout"
  command -v apt-get >/dev/null || fail "this script is for Raspberry Pi OS / Debian (apt-get not found)"
  [ -x "$SYSTEM_PYTHON" ] || [ "$dry_run" -eq 1 ] || fail "$SYSTEM_PYTHON not found: sudo apt install python3"
  if [ -x "$SYSTEM_PYTHON" ] && ! "$SYSTEM_PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    fail "Oche needs Python 3.11 or newer; $SYSTEM_PYTHON is $("$SYSTEM_PYTHON" -V 2>&1). Use Raspberry Pi OS bookworm or later"
  fi
}

# --- uninstall --------------------------------------------------------------------------------

uninstall_all() {
  step "Stopping and removing the oche service"
  if [ -f "$UNIT" ] || [ "$dry_run" -eq 1 ]; then
    run systemctl disable --now oche.service
    run rm -f "$UNIT"
    run systemctl daemon-reload
  else
    note "no service installed"
  fi
  run rm -f "$AVAHI_SERVICE"
  step "Removing the program ($PREFIX)"
  run rm -rf "$PREFIX"
  if [ "$purge" -eq 1 ]; then
    step "Purging games, calibration, configuration and the service user"
    run rm -rf "$DATA_DIR" "$CONFIG_DIR"
    if id "$SERVICE_USER" >/dev/null 2>&1 || [ "$dry_run" -eq 1 ]; then
      run userdel "$SERVICE_USER"
    fi
  else
    note "kept: games, PIN and calibration in $DATA_DIR, configuration in $CONFIG_DIR"
    note "(add --purge to delete them, and the '$SERVICE_USER' user, too)"
  fi
  note "the machine's host name is left as it is ($(hostname))"
  step "Oche is uninstalled"
}

# --- install ----------------------------------------------------------------------------------

choose_camera() {
  if [ "$camera" = auto ]; then
    if is_raspberry_pi; then camera=picamera2; else camera=0; fi
    note "camera: $camera (detected; choose with --camera)"
  else
    note "camera: $camera"
  fi
  case "$camera" in picamera | pi) camera=picamera2 ;; esac
}

install_packages() {
  step "System packages (apt)"
  # python3-picamera2 comes from apt, as its maintainers recommend: it must match the
  # libcamera that Raspberry Pi OS ships. python3-numpy is the numpy it is built against.
  local wanted=(python3-venv python3-numpy avahi-daemon) missing=() pkg
  if [ "$camera" = picamera2 ]; then
    wanted+=(python3-picamera2)
  else
    note "python3-picamera2 not needed (camera $camera); use --camera picamera2 for the Pi camera"
  fi
  for pkg in "${wanted[@]}"; do
    if is_installed "$pkg"; then
      note "$pkg is installed"
    else
      missing+=("$pkg")
    fi
  done
  if [ "${#missing[@]}" -eq 0 ]; then
    return
  fi
  local candidate
  load_candidates "${missing[@]}"
  for pkg in "${missing[@]}"; do
    candidate=$(apt_candidate "$pkg")
    if [ -z "$candidate" ] || [ "$candidate" = "(none)" ]; then
      local why="$pkg is not in this machine's apt sources"
      if [ "$pkg" = python3-picamera2 ]; then
        why="$why (it comes from the Raspberry Pi OS archive). Use Raspberry Pi OS, or --camera 0 for a USB camera"
      fi
      if [ "$dry_run" -eq 1 ]; then note "warning: $why"; else fail "$why"; fi
    fi
  done
  run apt-get update
  # --no-install-recommends keeps the desktop preview libraries off a headless Pi.
  run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
}

create_user() {
  step "Service user '$SERVICE_USER'"
  if id "$SERVICE_USER" >/dev/null 2>&1; then
    note "user $SERVICE_USER exists"
  else
    run useradd --system --user-group --home-dir "$DATA_DIR" --no-create-home \
      --shell /usr/sbin/nologin --comment "Oche camera referee" "$SERVICE_USER"
  fi
  local group
  for group in "${DEVICE_GROUPS[@]}"; do
    getent group "$group" >/dev/null || continue
    if id -nG "$SERVICE_USER" 2>/dev/null | tr ' ' '\n' | grep -qx "$group"; then
      note "$SERVICE_USER is in group $group"
    else
      run usermod -aG "$group" "$SERVICE_USER"
    fi
  done
  run install -d -m 0750 -o "$SERVICE_USER" -g "$SERVICE_USER" "$DATA_DIR"
}

system_numpy_version() {
  # The numpy apt installed (or will install). A pip numpy 2.x in the venv would shadow it and
  # break apt's simplejpeg and picamera2, which are compiled against this one.
  local version
  if version=$("$SYSTEM_PYTHON" -c 'import numpy; print(numpy.__version__)' 2>/dev/null); then
    printf '%s\n' "$version"
  else
    # Not installed yet (only in a dry run): apt's candidate, without epoch and Debian revision.
    apt_candidate python3-numpy | sed -E 's/^[0-9]+://; s/[-+~].*$//'
  fi
}

create_venv() {
  step "Python environment $VENV (sees apt's picamera2, libcamera and numpy)"
  if [ -x "$VENV/bin/python" ] && grep -qs '^include-system-site-packages = true' "$VENV/pyvenv.cfg" &&
    [ "$("$VENV/bin/python" -c 'import sys; print(sys.version_info[:2])' 2>/dev/null)" = \
      "$("$SYSTEM_PYTHON" -c 'import sys; print(sys.version_info[:2])' 2>/dev/null)" ]; then
    note "$VENV exists with --system-site-packages"
  else
    if [ -e "$VENV" ]; then
      note "$VENV is not a --system-site-packages venv of $SYSTEM_PYTHON: making it again"
      run rm -rf "$VENV"
    fi
    run install -d -m 0755 "$PREFIX"
    run "$SYSTEM_PYTHON" -m venv --system-site-packages "$VENV"
  fi
}

install_oche() {
  step "Oche from $SRC into $VENV (numpy pinned to the system's)"
  local numpy
  numpy=$(system_numpy_version)
  [ -n "$numpy" ] || fail "cannot tell which numpy apt provides (is python3-numpy installable?)"
  write_file "$CONSTRAINTS" 0644 root:root <<EOF || true
# Written by deploy/install.sh: keep the numpy that apt's picamera2 and simplejpeg are built for.
numpy==$numpy
EOF
  # A numpy that pip put into the venv earlier (by hand, or an older install) shadows apt's.
  if [ -x "$VENV/bin/python" ] && "$VENV/bin/python" -c \
    'import sys, numpy; sys.exit(not numpy.__file__.startswith(sys.prefix))' 2>/dev/null; then
    note "the venv has its own numpy, which would break picamera2: removing it"
    run "$VENV/bin/python" -m pip uninstall --yes --quiet --root-user-action=ignore numpy
  fi
  # A copy, installed not editable: the service user cannot read a checkout in someone's home
  # folder, and a build as root must not leave root-owned build files in that checkout.
  run rm -rf "$PREFIX/src"
  run install -d -m 0755 "$PREFIX/src"
  run tar -C "$SRC" --exclude=./.git --exclude=./.venv --exclude=./build --exclude='*.egg-info' \
    --exclude=__pycache__ --exclude=./tests -cf "$PREFIX/src.tar" .
  run tar -C "$PREFIX/src" -xf "$PREFIX/src.tar"
  run rm -f "$PREFIX/src.tar"
  run "$VENV/bin/python" -m pip install --quiet --root-user-action=ignore \
    --constraint "$CONSTRAINTS" "$PREFIX/src"
  local check="import numpy, cv2, oche; assert numpy.__version__ == '$numpy', numpy.__version__"
  if [ "$camera" = picamera2 ]; then check="$check; import picamera2"; fi
  run "$VENV/bin/python" -c "$check"
}

write_config() {
  step "Configuration $CONFIG"
  if [ -f "$CONFIG" ]; then
    note "$CONFIG exists: kept as it is (your edits are never overwritten)"
    if [ "${#explicit[@]}" -gt 0 ]; then
      note "${explicit[*]} not applied: they only shape a new file. Edit $CONFIG instead"
    fi
  else
    run install -d -m 0755 "$CONFIG_DIR"
    run "$VENV/bin/oche" config init --out "$CONFIG" --set "camera.source=$camera" \
      --set "server.port=$port" --set "data.dir=$DATA_DIR"
    # Group-readable only: it may hold the PIN.
    run chown "root:$SERVICE_USER" "$CONFIG"
    run chmod 0640 "$CONFIG"
  fi
  run "$VENV/bin/oche" config show --config "$CONFIG"
}

# The port and data folder in effect (the configuration file may have been edited).
config_value() {
  if [ "$dry_run" -eq 1 ] || [ ! -x "$VENV/bin/python" ] || [ ! -f "$CONFIG" ]; then
    case "$1" in port) echo "$port" ;; dir) echo "$DATA_DIR" ;; esac
    return
  fi
  "$VENV/bin/oche" config show --config "$CONFIG" --json 2>/dev/null |
    "$VENV/bin/python" -c "import json, sys; c = json.load(sys.stdin); print(c['server']['port'] if sys.argv[1] == 'port' else c['data']['dir'])" "$1"
}

install_service() {
  step "systemd service oche.service (Restart=always, WatchdogSec, logs in the journal)"
  local data_dir
  data_dir=$(config_value dir)
  if [ "$data_dir" != "$DATA_DIR" ]; then
    run install -d -m 0750 -o "$SERVICE_USER" -g "$SERVICE_USER" "$data_dir"
  fi
  if sed -e "s#@USER@#$SERVICE_USER#g" -e "s#@CONFIG@#$CONFIG#g" -e "s#@VENV@#$VENV#g" \
    -e "s#@DATA_DIR@#$data_dir#g" "$SRC/deploy/oche.service" |
    write_file "$UNIT" 0644 root:root; then
    run systemctl daemon-reload
  fi
  run systemctl enable oche.service
}

setup_mdns() {
  step "mDNS name (avahi), so tablets find the table by name"
  local current wanted_port
  current=$(hostname)
  wanted_port=$(config_value port)
  if [ -z "$new_hostname" ] && [ "$keep_hostname" -eq 0 ] && [ "$dry_run" -eq 0 ] &&
    [ "$current" != oche ] && [ -t 0 ]; then
    local answer
    read -r -p "    Rename this machine from '$current' to 'oche' so tablets open http://oche.local? [y/N] " answer
    case "$answer" in y | Y | yes) new_hostname=oche ;; esac
  fi
  if [ -n "$new_hostname" ] && [ "$new_hostname" != "$current" ]; then
    [[ "$new_hostname" =~ ^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$ ]] ||
      fail "--hostname $new_hostname: use lower-case letters, digits and '-'"
    run hostnamectl set-hostname "$new_hostname"
    # Debian resolves its own name through this line; keep it in step with the new name.
    if grep -q '^127\.0\.1\.1' /etc/hosts; then
      run sed -i "s/^127\.0\.1\.1.*/127.0.1.1\t$new_hostname/" /etc/hosts
    else
      run sed -i "\$a 127.0.1.1\t$new_hostname" /etc/hosts
    fi
    current=$new_hostname
  elif [ "$current" != oche ]; then
    note "host name stays '$current' (tablets open http://$current.local);"
    note "run again with --hostname oche for http://oche.local"
  fi
  write_file "$AVAHI_SERVICE" 0644 root:root <<EOF || true
<?xml version="1.0" standalone='no'?>
<!DOCTYPE service-group SYSTEM "avahi-service.dtd">
<!-- Written by Oche's deploy/install.sh: announces the web UI to apps that browse the network. -->
<service-group>
  <name replace-wildcards="yes">Oche on %h</name>
  <service>
    <type>_http._tcp</type>
    <port>$wanted_port</port>
  </service>
</service-group>
EOF
  run systemctl enable avahi-daemon.service
  run systemctl restart avahi-daemon.service
  HOST_FOR_URL=$current
}

start_and_show_pin() {
  step "Starting Oche"
  # Type=notify: this returns once the web UI is up (or fails after TimeoutStartSec).
  if ! run systemctl restart oche.service; then
    note "the service did not start. Its log: journalctl -u oche -n 50 --no-pager"
    run journalctl -u oche -n 30 --no-pager || true
    exit 1
  fi
  local port_in_use url pin data_dir
  port_in_use=$(config_value port)
  data_dir=$(config_value dir)
  url="http://${HOST_FOR_URL:-$(hostname)}.local"
  if [ "$port_in_use" != 80 ]; then url="$url:$port_in_use"; fi
  if [ "$dry_run" -eq 1 ]; then
    pin="(read from settings key 'pin' in $data_dir/oche.sqlite3 once the service runs)"
  else
    # The table keeps its PIN in its database (settings table, key 'pin'); read it read-only.
    pin=$("$VENV/bin/python" - "$data_dir/oche.sqlite3" <<'EOF' || true
import sqlite3, sys
db = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True)
row = db.execute("SELECT value FROM settings WHERE key = 'pin'").fetchone()
print(row[0] if row else "")
EOF
)
    [ -n "$pin" ] || pin="(not set yet: see journalctl -u oche)"
  fi
  step "Oche is installed and starts at every boot"
  note "On a tablet or phone on the same network open:  $url"
  local address
  address=$(hostname -I 2>/dev/null | awk '{print $1}')
  if [ -n "$address" ]; then
    note "(or http://$address${url#http://*.local})"
  fi
  note "Table PIN (needed to control games; change it on the tablet):  $pin"
  note "Configuration: $CONFIG   Games and calibration: $data_dir"
  note "Logs: journalctl -u oche -f      Update: git pull && sudo deploy/install.sh"
  note "Next: print the board (oche board print BOARD --out board.pdf) and calibrate on the tablet"
}

main() {
  preflight
  if [ "$uninstall" -eq 1 ]; then
    uninstall_all
    return
  fi
  step "Oche install from $SRC"
  choose_camera
  install_packages
  create_user
  create_venv
  install_oche
  write_config
  install_service
  setup_mdns
  start_and_show_pin
}

main "$@"
