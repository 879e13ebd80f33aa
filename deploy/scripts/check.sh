#!/usr/bin/env bash
# Static checks (`make check`, and first thing in `make test`, so CI fails on them before the
# long suites): Biome (formatting and lint rules, no writes), tsc (services, SDK, the
# dashboard's browser code) and madge (no import cycle in libs/ and services/).
# All always run; each prints its time and, on failure, what to do.
DT_NAME=check
# shellcheck source=common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
cd "$DT_ROOT" || exit 1

ensure_node_modules

failed=()
# run_check <name> <what to do when it fails> <command...>
run_check() {
  local name="$1" hint="$2" t0
  shift 2
  t0=$(now_ms)
  if "$@"; then
    say "$name passed in $(elapsed "$t0")"
  else
    warn "$name FAILED in $(elapsed "$t0"): $hint"
    failed+=("$name")
  fi
}

# Plain text in logs (CI): Biome colours its output even when it is not a terminal.
biome_args=()
[ -t 1 ] || biome_args=(--colors=off)
run_check lint 'formatting: run `npm run format`; lint rules: fix what is listed above (rules and reasons in biome.jsonc)' npm run --silent lint -- "${biome_args[@]}"
run_check typecheck 'fix the tsc errors listed above (npm run typecheck)' npm run --silent typecheck
run_check cycles 'an import cycle between modules, listed above: move what both sides need into a module of its own (npm run cycles)' npm run --silent cycles

[ ${#failed[@]} = 0 ] || die "static checks failed: ${failed[*]}"
