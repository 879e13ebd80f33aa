#!/usr/bin/env bash
# Local single-node Apache Kafka 4.4 (KRaft, combined broker+controller) on 127.0.0.1:19092:
# the development default. deploy/scripts/kafka-cluster.sh runs the three-node cluster.
#
#   deploy/scripts/kafka.sh start    fetch jars if needed, format storage the first time, start, wait until it answers
#   deploy/scripts/kafka.sh stop     SIGTERM, wait, SIGKILL after a timeout (data is kept)
#   deploy/scripts/kafka.sh kill     SIGKILL at once (simulates a crash; data is kept)
#   deploy/scripts/kafka.sh restart
#   deploy/scripts/kafka.sh status   exit 0 only when the broker answers a metadata request
#   deploy/scripts/kafka.sh install  only fetch the jars (mvn, from deploy/kafka/pom.xml)
#   deploy/scripts/kafka.sh reset    stop and delete all Kafka data (topics, offsets)
#   deploy/scripts/kafka.sh tool <name> [args]
#                                    one of Kafka's command-line tools (kafka-topics.sh, kafka-configs.sh,
#                                    kafka-consumer-groups.sh, kafka-get-offsets.sh, kafka-delete-records.sh;
#                                    with or without .sh) from the stack's jars; --bootstrap-server
#                                    defaults to this broker
#
# Environment: KAFKA_HEAP_OPTS (default -Xms256m -Xmx512m), KAFKA_JVM_EXTRA_OPTS,
# DEVTRAIL_KAFKA_START_TIMEOUT (s, default 90), DEVTRAIL_KAFKA_STOP_TIMEOUT (s, default 20).
DT_NAME=kafka
# shellcheck source=common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
# shellcheck source=kafka-common.sh
. "$DT_SCRIPTS/kafka-common.sh"

KAFKA_HOST=127.0.0.1
KAFKA_PORT=$(port 19092)
KAFKA_CONTROLLER_PORT=$(port 19093)
# Fixed KRaft cluster id (base64 of the 16 bytes "devtrail-local-1"); storage is formatted once.
KAFKA_CLUSTER_ID=ZGV2dHJhaWwtbG9jYWwtMQ

BASE_CONFIG="$DT_ROOT/deploy/kafka/server.properties"
DATA="$DT_STACK/kafka/data"
# The broker's effective config: deploy/kafka/server.properties with this stack's data folder and
# ports, written on every start. Its path is unique to the stack, so it tells our broker apart.
CONFIG="$DT_STACK/kafka/server.properties"
LOG="$DT_LOGS/kafka.log"
PIDFILE="$DT_RUN/kafka.pid"
SIG="kafka.Kafka $CONFIG" # what our broker's command line contains
HEAP="${KAFKA_HEAP_OPTS:--Xms256m -Xmx512m}"

START_TIMEOUT="${DEVTRAIL_KAFKA_START_TIMEOUT:-90}"
STOP_TIMEOUT="${DEVTRAIL_KAFKA_STOP_TIMEOUT:-20}"

write_config() {
  mkdir -p "$DATA"
  {
    grep -vE '^(log\.dirs|listeners|advertised\.listeners|controller\.quorum\.voters)=' "$BASE_CONFIG"
    echo "log.dirs=$DATA"
    echo "listeners=PLAINTEXT://$KAFKA_HOST:$KAFKA_PORT,CONTROLLER://$KAFKA_HOST:$KAFKA_CONTROLLER_PORT"
    echo "advertised.listeners=PLAINTEXT://$KAFKA_HOST:$KAFKA_PORT"
    echo "controller.quorum.voters=1@$KAFKA_HOST:$KAFKA_CONTROLLER_PORT"
  } >"$CONFIG.tmp"
  mv "$CONFIG.tmp" "$CONFIG"
}

probe() { kafka_probe "$KAFKA_HOST:$KAFKA_PORT" "$@"; }

cmd_install() { ensure_jars verbose; }

cmd_start() {
  local pid t0 rc=0
  t0=$(now_ms)
  if pid="$(find_pid "$PIDFILE" "$SIG")"; then
    if probe 1500 "$pid" 2>/dev/null; then say "already running (pid $pid) on $KAFKA_HOST:$KAFKA_PORT"; return 0; fi
    say "already started (pid $pid), waiting until it answers"
  else
    ensure_jars
    require_free_port "$KAFKA_PORT" "Kafka listener"
    require_free_port "$KAFKA_CONTROLLER_PORT" "Kafka controller"
    rotate_log "$LOG"
    write_config
    format_storage "$HEAP" "$KAFKA_CLUSTER_ID" "$CONFIG" "$DATA" "$LOG"
    printf '\n===== devtrail kafka start %s =====\n' "$(date -Is)" >>"$LOG"
    # setsid: own session/process group, detached from the caller's terminal and pipes.
    java_cmd "$HEAP" kafka.Kafka "$CONFIG"
    (cd "$DT_ROOT" && exec setsid "${JAVA_CMD[@]}" >>"$LOG" 2>&1 </dev/null 9>&-) &
    pid=$!
    echo "$pid" >"$PIDFILE"
    say "started pid $pid, waiting for the broker on $KAFKA_HOST:$KAFKA_PORT (timeout ${START_TIMEOUT}s)"
  fi
  probe $((START_TIMEOUT * 1000)) "$pid" || rc=$?
  if [ "$rc" != 0 ]; then
    log_tail "$LOG" 40
    if pid_alive "$pid"; then stop_pid "$pid" 5 || true; fi
    rm -f "$PIDFILE"
    die "Kafka did not become ready (full log: ${LOG#"$DT_ROOT/"})"
  fi
  say "ready on $KAFKA_HOST:$KAFKA_PORT (pid $pid) in $(elapsed "$t0")"
}

cmd_status() {
  local pid
  pid="$(find_pid "$PIDFILE" "$SIG")" || pid=0
  service_status probe 3000 "$pid" "$KAFKA_HOST:$KAFKA_PORT"
}

cmd_reset() {
  service_stop
  say "deleting ${DATA#"$DT_ROOT/"}"
  rm -rf "$DATA"
}

# The scripts of Kafka's distribution, by the class each one runs (Kafka 4.x).
tool_class() {
  case "${1%.sh}" in
    kafka-topics) echo org.apache.kafka.tools.TopicCommand ;;
    kafka-configs) echo org.apache.kafka.tools.ConfigCommand ;;
    kafka-consumer-groups) echo org.apache.kafka.tools.consumer.group.ConsumerGroupCommand ;;
    kafka-get-offsets) echo org.apache.kafka.tools.GetOffsetShell ;;
    kafka-delete-records) echo org.apache.kafka.tools.DeleteRecordsCommand ;;
    *) return 1 ;;
  esac
}

cmd_tool() {
  local name="${1:-}" class
  class="$(tool_class "$name")" || die "usage: $0 tool kafka-topics|kafka-configs|kafka-consumer-groups|kafka-get-offsets|kafka-delete-records [args]"
  shift
  ensure_jars
  case " $* " in
    *" --bootstrap-server "*) ;;
    *) set -- --bootstrap-server "$KAFKA_HOST:$KAFKA_PORT" "$@" ;;
  esac
  KAFKA_LOG4J2="$DT_ROOT/deploy/kafka/tools-log4j2.properties"
  java_cmd "-Xms64m -Xmx256m" "$class" "$@"
  exec "${JAVA_CMD[@]}"
}

case "${1:-}" in
  start|stop|kill|restart|reset) lock_service 180 ;;
esac
case "${1:-}" in
  start) cmd_start ;;
  stop) service_stop ;;
  kill) service_kill ;;
  restart) service_stop; cmd_start ;;
  status) cmd_status ;;
  install) cmd_install ;;
  reset) cmd_reset ;;
  tool) shift; cmd_tool "$@" ;;
  *) echo "usage: $0 start|stop|kill|restart|status|install|reset|tool <name> [args]" >&2; exit 2 ;;
esac
