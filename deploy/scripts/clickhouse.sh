#!/usr/bin/env bash
# ClickHouse HTTP endpoint for dev/CI on 127.0.0.1:18123: the stand-in server in
# test/clickhouse-standin (the part of ClickHouse's HTTP interface devtrail uses) over today's
# chDB, in-process. Production uses a real ClickHouse server (>= 24.8).
#
#   deploy/scripts/clickhouse.sh start    start in the background, wait until GET /ping answers "Ok."
#   deploy/scripts/clickhouse.sh stop     SIGTERM, wait, SIGKILL after a timeout (data is kept)
#   deploy/scripts/clickhouse.sh kill     SIGKILL at once (simulates a crash)
#   deploy/scripts/clickhouse.sh restart
#   deploy/scripts/clickhouse.sh status   exit 0 only when /ping answers
#   deploy/scripts/clickhouse.sh reset    stop and delete its data
#
# Start, stop and status are clickhouse-common.sh's (its environment variables apply).
DT_NAME=clickhouse
# shellcheck source=common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

CH_PORT=$(port 18123)
CH_ENGINE=chdb
DATA="$DT_STACK/clickhouse"
LOG="$DT_LOGS/clickhouse.log"
PIDFILE="$DT_RUN/clickhouse.pid"
# shellcheck source=clickhouse-common.sh
. "$DT_SCRIPTS/clickhouse-common.sh"

case "${1:-}" in
  start|stop|kill|restart|status|reset) clickhouse_verb "$1" ;;
  *) echo "usage: $0 start|stop|kill|restart|status|reset" >&2; exit 2 ;;
esac
