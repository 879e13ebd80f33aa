# shellcheck shell=bash
# Shared by kafka.sh (single dev broker) and kafka-cluster.sh (three-node cluster): the
# jars, the java command line and the readiness probe. Sourced after common.sh.

KAFKA_POM="$DT_ROOT/deploy/kafka/pom.xml"
KAFKA_LOG4J2="$DT_ROOT/deploy/kafka/log4j2.properties"
KAFKA_LIBS="$DT_STATE/kafka/libs"

ensure_java() {
  # Kafka 4.x brokers need Java 17 or later.
  if ! command -v java >/dev/null || ! command -v mvn >/dev/null; then
    apt_install openjdk-17-jre-headless maven
  fi
}

jars_stamp() { sha256sum "$KAFKA_POM" | cut -d' ' -f1; }

# ensure_jars [verbose]: mvn copies the broker's runtime classpath into .devtrail/kafka/libs
# once per version of deploy/kafka/pom.xml.
ensure_jars() {
  ensure_java
  local want
  want="$(jars_stamp)"
  if [ -f "$KAFKA_LIBS/.stamp" ] && [ "$(cat "$KAFKA_LIBS/.stamp")" = "$want" ]; then
    [ "${1:-}" = verbose ] && say "jars up to date in ${KAFKA_LIBS#"$DT_ROOT/"}"
    return 0
  fi
  local t0 tmp
  t0=$(now_ms)
  say "fetching Kafka jars with Maven (deploy/kafka/pom.xml) into ${KAFKA_LIBS#"$DT_ROOT/"}"
  tmp="$KAFKA_LIBS.tmp.$$"
  rm -rf "$tmp"
  mkdir -p "$tmp"
  if ! (cd "$DT_ROOT/deploy/kafka" && mvn -B -q -f "$KAFKA_POM" dependency:copy-dependencies \
        -DincludeScope=runtime -DoutputDirectory="$tmp" >"$DT_LOGS/kafka-mvn.log" 2>&1); then
    rm -rf "$tmp"
    log_tail "$DT_LOGS/kafka-mvn.log" 30
    die "mvn dependency:copy-dependencies failed (full output: .devtrail/logs/kafka-mvn.log)"
  fi
  echo "$want" >"$tmp/.stamp"
  rm -rf "$KAFKA_LIBS"
  mv "$tmp" "$KAFKA_LIBS"
  say "jars ready: $(find "$KAFKA_LIBS" -name "*.jar" | wc -l) files in $(elapsed "$t0")"
}

# java_cmd <heap opts> <main class> <args...>: sets the JAVA_CMD array.
java_cmd() {
  local heap extra
  read -r -a heap <<<"$1"
  shift
  read -r -a extra <<<"${KAFKA_JVM_EXTRA_OPTS:-}"
  JAVA_CMD=(java "${heap[@]}" -server -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:+ExitOnOutOfMemoryError
    -Djava.awt.headless=true "-Dlog4j2.configurationFile=$KAFKA_LOG4J2" ${extra[@]+"${extra[@]}"}
    -cp "$KAFKA_LIBS/*" "$@")
}

# format_storage <heap> <cluster id> <config> <data dir> <log>: formats KRaft storage the first time.
format_storage() {
  local heap="$1" id="$2" config="$3" data="$4" log="$5"
  [ -f "$data/meta.properties" ] && return 0
  say "formatting KRaft storage in ${data#"$DT_ROOT/"} (first start)"
  mkdir -p "$data"
  java_cmd "$heap" kafka.tools.StorageTool format --ignore-formatted -t "$id" -c "$config"
  if ! (cd "$DT_ROOT" && "${JAVA_CMD[@]}" >>"$log" 2>&1); then
    log_tail "$log" 30
    die "kafka storage format failed"
  fi
}

# kafka_probe <bootstrap host:port[,...]> <timeout_ms> [pid] [min brokers]: waits until the
# cluster answers a metadata request listing at least <min brokers> (default 1) and a
# controller; exit 0 when ready. Uses kafkajs when node_modules has it, otherwise a raw
# Metadata v1 request to the first address. Gives up early when <pid> has died.
kafka_probe() {
  (cd "$DT_ROOT" && node - "$1" "$2" "${3:-}" "${4:-1}" <<'JS'
const [bootstrap, timeoutMs, pid, minBrokers] = process.argv.slice(2);
const brokers = bootstrap.split(',');
const [host, port] = brokers[0].split(':');
const fs = require('fs');
const net = require('net');
const deadline = Date.now() + Number(timeoutMs);
let kafkajs = null;
try { kafkajs = require('kafkajs'); } catch { /* raw probe below */ }
let last = 'no answer yet';
const alive = () => {
  if (!pid || pid === '0') return true;
  try { return !/^\d+ \(.*\) [ZX]/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8')); } catch { return false; }
};
const enough = (n, controller) => {
  if (n < Number(minBrokers) || controller == null || controller < 0) throw new Error(`${n} of ${minBrokers} brokers or no controller in metadata yet`);
};
async function viaKafkajs() {
  const kafka = new kafkajs.Kafka({
    clientId: 'devtrail-ready-probe', brokers, logLevel: kafkajs.logLevel.NOTHING,
    connectionTimeout: 1000, requestTimeout: 3000, retry: { retries: 0 },
  });
  const admin = kafka.admin();
  try {
    await admin.connect();
    await admin.listTopics();
    const c = await admin.describeCluster();
    enough(c.brokers.length, c.controller);
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
        enough(n, buf.readInt32BE(p));
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
