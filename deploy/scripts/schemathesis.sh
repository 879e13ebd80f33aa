#!/usr/bin/env bash
# schemathesis (PyPI) in a virtualenv of the machine's cache (linked from .devtrail/), for the schema-driven API fuzzing
# suite (test/api-fuzz/schemathesis.test.ts, docs/api.md "Schema-driven fuzzing").
#
#   deploy/scripts/schemathesis.sh install   create the venv and pip install the pinned version; idempotent
#   deploy/scripts/schemathesis.sh status    exit 0 only when the pinned version runs
#   deploy/scripts/schemathesis.sh path      print the path of its `st` command
DT_NAME=schemathesis
# shellcheck source=common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

VERSION=4.32.5
VENV="$DT_STATE/schemathesis-venv"
ST="$VENV/bin/st"

installed() { [ -x "$ST" ] && [ "$("$ST" --version 2>/dev/null)" = "st, version $VERSION" ]; }

case "${1:-}" in
  install)
    if installed; then
      say "schemathesis $VERSION already installed"
      exit 0
    fi
    t0=$(now_ms)
    machine_venv "$VENV" schemathesis "$VERSION"
    installed || machine_pip "$VENV" "schemathesis==$VERSION"
    installed || die "schemathesis $VERSION installed but $ST does not run"
    say "installed schemathesis $VERSION in $(elapsed "$t0")"
    ;;
  status) installed ;;
  path) echo "$ST" ;;
  *)
    echo "usage: $0 install|status|path" >&2
    exit 2
    ;;
esac
