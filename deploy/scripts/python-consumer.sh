#!/usr/bin/env bash
# The Python consumer example (examples/python-consumer) in a virtualenv of the machine's cache (linked from .devtrail/),
# for its test (examples/python-consumer/test/python-consumer.test.ts) and for trying it.
#
#   deploy/scripts/python-consumer.sh install   create the venv and pip install requirements.txt; idempotent
#   deploy/scripts/python-consumer.sh status    exit 0 only when the pinned requirements are installed
#   deploy/scripts/python-consumer.sh path      print the venv's python
DT_NAME=python-consumer
# shellcheck source=common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

REQ="$DT_ROOT/examples/python-consumer/requirements.txt"
VENV="$DT_STATE/python-consumer-venv"
PY="$VENV/bin/python"

installed() { [ -x "$PY" ] && [ -f "$VENV/requirements.txt" ] && cmp -s "$REQ" "$VENV/requirements.txt" && "$PY" -c 'import confluent_kafka, jsonschema' 2>/dev/null; }

case "${1:-}" in
  install)
    if installed; then
      say "requirements already installed"
      exit 0
    fi
    t0=$(now_ms)
    machine_venv "$VENV" python-consumer "$(cat "$REQ")"
    if ! installed; then
      machine_pip "$VENV" -r "$REQ"
      cp "$REQ" "$VENV/requirements.txt"
    fi
    installed || die "requirements installed but $PY cannot import them"
    say "installed $(grep -v '^#' "$REQ" | tr '\n' ' ')in $(elapsed "$t0")"
    ;;
  status) installed ;;
  path) echo "$PY" ;;
  *)
    echo "usage: $0 install|status|path" >&2
    exit 2
    ;;
esac
