#!/usr/bin/env bash
# Private PostgreSQL 15 cluster on 127.0.0.1:15432 (data in .devtrail/pg/data).
#
#   deploy/scripts/postgres.sh start    install postgresql-15 if missing, initdb the first time, start,
#                                       wait for pg_isready, ensure role+database devtrail/devtrail
#   deploy/scripts/postgres.sh stop     fast shutdown (disconnects clients), immediate/SIGKILL after a timeout
#   deploy/scripts/postgres.sh kill     SIGKILL at once (simulates a crash; data is kept)
#   deploy/scripts/postgres.sh restart
#   deploy/scripts/postgres.sh status   exit 0 only when pg_isready answers
#   deploy/scripts/postgres.sh install  only make sure the postgresql-15 package is installed
#   deploy/scripts/postgres.sh psql     open psql as devtrail (extra args are passed on)
#   deploy/scripts/postgres.sh reset    stop and delete the cluster
#
# Connection: postgresql://devtrail:devtrail@127.0.0.1:15432/devtrail
# initdb refuses to run as root: as root, the cluster belongs to the `postgres` system user.
# Environment: DEVTRAIL_PG_BIN (default /usr/lib/postgresql/15/bin),
# DEVTRAIL_PG_START_TIMEOUT (s, default 60), DEVTRAIL_PG_STOP_TIMEOUT (s, default 20).
DT_NAME=postgres
# shellcheck source=common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

PG_BIN="${DEVTRAIL_PG_BIN:-/usr/lib/postgresql/15/bin}"
PG_HOST=127.0.0.1
PG_PORT=$(port 15432)
PG_USER=devtrail
PG_PASSWORD=devtrail
PG_DB=devtrail
PGROOT="$DT_STACK/pg"
DATA="$PGROOT/data"
CONF_SRC="$DT_ROOT/deploy/postgres/devtrail.conf"
LOG="$DT_LOGS/postgres.log"
PIDFILE="$DT_RUN/postgres.pid"
SIG="bin/postgres -D $DATA" # the postmaster's command line, as pg_ctl starts it
START_TIMEOUT="${DEVTRAIL_PG_START_TIMEOUT:-60}"
STOP_TIMEOUT="${DEVTRAIL_PG_STOP_TIMEOUT:-20}"

# The unix socket path must fit in 107 bytes; fall back to /tmp for very deep checkouts.
SOCK="$PGROOT/sock"
if [ $(( ${#SOCK} + 16 )) -gt 107 ]; then
  SOCK="/tmp/devtrail-pg-$(printf %s "$DT_ROOT" | sha1sum | cut -c1-12)"
fi

PG_OWNER="$(id -un)"
is_root && PG_OWNER=postgres

# Run a command as the cluster owner, from a directory that user can enter.
as_owner() {
  if is_root; then (cd "$PGROOT" && runuser -u postgres -- "$@"); else (cd "$PGROOT" && "$@"); fi
}

ensure_package() {
  [ -x "$PG_BIN/postgres" ] && [ -x "$PG_BIN/initdb" ] && [ -x "$PG_BIN/pg_ctl" ] && return 0
  [ -n "${DEVTRAIL_PG_BIN:-}" ] && die "DEVTRAIL_PG_BIN=$PG_BIN has no postgres/initdb/pg_ctl"
  apt_install postgresql-15
  [ -x "$PG_BIN/postgres" ] || die "postgresql-15 installed but $PG_BIN/postgres is missing"
}

# Make .devtrail/pg usable by the cluster owner (as root: the postgres system user).
ensure_access() {
  mkdir -p "$PGROOT" "$SOCK"
  touch "$LOG"
  is_root || return 0
  id postgres >/dev/null 2>&1 || die "system user 'postgres' is missing (it comes with the postgresql-15 package)"
  chown postgres:postgres "$PGROOT" "$SOCK" "$LOG"
  [ -d "$DATA" ] && [ "$(stat -c %U "$DATA")" != postgres ] && chown -R postgres:postgres "$DATA"
  if ! runuser -u postgres -- test -w "$PGROOT"; then
    # Every folder above must be searchable (o+x) for the postgres user to reach its data.
    local d="$PGROOT"
    while d="$(dirname "$d")" && [ "$d" != / ]; do
      if [ "$(( 0$(stat -c %a "$d") & 1 ))" = 0 ]; then
        say "chmod o+x $d (so the postgres user can reach .devtrail/pg)"
        chmod o+x "$d"
      fi
    done
    runuser -u postgres -- test -w "$PGROOT" || die "user postgres cannot write $PGROOT"
  fi
}

ensure_cluster() {
  [ -f "$DATA/PG_VERSION" ] && return 0
  local t0 tmp="$PGROOT/data.tmp"
  t0=$(now_ms)
  say "initdb ${DATA#"$DT_ROOT/"} (first start, owner $PG_OWNER)"
  rm -rf "$tmp"
  if ! as_owner "$PG_BIN/initdb" -D "$tmp" -U postgres -E UTF8 --no-locale \
      --auth-local=trust --auth-host=scram-sha-256 --no-sync --no-instructions \
      >"$DT_LOGS/postgres-initdb.log" 2>&1; then
    log_tail "$DT_LOGS/postgres-initdb.log" 30
    rm -rf "$tmp"
    die "initdb failed"
  fi
  echo "include_if_exists = 'devtrail.conf'" >>"$tmp/postgresql.conf"
  mv "$tmp" "$DATA"
  say "initdb done in $(elapsed "$t0")"
}

write_conf() {
  { cat "$CONF_SRC"; echo; echo "unix_socket_directories = '$SOCK'"; echo "port = $PG_PORT"; } >"$DATA/devtrail.conf"
  is_root && chown postgres:postgres "$DATA/devtrail.conf"
  return 0
}

pg_ready() { "$PG_BIN/pg_isready" -q -h "$PG_HOST" -p "$PG_PORT" -t "${1:-2}" >/dev/null 2>&1; }

# Idempotent: role and database devtrail (superuser, dev only).
ensure_database() {
  PGCONNECT_TIMEOUT=5 "$PG_BIN/psql" -X -q -At -v ON_ERROR_STOP=1 -h "$SOCK" -p "$PG_PORT" -U postgres -d postgres \
    >/dev/null <<SQL
DO \$\$BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$PG_USER') THEN
    CREATE ROLE $PG_USER LOGIN SUPERUSER PASSWORD '$PG_PASSWORD';
  END IF;
END\$\$;
SELECT 'CREATE DATABASE $PG_DB OWNER $PG_USER' WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = '$PG_DB')
\gexec
SQL
}

# SIGKILL the postmaster and its children (each backend runs in its own session,
# so a process-group kill would miss them).
kill_tree() {
  local pid="$1" kids deadline
  kids="$(ps -o pid= --ppid "$pid" 2>/dev/null | tr -s ' \n' ' ')"
  # shellcheck disable=SC2086
  kill -KILL "$pid" $kids 2>/dev/null || true
  deadline=$(( $(now_ms) + 10000 ))
  while pid_alive "$pid" && [ "$(now_ms)" -lt "$deadline" ]; do sleep 0.1; done
}

# After a crash the postmaster may linger for a moment as a zombie until its new parent
# reaps it; postgres itself would take that pid as a live postmaster and refuse to start.
remove_stale_lock() {
  local lock lockpid
  for lock in "$DATA/postmaster.pid" "$SOCK/.s.PGSQL.$PG_PORT.lock"; do
    [ -f "$lock" ] || continue
    lockpid="$(head -n1 "$lock" | tr -dc 0-9)"
    if [ -n "$lockpid" ] && ! pid_alive "$lockpid"; then rm -f "$lock"; fi
  done
}

cmd_start() {
  local pid t0 deadline
  t0=$(now_ms)
  if pid="$(find_pid "$PIDFILE" "$SIG")"; then
    deadline=$(( $(now_ms) + START_TIMEOUT * 1000 ))
    until pg_ready 1; do
      pid_alive "$pid" || die "postmaster $pid exited while starting (log: ${LOG#"$DT_ROOT/"})"
      [ "$(now_ms)" -lt "$deadline" ] || { log_tail "$LOG"; die "running (pid $pid) but not answering"; }
      sleep 0.2
    done
    ensure_database
    say "already running (pid $pid) on $PG_HOST:$PG_PORT"
    return 0
  fi
  ensure_package
  ensure_access
  ensure_cluster
  require_free_port "$PG_PORT" "PostgreSQL"
  remove_stale_lock
  rotate_log "$LOG"
  ensure_access # the log may have been rotated
  write_conf
  say "starting on $PG_HOST:$PG_PORT"
  if ! as_owner "$PG_BIN/pg_ctl" start -D "$DATA" -l "$LOG" -w -t "$START_TIMEOUT" -s >/dev/null 2>&1 9>&-; then
    log_tail "$LOG" 30
    die "pg_ctl start failed (full log: ${LOG#"$DT_ROOT/"})"
  fi
  pid="$(head -n1 "$DATA/postmaster.pid" 2>/dev/null || true)"
  echo "$pid" >"$PIDFILE"
  deadline=$(( $(now_ms) + START_TIMEOUT * 1000 ))
  until pg_ready 1; do
    [ "$(now_ms)" -lt "$deadline" ] || { log_tail "$LOG"; die "pg_isready does not answer on $PG_HOST:$PG_PORT"; }
    sleep 0.2
  done
  ensure_database
  say "ready on $PG_HOST:$PG_PORT (pid $pid) in $(elapsed "$t0")"
}

cmd_stop() {
  local pid t0 deadline
  t0=$(now_ms)
  if ! pid="$(find_pid "$PIDFILE" "$SIG")"; then say "not running"; rm -f "$PIDFILE"; return 0; fi
  say "stopping pid $pid"
  # SIGINT = fast shutdown: rolls back open transactions and disconnects clients (SIGTERM would
  # wait for every client, e.g. an idle pool, to disconnect).
  kill -INT "$pid" 2>/dev/null || true
  deadline=$(( $(now_ms) + STOP_TIMEOUT * 1000 ))
  while pid_alive "$pid" && [ "$(now_ms)" -lt "$deadline" ]; do sleep 0.1; done
  if pid_alive "$pid"; then
    warn "fast shutdown did not finish in ${STOP_TIMEOUT}s, immediate shutdown (SIGQUIT)"
    kill -QUIT "$pid" 2>/dev/null || true
    deadline=$(( $(now_ms) + 5000 ))
    while pid_alive "$pid" && [ "$(now_ms)" -lt "$deadline" ]; do sleep 0.1; done
    pid_alive "$pid" && kill_tree "$pid"
    pid_alive "$pid" && die "pid $pid did not exit"
  fi
  rm -f "$PIDFILE"
  say "stopped in $(elapsed "$t0")"
}



case "${1:-}" in
  start|stop|kill|restart|reset) lock_service 180 ;;
esac
case "${1:-}" in
  start) cmd_start ;;
  stop) cmd_stop ;;
  kill) service_kill kill_tree ;;
  restart) cmd_stop; cmd_start ;;
  status) service_status pg_ready 3 "$PG_HOST:$PG_PORT" ;;
  install) ensure_package; say "postgresql-15 present in $PG_BIN" ;;
  psql) shift; exec "$PG_BIN/psql" "postgresql://$PG_USER:$PG_PASSWORD@$PG_HOST:$PG_PORT/$PG_DB" "$@" ;;
  reset) cmd_stop; say "deleting ${PGROOT#"$DT_ROOT/"}"; rm -rf "$PGROOT" ;;
  *) echo "usage: $0 start|stop|kill|restart|status|install|psql|reset" >&2; exit 2 ;;
esac
