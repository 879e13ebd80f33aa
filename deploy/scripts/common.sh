# shellcheck shell=bash
# Shared helpers for deploy/scripts/*.sh. Sourced, never executed directly.
# Everything lives under <repo>/.devtrail (git-ignored):
#   run/   pid files        logs/  one log per engine
#   kafka/ jars + data      pg/    PostgreSQL cluster      clickhouse/  stand-in data
# (run/, logs/ and the engines' data move to DEVTRAIL_STACK_DIR when it is set.)

set -euo pipefail

DT_SCRIPTS="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)"
DT_ROOT="$(cd "$DT_SCRIPTS/../.." && pwd -P)"
DT_STATE="$DT_ROOT/.devtrail"
# DEVTRAIL_STACK_DIR (default .devtrail) holds the engines' data, pid files and logs. A suite that
# stops or freezes an engine runs a private one there, on ports of its own (DEVTRAIL_PORT_OFFSET),
# beside the shared stack (test/support/private-engine.ts); tools and jars stay in .devtrail.
DT_STACK="${DEVTRAIL_STACK_DIR:-$DT_STATE}"
DT_RUN="$DT_STACK/run"
DT_LOGS="$DT_STACK/logs"
DT_NAME="${DT_NAME:-devtrail}"

mkdir -p "$DT_RUN" "$DT_LOGS"

# DEVTRAIL_PORT_OFFSET (default 0) shifts every port of the local stack, so a second checkout
# (a git worktree) can run a stack of its own beside the first: `services.sh env` prints the
# shifted addresses and test.sh exports them for the suites.
DT_PORT_OFFSET="${DEVTRAIL_PORT_OFFSET:-0}"
[[ "$DT_PORT_OFFSET" =~ ^[0-9]+$ ]] || { echo "DEVTRAIL_PORT_OFFSET must be a whole number, got '$DT_PORT_OFFSET'" >&2; exit 2; }
port() { echo $(($1 + DT_PORT_OFFSET)); } # port <default>: the default shifted by the offset

# Node.js: 22.12 or later (package.json engines). A machine with an older node gets one in
# .devtrail/node from deploy/scripts/node.sh install (make install), used first from here on.
DT_NODE="$DT_STATE/node"
node_supported() { # node_supported <path to node>: true for 22.12 or later
  [ -n "${1:-}" ] && "$1" -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>22||(a===22&&b>=12)?0:1)' 2>/dev/null
}
if [ -x "$DT_NODE/bin/node" ] && ! node_supported "$(command -v node || true)"; then
  export PATH="$DT_NODE/bin:$PATH"
fi

say() { printf '[%s] %s\n' "$DT_NAME" "$*"; }
warn() { printf '[%s] WARNING: %s\n' "$DT_NAME" "$*" >&2; }
die() { printf '[%s] ERROR: %s\n' "$DT_NAME" "$*" >&2; exit 1; }

now_ms() { date +%s%3N; }
elapsed() { # elapsed <start_ms> -> "1.234s"
  local d=$(( $(now_ms) - $1 ))
  printf '%d.%03ds' $((d / 1000)) $((d % 1000))
}

is_root() { [ "$(id -u)" = 0 ]; }

# True when the pid exists and is not a zombie.
pid_alive() {
  local pid="${1:-}" state
  [ -n "$pid" ] && [ "$pid" -gt 0 ] 2>/dev/null || return 1
  kill -0 "$pid" 2>/dev/null || return 1
  state="$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null || true)"
  [ -n "$state" ] && [ "$state" != Z ] && [ "$state" != X ]
}

pid_cmdline() { { tr '\0' ' ' <"/proc/$1/cmdline"; } 2>/dev/null || true; }

# pid_matches <pid> <fixed string that our command line contains>
pid_matches() { pid_alive "$1" && [[ "$(pid_cmdline "$1")" == *"$2"* ]]; }

# find_pid <pidfile> <signature>: prints the pid of our running process, or nothing.
# Uses the pid file first, then scans /proc (pid file lost, or process adopted).
find_pid() {
  local pidfile="$1" sig="$2" pid="" p
  [ -f "$pidfile" ] && pid="$(head -n1 "$pidfile" 2>/dev/null | tr -dc 0-9)"
  if [ -n "$pid" ] && pid_matches "$pid" "$sig"; then echo "$pid"; return 0; fi
  for p in /proc/[0-9]*; do
    p="${p#/proc/}"
    [ "$p" = "$$" ] && continue
    if [[ "$(pid_cmdline "$p")" == *"$sig"* ]] && pid_alive "$p"; then
      # Skip shells/greps that merely mention the signature in their arguments.
      case "$(cat "/proc/$p/comm" 2>/dev/null)" in bash|sh|grep|pgrep|make|timeout) continue ;; esac
      echo "$p"; echo "$p" >"$pidfile"; return 0
    fi
  done
  rm -f "$pidfile"
  return 1
}

# lock_service: one start/stop at a time per service (a second caller waits).
# fd 9 holds the lock; anything launched in the background must close it (9>&-).
lock_service() {
  exec 9>"$DT_RUN/$DT_NAME.lock"
  flock -w "${1:-180}" 9 || die "another '$DT_NAME' start/stop is still running"
}

# stop_pid <pid> <timeout_s>: SIGTERM to the process group (each engine is started
# with setsid, so its pgid is its pid), wait, then SIGKILL.
stop_pid() {
  local pid="$1" timeout="$2" deadline
  local target="$pid"
  [ "$(ps -o pgid= -p "$pid" 2>/dev/null | tr -d ' ')" = "$pid" ] && target="-$pid"
  kill -TERM -- "$target" 2>/dev/null || true
  deadline=$(( $(now_ms) + timeout * 1000 ))
  while pid_alive "$pid" && [ "$(now_ms)" -lt "$deadline" ]; do sleep 0.1; done
  if pid_alive "$pid"; then
    warn "pid $pid still running after ${timeout}s, sending SIGKILL"
    kill -KILL -- "$target" 2>/dev/null || true
    deadline=$(( $(now_ms) + 10000 ))
    while pid_alive "$pid" && [ "$(now_ms)" -lt "$deadline" ]; do sleep 0.1; done
  fi
  ! pid_alive "$pid"
}

# kill_group <pid>: SIGKILL, and nothing before it (stop_pid sends SIGTERM first, which lets
# an engine start its orderly shutdown), to the process group when the pid leads one; then wait.
kill_group() {
  local pid="$1" target="$1" deadline
  [ "$(ps -o pgid= -p "$pid" 2>/dev/null | tr -d ' ')" = "$pid" ] && target="-$pid"
  kill -KILL -- "$target" 2>/dev/null || true
  deadline=$(( $(now_ms) + 10000 ))
  while pid_alive "$pid" && [ "$(now_ms)" -lt "$deadline" ]; do sleep 0.1; done
}

# port_open <port>: something accepts TCP connections on 127.0.0.1:<port>.
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# port_owner <port>: a short description of who listens there (best effort).
port_owner() { ss -ltnpH "sport = :$1" 2>/dev/null | sed -E 's/.*users:\(\((.*)\)\).*/\1/' | head -n1; }

require_free_port() { # require_free_port <port> <what>
  if port_open "$1"; then
    die "port $1 ($2) is already taken by another process: $(port_owner "$1"). Stop it, or it is a stack from another checkout."
  fi
}

# Keep logs from growing without bound across many restarts in test runs.
rotate_log() {
  local f="$1"
  if [ -f "$f" ] && [ "$(stat -c %s "$f")" -gt $((64 * 1024 * 1024)) ]; then mv -f "$f" "$f.1"; fi
}

log_tail() { # log_tail <file> [lines]
  local f="$1" n="${2:-40}"
  printf '[%s] ---- last %s lines of %s ----\n' "$DT_NAME" "$n" "${f#"$DT_ROOT/"}" >&2
  tail -n "$n" "$f" >&2 2>/dev/null || true
  printf '[%s] ----\n' "$DT_NAME" >&2
}

# The machine's cache of what several checkouts install alike (pinned Python packages, built tools):
# a clean clone on a machine that installed them once finds them there. DEVTRAIL_MACHINE_CACHE
# moves it; deleting it only costs the next install its time.
DT_MACHINE_CACHE="${DEVTRAIL_MACHINE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/devtrail}"

# machine_venv <link> <name> <key>: points <link> (a venv path under .devtrail) at a virtualenv in
# the machine's cache, named by <name> and a hash of <key> (what is pinned in it) and of the Python,
# creating it when missing. Install into it with machine_pip, which holds the venv's lock, so two
# checkouts never pip install into one venv at once.
machine_venv() {
  local link="$1" name="$2" key="$3" dir
  command -v python3 >/dev/null || apt_install python3
  dir="$DT_MACHINE_CACHE/venvs/$name-$(printf '%s\n%s' "$key" "$(python3 -VV)" | sha1sum | cut -c1-12)"
  mkdir -p "$DT_MACHINE_CACHE/venvs"
  (flock -w 600 8 || die "another install holds $dir"; python_venv "$dir") 8>"$dir.lock" || exit 1
  if [ "$(readlink "$link" 2>/dev/null)" != "$dir" ]; then
    rm -rf "$link"
    ln -s "$dir" "$link"
  fi
}

# machine_pip <link> <pip arguments...>: pip install into the machine venv <link> points at, under its lock.
machine_pip() {
  local link="$1"
  shift
  flock -w 600 "$(readlink "$link").lock" "$link/bin/pip" install --quiet --disable-pip-version-check "$@"
}

# python_venv <dir>: a Python virtualenv at <dir>, with python3 and its venv module from Debian when missing.
python_venv() {
  command -v python3 >/dev/null || apt_install python3
  python3 -c 'import venv, ensurepip' 2>/dev/null || apt_install python3-venv
  [ -x "$1/bin/pip" ] || python3 -m venv "$1"
}

# apt_install <package...>: install Debian packages (root only), running
# `apt-get update` only when the lists are missing or the first attempt fails. One at a time
# (install-all.sh runs installs side by side): a lock of ours, and apt's own lock waited for.
apt_install() {
  is_root || die "missing $*; install with: sudo apt-get install -y $*"
  command -v apt-get >/dev/null || die "missing $* and no apt-get on this machine"
  (
    flock -w 900 9 || die "another apt-get install held the lock for 15 minutes"
    apt_install_locked "$@"
  ) 9>/tmp/devtrail-apt.lock || exit 1
}

apt_install_locked() {
  export DEBIAN_FRONTEND=noninteractive
  if ! ls /var/lib/apt/lists/*_Packages >/dev/null 2>&1; then
    say "apt-get update"
    apt-get update -qq
  fi
  say "apt-get install -y $*"
  if ! apt-get install -o DPkg::Lock::Timeout=300 -y -qq --no-install-recommends "$@" >/dev/null; then
    say "retrying after apt-get update"
    apt-get update -qq
    apt-get install -o DPkg::Lock::Timeout=300 -y -qq --no-install-recommends "$@" >/dev/null
  fi
}

# ensure_node_modules: install npm packages when node_modules is missing or older than package-lock.json.
# `npm install`, not `npm ci`: chdb lists optional per-platform packages (macOS builds) that
# this machine's registry does not serve, so no lock file written here can satisfy `npm ci`'s
# completeness check; `npm install` skips missing optional packages and keeps the lock's versions.
node_modules_stale() {
  [ ! -f "$DT_ROOT/node_modules/.package-lock.json" ] ||
    [ "$DT_ROOT/package-lock.json" -nt "$DT_ROOT/node_modules/.package-lock.json" ]
}
ensure_node_modules() {
  command -v node >/dev/null || die "node (22.12 or later) is not installed"
  if ! node_modules_stale; then
    [ "${1:-}" = verbose ] && say "node_modules up to date"
    return 0
  fi
  say "npm install (node_modules missing or older than package-lock.json)"
  (cd "$DT_ROOT" && npm install --no-save --no-audit --no-fund --loglevel=error >"$DT_LOGS/npm-install.log" 2>&1) ||
    { tail -n 20 "$DT_LOGS/npm-install.log" >&2; die "npm install failed (full output: .devtrail/logs/npm-install.log)"; }
}

# The lifecycle verbs every service script shares. They read the caller's PIDFILE, SIG
# (what the process's command line must contain) and STOP_TIMEOUT.

# service_stop: SIGTERM, wait up to STOP_TIMEOUT, then SIGKILL; idempotent.
service_stop() {
  local pid t0
  t0=$(now_ms)
  if ! pid="$(find_pid "$PIDFILE" "$SIG")"; then say "not running"; rm -f "$PIDFILE"; return 0; fi
  say "stopping pid $pid"
  stop_pid "$pid" "$STOP_TIMEOUT" || die "pid $pid did not exit"
  rm -f "$PIDFILE"
  say "stopped in $(elapsed "$t0")"
}

# service_kill [KILLER]: simulate a crash (SIGKILL, via KILLER pid when given, e.g. kill_tree).
service_kill() {
  local pid killer="${1:-}"
  if ! pid="$(find_pid "$PIDFILE" "$SIG")"; then say "not running"; rm -f "$PIDFILE"; return 0; fi
  say "killing pid $pid (SIGKILL)"
  if [ -n "$killer" ]; then "$killer" "$pid"; else kill_group "$pid"; fi
  rm -f "$PIDFILE"
  pid_alive "$pid" && die "pid $pid survived SIGKILL"
  say "killed"
}

# service_status PROBE... ADDRESS: exit 0 only when the process runs and PROBE succeeds.
service_status() {
  local pid address="${*: -1}" probe=("${@:1:$#-1}")
  if ! pid="$(find_pid "$PIDFILE" "$SIG")"; then say "stopped"; return 1; fi
  if "${probe[@]}" 2>/dev/null; then say "running (pid $pid), answering on $address"; return 0; fi
  say "running (pid $pid) but NOT answering on $address"
  return 1
}
