#!/usr/bin/env bash
# Local single-node Apache Kafka 3.9 (KRaft, combined broker+controller) on 127.0.0.1:19092.
#
#   deploy/scripts/kafka.sh start    fetch jars if needed, format storage the first time, start, wait until it answers
#   deploy/scripts/kafka.sh stop     SIGTERM, wait, SIGKILL after a timeout (data is kept)
#   deploy/scripts/kafka.sh kill     SIGKILL at once (simulates a crash; data is kept)
#   deploy/scripts/kafka.sh restart
#   deploy/scripts/kafka.sh status   exit 0 only when the broker answers a metadata request
#   deploy/scripts/kafka.sh install  only fetch the jars (mvn, from deploy/kafka/pom.xml)
#   deploy/scripts/kafka.sh reset    stop and delete all Kafka data (topics, offsets)
#
# Environment: KAFKA_HEAP_OPTS (default -Xms256m -Xmx512m), KAFKA_JVM_EXTRA_OPTS,
# DEVTRAIL_KAFKA_START_TIMEOUT (s, default 90), DEVTRAIL_KAFKA_STOP_TIMEOUT (s, default 20).
DT_NAME=kafka
# shellcheck source=common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

KAFKA_HOST=127.0.0.1
KAFKA_PORT=19092
KAFKA_CONTROLLER_PORT=19093
# Fixed KRaft cluster id (base64 of the 16 bytes "devtrail-local-1"); storage is formatted once.
KAFKA_CLUSTER_ID=ZGV2dHJhaWwtbG9jYWwtMQ

POM="$DT_ROOT/deploy/kafka/pom.xml"
CONFIG="$DT_ROOT/deploy/kafka/server.properties"
LOG4J="$DT_ROOT/deploy/kafka/log4j.properties"
LIBS="$DT_STATE/kafka/libs"
DATA="$DT_STATE/kafka/data" # must match log.dirs in server.properties (relative to the repo root)
LOG="$DT_LOGS/kafka.log"
PIDFILE="$DT_RUN/kafka.pid"
SIG="kafka.Kafka $CONFIG" # what our broker's command line contains

START_TIMEOUT="${DEVTRAIL_KAFKA_START_TIMEOUT:-90}"
STOP_TIMEOUT="${DEVTRAIL_KAFKA_STOP_TIMEOUT:-20}"

ensure_java() {
  if ! command -v java >/dev/null || ! command -v mvn >/dev/null; then
    apt_install openjdk-17-jre-headless maven
  fi
}

jars_stamp() { sha256sum "$POM" | cut -d' ' -f1; }

ensure_jars() {
  ensure_java
  local want
  want="$(jars_stamp)"
  if [ -f "$LIBS/.stamp" ] && [ "$(cat "$LIBS/.stamp")" = "$want" ]; then
    [ "${1:-}" = verbose ] && say "jars up to date in ${LIBS#"$DT_ROOT/"}"
    return 0
  fi
  local t0 tmp
  t0=$(now_ms)
  say "fetching Kafka jars with Maven (deploy/kafka/pom.xml) into ${LIBS#"$DT_ROOT/"}"
  tmp="$LIBS.tmp.$$"
  rm -rf "$tmp"
  mkdir -p "$tmp"
  if ! (cd "$DT_ROOT/deploy/kafka" && mvn -B -q -f "$POM" dependency:copy-dependencies \
        -DincludeScope=runtime -DoutputDirectory="$tmp" >"$DT_LOGS/kafka-mvn.log" 2>&1); then
    rm -rf "$tmp"
    log_tail "$DT_LOGS/kafka-mvn.log" 30
    die "mvn dependency:copy-dependencies failed (full output: .devtrail/logs/kafka-mvn.log)"
  fi
  echo "$want" >"$tmp/.stamp"
  rm -rf "$LIBS"
  mv "$tmp" "$LIBS"
  say "jars ready: $(find "$LIBS" -name "*.jar" | wc -l) files in $(elapsed "$t0")"
}

java_cmd() { # java_cmd <main class> <args...>: sets the JAVA_CMD array
  local heap extra
  read -r -a heap <<<"${KAFKA_HEAP_OPTS:--Xms256m -Xmx512m}"
  read -r -a extra <<<"${KAFKA_JVM_EXTRA_OPTS:-}"
  JAVA_CMD=(java "${heap[@]}" -server -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:+ExitOnOutOfMemoryError
    -Djava.awt.headless=true "-Dlog4j.configuration=file:$LOG4J" ${extra[@]+"${extra[@]}"}
    -cp "$LIBS/*" "$@")
}

ensure_formatted() {
  [ -f "$DATA/meta.properties" ] && return 0
  say "formatting KRaft storage in ${DATA#"$DT_ROOT/"} (first start)"
  mkdir -p "$DATA"
  java_cmd kafka.tools.StorageTool format --ignore-formatted -t "$KAFKA_CLUSTER_ID" -c "$CONFIG"
  if ! (cd "$DT_ROOT" && "${JAVA_CMD[@]}" >>"$LOG" 2>&1); then
    log_tail "$LOG" 30
    die "kafka storage format failed"
  fi
}

# probe <timeout_ms> [pid]: waits until the broker answers; exit 0 when ready.
# Uses kafkajs (admin listTopics + describeCluster) when node_modules has it,
# otherwise a raw Metadata v1 request. Gives up early when <pid> has died.
probe() {
  (cd "$DT_ROOT" && node - "$KAFKA_HOST" "$KAFKA_PORT" "$1" "${2:-}" <<'JS'
const [host, port, timeoutMs, pid] = process.argv.slice(2);
const fs = require('fs');
const net = require('net');
const deadline = Date.now() + Number(timeoutMs);
let kafkajs = null;
try { kafkajs = require('kafkajs'); } catch { /* raw probe below */ }
let last = 'no answer yet';
const alive = () => {
  if (!pid) return true;
  try { return !/^\d+ \(.*\) [ZX]/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8')); } catch { return false; }
};
async function viaKafkajs() {
  const kafka = new kafkajs.Kafka({
    clientId: 'devtrail-ready-probe', brokers: [`${host}:${port}`], logLevel: kafkajs.logLevel.NOTHING,
    connectionTimeout: 1000, requestTimeout: 3000, retry: { retries: 0 },
  });
  const admin = kafka.admin();
  try {
    await admin.connect();
    await admin.listTopics();
    const c = await admin.describeCluster();
    if (!c.brokers.length || c.controller == null || c.controller < 0) throw new Error('no broker/controller in metadata yet');
  } finally { await admin.disconnect().catch(() => {}); }
}
function viaRaw() {
  // Metadata v1 request for no topics: the answer lists brokers and a controller id.
  return new Promise((resolve, reject) => {
    const clientId = Buffer.from('devtrail-ready-probe');
    const body = Buffer.alloc(2 + 2 + 4 + 2 + clientId.length + 4);
    let o = 0;
    o = body.writeInt16BE(3, o); o = body.writeInt16BE(1, o); o = body.writeInt32BE(7, o);
    o = body.writeInt16BE(clientId.length, o); o += clientId.copy(body, o); body.writeInt32BE(0, o);
    const size = Buffer.alloc(4); size.writeInt32BE(body.length);
    const s = net.connect({ host, port: Number(port) });
    let buf = Buffer.alloc(0);
    s.setTimeout(3000, () => { s.destroy(); reject(new Error('metadata request timed out')); });
    s.on('error', reject);
    s.on('connect', () => s.write(Buffer.concat([size, body])));
    s.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      if (buf.length < 4 || buf.length < 4 + buf.readInt32BE(0)) return;
      s.destroy();
      try {
        let p = 8; const n = buf.readInt32BE(p); p += 4;
        for (let i = 0; i < n; i++) { p += 4; p += 2 + buf.readInt16BE(p); p += 4; const r = buf.readInt16BE(p); p += 2 + Math.max(r, 0); }
        const controller = buf.readInt32BE(p);
        if (n < 1 || controller < 0) return reject(new Error('no broker/controller in metadata yet'));
        resolve();
      } catch (e) { reject(e); }
    });
  });
}
(async () => {
  for (;;) {
    if (!alive()) { console.error(`broker process ${pid} exited`); process.exit(2); }
    try { await (kafkajs ? viaKafkajs() : viaRaw()); process.exit(0); }
    catch (e) { last = e && e.message ? e.message : String(e); }
    if (Date.now() > deadline) { console.error(`not ready: ${last}`); process.exit(1); }
    await new Promise((r) => setTimeout(r, 250));
  }
})();
JS
  )
}

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
    ensure_formatted
    printf '\n===== devtrail kafka start %s =====\n' "$(date -Is)" >>"$LOG"
    # setsid: own session/process group, detached from the caller's terminal and pipes.
    java_cmd kafka.Kafka "$CONFIG"
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
    die "Kafka did not become ready (full log: .devtrail/logs/kafka.log)"
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
  *) echo "usage: $0 start|stop|kill|restart|status|install|reset" >&2; exit 2 ;;
esac
