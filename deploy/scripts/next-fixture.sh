#!/usr/bin/env bash
# The Next.js app the OTLP test builds and starts (test/fixtures/next-app). Its packages
# are installed apart from the workspace, into .devtrail/next-app (git-ignored, kept
# between runs), so only that test pays for Next.js, and the test itself needs no
# network: it copies the app's sources there and builds (test/e2e/otlp-nextjs.test.ts).
#
#   deploy/scripts/next-fixture.sh install   npm install there when missing or older than the fixture's lock
DT_NAME=next-fixture
# shellcheck source=common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

SRC="$DT_ROOT/test/fixtures/next-app"
DIR="$DT_STATE/next-app"

cmd_install() {
  local t0
  t0=$(now_ms)
  mkdir -p "$DIR" "$DT_LOGS"
  if [ -f "$DIR/node_modules/.package-lock.json" ] && [ "$DIR/node_modules/.package-lock.json" -nt "$SRC/package-lock.json" ] &&
    cmp -s "$SRC/package.json" "$DIR/package.json"; then
    say "node_modules up to date"
    return 0
  fi
  cp "$SRC/package.json" "$SRC/package-lock.json" "$DIR/"
  say "npm install into .devtrail/next-app"
  (cd "$DIR" && npm install --no-audit --no-fund --loglevel=error >"$DT_LOGS/next-fixture-install.log" 2>&1) ||
    { tail -n 20 "$DT_LOGS/next-fixture-install.log" >&2; die "npm install failed (full output: .devtrail/logs/next-fixture-install.log)"; }
  say "installed in $(elapsed "$t0")"
}

case "${1:-}" in
  install) cmd_install ;;
  *) die "usage: $0 install" ;;
esac
