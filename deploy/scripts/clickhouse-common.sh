# shellcheck shell=bash
# Shared by clickhouse.sh (the stand-in over today's chDB) and clickhouse-floor.sh (the same
# stand-in over the production floor's engine): one entry point, test/clickhouse-standin/src/main.ts,
# started, stopped and probed the same way. Sourced after common.sh; the caller sets
#   CH_PORT    the port (already shifted by DEVTRAIL_PORT_OFFSET)
#   CH_ENGINE  chdb | floor (CLICKHOUSE_STANDIN_ENGINE), and CH_PYTHON for floor (its venv's interpreter)
#   DATA, LOG, PIDFILE  its data folder, log file and pid file
# and may define ch_prepare, run before a start (the floor installs its venv there).
#
# Environment: DEVTRAIL_CLICKHOUSE_ENTRY (absolute path of another entry point, for testing the script),
# DEVTRAIL_CLICKHOUSE_START_TIMEOUT (s, default 60), DEVTRAIL_CLICKHOUSE_STOP_TIMEOUT (s, default 15).

CH_HOST=127.0.0.1
ENTRY="${DEVTRAIL_CLICKHOUSE_ENTRY:-$DT_ROOT/test/clickhouse-standin/src/main.ts}"
# Our server's command line: the absolute paths of its entry point and its data folder, its first
# argument, so a private stand-in (DEVTRAIL_STACK_DIR) and the shared one are told apart. The
# trailing space ends the folder's name: the floor's (clickhouse-floor) starts with the other's.
SIG="$ENTRY $DATA "
START_TIMEOUT="${DEVTRAIL_CLICKHOUSE_START_TIMEOUT:-60}"
STOP_TIMEOUT="${DEVTRAIL_CLICKHOUSE_STOP_TIMEOUT:-15}"

ch_url() { echo "http://$CH_HOST:$CH_PORT"; }
ping_ok() { [ "$(curl -s -m "${1:-2}" "$(ch_url)/ping" 2>/dev/null)" = "Ok." ]; }

clickhouse_start() {
  local pid t0 deadline
  t0=$(now_ms)
  if pid="$(find_pid "$PIDFILE" "$SIG")"; then
    if ping_ok 1; then say "already running (pid $pid) on $CH_HOST:$CH_PORT"; return 0; fi
    say "already started (pid $pid), waiting for /ping"
  else
    [ -f "$ENTRY" ] || die "${ENTRY#"$DT_ROOT/"} does not exist (yet): the ClickHouse stand-in is not in this checkout"
    if declare -F ch_prepare >/dev/null; then ch_prepare; fi
    command -v curl >/dev/null || apt_install curl
    [ -d "$DT_ROOT/node_modules/tsx" ] || ensure_node_modules quiet
    require_free_port "$CH_PORT" "ClickHouse HTTP ($DT_NAME)"
    mkdir -p "$DATA"
    rotate_log "$LOG"
    printf '\n===== devtrail %s start %s =====\n' "$DT_NAME" "$(date -Is)" >>"$LOG"
    (cd "$DT_ROOT" && export CLICKHOUSE_STANDIN_PORT="$CH_PORT" CLICKHOUSE_STANDIN_DATA="$DATA" CLICKHOUSE_STANDIN_ENGINE="$CH_ENGINE" &&
      if [ -n "${CH_PYTHON:-}" ]; then export CLICKHOUSE_STANDIN_PYTHON="$CH_PYTHON"; fi &&
      exec setsid node --import tsx "$ENTRY" "$DATA" >>"$LOG" 2>&1 </dev/null 9>&-) &
    pid=$!
    echo "$pid" >"$PIDFILE"
    say "started pid $pid ($CH_ENGINE engine), waiting for $(ch_url)/ping (timeout ${START_TIMEOUT}s)"
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
  say "ready on $(ch_url) (pid $pid) in $(elapsed "$t0")"
}

# clickhouse_verb <verb>: start | stop | kill | restart | status | reset.
clickhouse_verb() {
  case "$1" in
    start|stop|kill|restart|reset) lock_service 180 ;;
  esac
  case "$1" in
    start) clickhouse_start ;;
    stop) service_stop ;;
    kill) service_kill ;;
    restart) service_stop; clickhouse_start ;;
    status) service_status ping_ok 3 "$(ch_url)" ;;
    reset) service_stop; say "deleting ${DATA#"$DT_ROOT/"}"; rm -rf "$DATA" ;;
    *) die "unknown verb '$1'" ;;
  esac
}
