#!/usr/bin/env bash
# The PostgreSQL tier starts a throwaway server from Debian's packages; install them when missing.
# Debian bookworm ships PostgreSQL 15 and no pgvector, so that tier runs without vectors (docs/postgres.md).
set -euo pipefail
for initdb in /usr/lib/postgresql/*/bin/initdb; do
  version="$(basename "$(dirname "$(dirname "$initdb")")")"
  if [ -x "$initdb" ] && [ "${version%%.*}" -ge 15 ] 2>/dev/null; then exit 0; fi
done
echo "Installing Debian's postgresql-15 for the PostgreSQL tests…"
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends postgresql-15 >/dev/null
