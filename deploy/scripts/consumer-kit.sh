#!/usr/bin/env bash
# The published consumer kit's npm dependencies, in npm's cache, so its pack test
# (libs/consumer-kit/test/published-package.test.ts) can install the packed kit into an
# empty project without the network (the test stack runs without it).
#
#   deploy/scripts/consumer-kit.sh install   npm install the kit's dependencies into a throwaway project once; idempotent
DT_NAME=consumer-kit
# shellcheck source=common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

DIR="$DT_STATE/consumer-kit-deps"

cmd_install() {
  local t0 deps
  t0=$(now_ms)
  deps="$(cd "$DT_ROOT" && node libs/consumer-kit/scripts/build.mjs --deps)" || die "could not list the kit's dependencies"
  if [ -f "$DIR/deps.json" ] && [ "$(cat "$DIR/deps.json")" = "$deps" ] && [ -d "$DIR/node_modules" ]; then
    say "dependencies already cached"
    return 0
  fi
  rm -rf "$DIR" && mkdir -p "$DIR" "$DT_LOGS"
  printf '{"name":"consumer-kit-deps","private":true,"dependencies":%s}\n' "$deps" >"$DIR/package.json"
  (cd "$DIR" && npm install --no-audit --no-fund --loglevel=error >"$DT_LOGS/consumer-kit-install.log" 2>&1) ||
    { tail -n 20 "$DT_LOGS/consumer-kit-install.log" >&2; die "npm install failed (full output: .devtrail/logs/consumer-kit-install.log)"; }
  echo "$deps" >"$DIR/deps.json"
  say "cached $deps in $(elapsed "$t0")"
}

case "${1:-}" in
  install) cmd_install ;;
  *) die "usage: $0 install" ;;
esac
