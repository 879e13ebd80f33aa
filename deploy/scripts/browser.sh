#!/usr/bin/env bash
# Headless Chromium from Debian for the dashboard's browser tests (playwright-core drives it).
#
#   deploy/scripts/browser.sh install   install chromium (+ a font) if missing; idempotent
#   deploy/scripts/browser.sh status    exit 0 only when the browser binary runs
#   deploy/scripts/browser.sh path      print the browser's path
#
# Environment: DEVTRAIL_CHROMIUM (default /usr/bin/chromium).
DT_NAME=browser
# shellcheck source=common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

CHROMIUM="${DEVTRAIL_CHROMIUM:-/usr/bin/chromium}"

have_browser() { [ -x "$CHROMIUM" ] && "$CHROMIUM" --version >/dev/null 2>&1; }

case "${1:-}" in
  install)
    if have_browser; then
      say "$("$CHROMIUM" --version) already installed"
    else
      # apt_install runs `apt-get update` only when the package lists are missing or stale.
      apt_install chromium fonts-liberation
      have_browser || die "chromium installed but $CHROMIUM does not run"
      say "installed $("$CHROMIUM" --version)"
    fi
    ;;
  status) have_browser ;;
  path) echo "$CHROMIUM" ;;
  *)
    echo "usage: $0 install|status|path" >&2
    exit 2
    ;;
esac
