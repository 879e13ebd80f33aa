#!/usr/bin/env bash
# The whole local stack on loopback: PostgreSQL 15 (:15432), Kafka 4.4 KRaft (:19092),
# ClickHouse HTTP stand-in (:18123).
#
#   deploy/scripts/services.sh up       install what is missing, start all, wait until each answers
#   deploy/scripts/services.sh down     stop all (data is kept in .devtrail/)
#   deploy/scripts/services.sh status   exit 0 only when every service answers
#   deploy/scripts/services.sh env      print the connection settings as shell exports
#   deploy/scripts/services.sh install  only install/fetch what the engines need (no start)
#   deploy/scripts/services.sh node-modules  npm install when node_modules is missing or older than the lock
#
# DEVTRAIL_SERVICES="postgres kafka" limits the set (default: postgres kafka clickhouse).
DT_NAME=services
# shellcheck source=common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

SERVICES="${DEVTRAIL_SERVICES:-postgres kafka clickhouse}"

print_env() {
  cat <<EOF
export KAFKA_BROKERS=127.0.0.1:$(port 19092)
export CLICKHOUSE_URL=http://127.0.0.1:$(port 18123)
export DATABASE_URL=postgresql://devtrail:devtrail@127.0.0.1:$(port 15432)/devtrail
EOF
}

has() { [[ " $SERVICES " == *" $1 "* ]]; }

cmd_install() {
  # Fresh clone: the ready probe (kafkajs) and the stand-in (tsx) need node_modules.
  # (A stale node_modules is left alone here; `make install` refreshes it.)
  [ -f "$DT_ROOT/node_modules/.package-lock.json" ] || ensure_node_modules quiet
  # Sequential: package installs must not race for the dpkg lock.
  has postgres && "$DT_SCRIPTS/postgres.sh" install
  has kafka && "$DT_SCRIPTS/kafka.sh" install
  return 0
}

cmd_up() {
  local t0 s failed=() pids=() names=()
  t0=$(now_ms)
  cmd_install
  # The engines start in parallel; each script prints its own [name] lines.
  for s in $SERVICES; do
    "$DT_SCRIPTS/$s.sh" start &
    pids+=($!)
    names+=("$s")
  done
  for i in "${!pids[@]}"; do
    wait "${pids[$i]}" || failed+=("${names[$i]}")
  done
  if [ "${#failed[@]}" -gt 0 ]; then
    die "failed to start: ${failed[*]} (logs in .devtrail/logs/; the others are left running, 'make services-down' stops them)"
  fi
  say "all up in $(elapsed "$t0"): $SERVICES"
  print_env | sed 's/^export /  /'
}

cmd_down() {
  local t0 s order="" rc=0
  t0=$(now_ms)
  for s in $SERVICES; do order="$s $order"; done # reverse order
  for s in $order; do "$DT_SCRIPTS/$s.sh" stop || rc=1; done
  [ "$rc" = 0 ] || die "some services did not stop"
  say "all down in $(elapsed "$t0")"
}

cmd_status() {
  local s rc=0
  for s in $SERVICES; do "$DT_SCRIPTS/$s.sh" status || rc=1; done
  return "$rc"
}

case "${1:-}" in
  up) cmd_up ;;
  down) cmd_down ;;
  status) cmd_status ;;
  env) print_env ;;
  install) cmd_install ;;
  node-modules) ensure_node_modules verbose ;;
  *) echo "usage: $0 up|down|status|env|install|node-modules" >&2; exit 2 ;;
esac
