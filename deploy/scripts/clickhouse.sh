#!/usr/bin/env bash
# ClickHouse HTTP endpoint for dev/CI on 127.0.0.1:18123: the stand-in server in
# test/clickhouse-standin (the part of ClickHouse's HTTP interface devtrail uses, over chdb).
# Production uses a real ClickHouse server (>= 24).
#
#   deploy/scripts/clickhouse.sh start    start in the background, wait until GET /ping answers "Ok."
#   deploy/scripts/clickhouse.sh stop     SIGTERM, wait, SIGKILL after a timeout (data is kept)
#   deploy/scripts/clickhouse.sh kill     SIGKILL at once (simulates a crash)
#   deploy/scripts/clickhouse.sh restart
#   deploy/scripts/clickhouse.sh status   exit 0 only when /ping answers
#
# Environment: DEVTRAIL_CLICKHOUSE_ENTRY (absolute path of another entry point, for testing the script),
# DEVTRAIL_CLICKHOUSE_START_TIMEOUT (s, default 60), DEVTRAIL_CLICKHOUSE_STOP_TIMEOUT (s, default 15).
DT_NAME=clickhouse
# shellcheck source=common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

CH_HOST=127.0.0.1
CH_PORT=$(port 18123)
ENTRY="${DEVTRAIL_CLICKHOUSE_ENTRY:-$DT_ROOT/test/clickhouse-standin/src/main.ts}"
DATA="$DT_STACK/clickhouse"
LOG="$DT_LOGS/clickhouse.log"
PIDFILE="$DT_RUN/clickhouse.pid"
SIG="$ENTRY $DATA" # our server's command line: the absolute paths of its entry point and its data
START_TIMEOUT="${DEVTRAIL_CLICKHOUSE_START_TIMEOUT:-60}"
STOP_TIMEOUT="${DEVTRAIL_CLICKHOUSE_STOP_TIMEOUT:-15}"

ping_ok() { [ "$(curl -s -m "${1:-2}" "http://$CH_HOST:$CH_PORT/ping" 2>/dev/null)" = "Ok." ]; }

cmd_start() {
  local pid t0 deadline
  t0=$(now_ms)
  if pid="$(find_pid "$PIDFILE" "$SIG")"; then
    if ping_ok 1; then say "already running (pid $pid) on $CH_HOST:$CH_PORT"; return 0; fi
    say "already started (pid $pid), waiting for /ping"
  else
    [ -f "$ENTRY" ] || die "${ENTRY#"$DT_ROOT/"} does not exist (yet): the ClickHouse stand-in is not in this checkout"
    command -v curl >/dev/null || apt_install curl
    [ -d "$DT_ROOT/node_modules/tsx" ] || ensure_node_modules quiet
    require_free_port "$CH_PORT" "ClickHouse HTTP"
    mkdir -p "$DATA"
    rotate_log "$LOG"
    printf '\n===== devtrail clickhouse start %s =====\n' "$(date -Is)" >>"$LOG"
    (cd "$DT_ROOT" && export CLICKHOUSE_STANDIN_PORT="$CH_PORT" CLICKHOUSE_STANDIN_DATA="$DATA" &&
      exec setsid node --import tsx "$ENTRY" "$DATA" >>"$LOG" 2>&1 </dev/null 9>&-) &
    pid=$!
    echo "$pid" >"$PIDFILE"
    say "started pid $pid, waiting for http://$CH_HOST:$CH_PORT/ping (timeout ${START_TIMEOUT}s)"
  fi
  deadline=$(( $(now_ms) + START_TIMEOUT * 1000 ))
  until ping_ok 1; do
    if ! pid_alive "$pid"; then
      rm -f "$PIDFILE"
      log_tail "$LOG" 40
      die "the stand-in exited during startup (full log: ${LOG#"$DT_ROOT/"})"
    fi
    if [ "$(now_ms)" -ge "$deadline" ]; then
      log_tail "$LOG" 40
      stop_pid "$pid" 5 || true
      rm -f "$PIDFILE"
      die "no answer on /ping after ${START_TIMEOUT}s (full log: ${LOG#"$DT_ROOT/"})"
    fi
    sleep 0.2
  done
  say "ready on http://$CH_HOST:$CH_PORT (pid $pid) in $(elapsed "$t0")"
}




case "${1:-}" in
  start|stop|kill|restart|reset) lock_service 180 ;;
esac
case "${1:-}" in
  start) cmd_start ;;
  stop) service_stop ;;
  kill) service_kill ;;
  restart) service_stop; cmd_start ;;
  status) service_status ping_ok 3 "http://$CH_HOST:$CH_PORT" ;;
  reset) service_stop; say "deleting ${DATA#"$DT_ROOT/"}"; rm -rf "$DATA" ;;
  *) echo "usage: $0 start|stop|kill|restart|status|reset" >&2; exit 2 ;;
esac
