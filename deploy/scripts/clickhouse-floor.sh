#!/usr/bin/env bash
# The ClickHouse floor for CI on 127.0.0.1:18124: the stand-in server of clickhouse.sh over
# ClickHouse 24.8.4.1 (PyPI's chdb==3.0.1, in a venv of the machine's cache linked from .devtrail/, run as the stand-in's
# engine process), the oldest server devtrail supports. `make test` starts it (unless it runs) and
# runs the "floor" suites against it (vitest.config.ts); test/clickhouse-standin/README.md#the-floor
# says what it serves.
#
#   deploy/scripts/clickhouse-floor.sh install  create the venv and pip install the pinned chdb; idempotent
#   deploy/scripts/clickhouse-floor.sh start    start in the background, wait until GET /ping answers "Ok."
#   deploy/scripts/clickhouse-floor.sh stop     SIGTERM, wait, SIGKILL after a timeout (data is kept)
#   deploy/scripts/clickhouse-floor.sh kill     SIGKILL at once (simulates a crash)
#   deploy/scripts/clickhouse-floor.sh restart
#   deploy/scripts/clickhouse-floor.sh status   exit 0 only when /ping answers
#   deploy/scripts/clickhouse-floor.sh url      print its URL (shifted by DEVTRAIL_PORT_OFFSET)
#   deploy/scripts/clickhouse-floor.sh reset    stop and delete its data
#
# Start, stop and status are clickhouse-common.sh's (its environment variables apply).
DT_NAME=clickhouse-floor
# shellcheck source=common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

REQ="$DT_ROOT/test/clickhouse-standin/floor/requirements.txt"
VENV="$DT_STATE/clickhouse-floor-venv"

CH_PORT=$(port 18124)
CH_ENGINE=floor
CH_PYTHON="$VENV/bin/python"
DATA="$DT_STACK/clickhouse-floor"
LOG="$DT_LOGS/clickhouse-floor.log"
PIDFILE="$DT_RUN/clickhouse-floor.pid"
# shellcheck source=clickhouse-common.sh
. "$DT_SCRIPTS/clickhouse-common.sh"

# Found, not imported: importing chdb loads its engine (seconds), and the stand-in's start says so if it fails.
installed() {
  [ -x "$CH_PYTHON" ] && cmp -s "$REQ" "$VENV/requirements.txt" &&
    "$CH_PYTHON" -c 'import importlib.util, sys; sys.exit(importlib.util.find_spec("chdb") is None)' 2>/dev/null
}

cmd_install() {
  if installed; then say "$(cat "$REQ") already installed"; return 0; fi
  local t0
  t0=$(now_ms)
  machine_venv "$VENV" clickhouse-floor "$(cat "$REQ")"
  if ! installed; then
    machine_pip "$VENV" -r "$REQ"
    cp "$REQ" "$VENV/requirements.txt"
  fi
  installed || die "installed but $CH_PYTHON cannot import chdb"
  say "installed $(cat "$REQ") in $(elapsed "$t0")"
}

ch_prepare() { installed || cmd_install; }

case "${1:-}" in
  install) cmd_install ;;
  url) ch_url ;;
  start|stop|kill|restart|status|reset) clickhouse_verb "$1" ;;
  *) echo "usage: $0 install|start|stop|kill|restart|status|url|reset" >&2; exit 2 ;;
esac
