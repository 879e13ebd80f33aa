#!/usr/bin/env bash
# The test command (README, `make test`, `npm test`, .ci/run): installs what is missing,
# runs the static checks (check.sh: formatting, lint, types) and stops at once if they fail,
# starts the real local stack unless it already runs (and then stops it again), runs
# every suite with DEVTRAIL_REQUIRE_STACK=1 so an integration suite can never skip
# silently, and ends with a one-line "N passed, N failed, N skipped" summary.
DT_NAME=test
# shellcheck source=common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
cd "$DT_ROOT" || exit 1

ensure_node_modules verbose
"$DT_SCRIPTS/check.sh" || die "static checks failed (above); no suite was run"
"$DT_SCRIPTS/browser.sh" install 2>/dev/null || warn "browser install step unavailable; browser suites will report it"
"$DT_SCRIPTS/schemathesis.sh" install || warn "schemathesis install failed; test/api-fuzz will report it"
"$DT_SCRIPTS/next-fixture.sh" install || warn "Next.js test app not installed; test/e2e/otlp-nextjs.test.ts will report it"
"$DT_SCRIPTS/k8s-tools.sh" install || warn "helm/kubeconform not built; test/deploy/helm-chart.test.ts will report it"
"$DT_SCRIPTS/consumer-kit.sh" install || warn "the consumer kit's dependencies are not in npm's cache; libs/consumer-kit/test/published-package.test.ts will report it"
"$DT_SCRIPTS/python-consumer.sh" install || warn "the Python consumer example is not installed; test/e2e/python-consumer.test.ts will report it"
"$DT_SCRIPTS/clickhouse-floor.sh" install || warn "the ClickHouse floor (chdb==3.0.1) is not installed; the floor suites will report it"

started_here=0
if ! "$DT_SCRIPTS/services.sh" status >/dev/null 2>&1; then
  "$DT_SCRIPTS/services.sh" up || exit 1
  started_here=1
fi
# The oldest ClickHouse devtrail supports, for the "floor" suites (vitest.config.ts); a failed start
# leaves CLICKHOUSE_FLOOR_URL set, so those suites fail and say why.
floor_started_here=0
if ! "$DT_SCRIPTS/clickhouse-floor.sh" status >/dev/null 2>&1; then
  "$DT_SCRIPTS/clickhouse-floor.sh" start && floor_started_here=1 || warn "the ClickHouse floor did not start; the floor suites will fail"
fi
export CLICKHOUSE_FLOOR_URL="${CLICKHOUSE_FLOOR_URL:-$("$DT_SCRIPTS/clickhouse-floor.sh" url)}"
# An if, not `[ ] && …`: the trap's last status would otherwise become the script's.
cleanup() {
  if [ "$floor_started_here" = 1 ]; then "$DT_SCRIPTS/clickhouse-floor.sh" stop || true; fi
  if [ "$started_here" = 1 ]; then "$DT_SCRIPTS/services.sh" down || true; fi
}
trap cleanup EXIT

# The stack's addresses (shifted by DEVTRAIL_PORT_OFFSET when set) for every suite and process.
[ "$DT_PORT_OFFSET" = 0 ] || eval "$("$DT_SCRIPTS/services.sh" env)"
mkdir -p "$DT_ROOT/.devtrail/test-results"
report="$DT_ROOT/.devtrail/test-results/vitest.json"
rm -f "$report"
rc=0
# The lanes (test/lanes.ts, docs/testing.md) share DEVTRAIL_TEST_WORKERS workers; the serial tail
# then runs in one. Property tests and fuzzing take this run's seed (test/support/property.ts).
export DEVTRAIL_TEST_WORKERS="${DEVTRAIL_TEST_WORKERS:-3}"
# The suites start a few hundred Node processes (services, embedded processes, the CLI): V8's
# compiled code is kept on disk between them (about a fifth of a start's CPU).
export NODE_COMPILE_CACHE="${NODE_COMPILE_CACHE:-$DT_STATE/node-compile-cache}"
export DEVTRAIL_TEST_SEED="${DEVTRAIL_TEST_SEED:-$(( $(date +%s) % 2147483647 ))}"
say "property and fuzzing seed $DEVTRAIL_TEST_SEED (DEVTRAIL_TEST_SEED=$DEVTRAIL_TEST_SEED replays it), $DEVTRAIL_TEST_WORKERS workers"
DEVTRAIL_REQUIRE_STACK=1 npx vitest run --maxWorkers="$DEVTRAIL_TEST_WORKERS" --minWorkers=1 \
  --reporter=default --reporter=./test/support/durations-reporter.ts --reporter=json --outputFile.json="$report" "$@" || rc=$?

if [ -f "$report" ]; then
  node -e '
    const r = require(process.argv[1]);
    const skipped = r.numPendingTests + r.numTodoTests;
    console.log(`\ntests: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${skipped} skipped`);
  ' "$report"
  node "$DT_SCRIPTS/test-times.mjs" "$DT_ROOT/.devtrail/test-results/durations.json" || true
  # Last, so that a log's tail names what failed.
  node "$DT_SCRIPTS/test-failures.mjs" "$report" || true
  [ "$rc" = 0 ] || say "failed with seed $DEVTRAIL_TEST_SEED: DEVTRAIL_TEST_SEED=$DEVTRAIL_TEST_SEED make test replays the property tests and fuzzing"
else
  echo "tests: 0 passed, 1 failed (the test runner produced no report)"
  [ "$rc" = 0 ] && rc=1
fi
exit "$rc"
