#!/usr/bin/env bash
# Browser tests drive Debian's Chromium; install it when it is missing (no browser downloads by npm).
set -euo pipefail
# CJK fonts make the Chinese screenshots the suite saves readable.
if [ -x /usr/bin/chromium ] && fc-list 2>/dev/null | grep -qi 'Noto Sans CJK'; then exit 0; fi
echo "Installing Debian's chromium and CJK fonts for the browser tests…"
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium fonts-noto-cjk >/dev/null
