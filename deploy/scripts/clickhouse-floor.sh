#!/usr/bin/env bash
# The ClickHouse floor for CI on 127.0.0.1:18124: the stand-in's HTTP protocol over ClickHouse
# 24.8.4.1 (PyPI's chdb==3.0.1, in a venv under .devtrail/), the oldest server devtrail supports.
# `make test` starts it (unless it runs) and runs the "floor" suites against it (vitest.config.ts);
# test/clickhouse-standin/README.md#the-floor says what it serves.
#
#   deploy/scripts/clickhouse-floor.sh install  create the venv and pip install the pinned chdb; idempotent
#   deploy/scripts/clickhouse-floor.sh start    start in the background, wait until GET /ping answers "Ok."
#   deploy/scripts/clickhouse-floor.sh stop     SIGTERM, wait, SIGKILL after a timeout (data is kept)
#   deploy/scripts/clickhouse-floor.sh status   exit 0 only when /ping answers
#   deploy/scripts/clickhouse-floor.sh url      print its URL (shifted by DEVTRAIL_PORT_OFFSET)
#   deploy/scripts/clickhouse-floor.sh reset    stop and delete its data
DT_NAME=clickhouse-floor
# shellcheck source=common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

CH_HOST=127.0.0.1
CH_PORT=$(port 18124)
DIR="$DT_ROOT/test/clickhouse-standin/floor"
ENTRY="$DIR/standin.py"
REQ="$DIR/requirements.txt"
VENV="$DT_STATE/clickhouse-floor-venv"
PY="$VENV/bin/python"
DATA="$DT_STATE/clickhouse-floor"
LOG="$DT_LOGS/clickhouse-floor.log"
PIDFILE="$DT_RUN/clickhouse-floor.pid"
SIG="$ENTRY" # our server's command line contains the absolute path of its entry point
START_TIMEOUT="${DEVTRAIL_CLICKHOUSE_START_TIMEOUT:-60}"
STOP_TIMEOUT="${DEVTRAIL_CLICKHOUSE_STOP_TIMEOUT:-15}"

ping_ok() { [ "$(curl -s -m "${1:-2}" "http://$CH_HOST:$CH_PORT/ping" 2>/dev/null)" = "Ok." ]; }
installed() { [ -x "$PY" ] && cmp -s "$REQ" "$VENV/requirements.txt" && "$PY" -c 'import chdb' 2>/dev/null; }

cmd_install() {
  if installed; then say "$(cat "$REQ") already installed"; return 0; fi
  local t0
  t0=$(now_ms)
  python_venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check -r "$REQ"
  cp "$REQ" "$VENV/requirements.txt"
  installed || die "installed but $PY cannot import chdb"
  say "installed $(cat "$REQ") in $(elapsed "$t0")"
}

cmd_start() {
  local pid t0 deadline
  t0=$(now_ms)
  if pid="$(find_pid "$PIDFILE" "$SIG")"; then
    if ping_ok 1; then say "already running (pid $pid) on $CH_HOST:$CH_PORT"; return 0; fi
    say "already started (pid $pid), waiting for /ping"
  else
    installed || cmd_install
    command -v curl >/dev/null || apt_install curl
    require_free_port "$CH_PORT" "ClickHouse floor HTTP"
    mkdir -p "$DATA"
    rotate_log "$LOG"
    printf '\n===== devtrail clickhouse-floor start %s =====\n' "$(date -Is)" >>"$LOG"
    (cd "$DT_ROOT" && export CLICKHOUSE_STANDIN_PORT="$CH_PORT" CLICKHOUSE_STANDIN_DATA="$DATA" &&
      exec setsid "$PY" "$ENTRY" >>"$LOG" 2>&1 </dev/null 9>&-) &
    pid=$!
    echo "$pid" >"$PIDFILE"
    say "started pid $pid, waiting for http://$CH_HOST:$CH_PORT/ping (timeout ${START_TIMEOUT}s)"
  fi
  deadline=$(( $(now_ms) + START_TIMEOUT * 1000 ))
  until ping_ok 1; do
    if ! pid_alive "$pid"; then
      rm -f "$PIDFILE"
      log_tail "$LOG" 40
      die "the floor stand-in exited during startup (full log: .devtrail/logs/clickhouse-floor.log)"
    fi
    if [ "$(now_ms)" -ge "$deadline" ]; then
      log_tail "$LOG" 40
      stop_pid "$pid" 5 || true
      rm -f "$PIDFILE"
      die "no answer on /ping after ${START_TIMEOUT}s (full log: .devtrail/logs/clickhouse-floor.log)"
    fi
    sleep 0.2
  done
  say "ready on http://$CH_HOST:$CH_PORT (pid $pid) in $(elapsed "$t0")"
}

case "${1:-}" in
  start|stop|restart|reset) lock_service 180 ;;
esac
case "${1:-}" in
  install) cmd_install ;;
  start) cmd_start ;;
  stop) service_stop ;;
  restart) service_stop; cmd_start ;;
  status) service_status ping_ok 3 "http://$CH_HOST:$CH_PORT" ;;
  url) echo "http://$CH_HOST:$CH_PORT" ;;
  reset) service_stop; say "deleting ${DATA#"$DT_ROOT/"}"; rm -rf "$DATA" ;;
  *) echo "usage: $0 install|start|stop|restart|status|url|reset" >&2; exit 2 ;;
esac
