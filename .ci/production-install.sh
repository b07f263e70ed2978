#!/usr/bin/env bash
# Checks both production installs described in docs/DEPLOY.md on a fresh clone of the committed tree:
#  1. `NODE_ENV=production npm start` installs (dev dependencies included, for the build), builds and serves;
#  2. the lean path: only runtime dependencies (`npm ci --omit=dev`) in a deploy folder holding the
#     build output, started with `node apps/server/dist/main.js` — proves dist needs no devDependency.
# Both on a supported Node (22 or 24) first on PATH, as an operator installs it: under NODE_ENV=production
# `npm start` never downloads a runtime itself (scripts/runtime.mjs), and says so — checked first.
# npm reuses its cache (--prefer-offline).
set -euo pipefail
cd "$(dirname "$0")/.."
PORT="${ATRIUM_CHECK_PORT:-3240}"
work=$(mktemp -d)
server=""
# Servers run in their own process group (setsid), so stopping one stops npm, start.mjs and node alike.
stop() { kill -- "-$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; server=""; }
cleanup() {
  [ -n "$server" ] && stop
  rm -rf "$work"
}
trap cleanup EXIT
export npm_config_prefer_offline=true npm_config_audit=false npm_config_fund=false

# Waits for /healthz, then stops the server started in the background.
serve_ok() {
  for _ in $(seq 1 1500); do
    if curl -fsS "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1; then
      stop
      return 0
    fi
    kill -0 "$server" 2>/dev/null || { echo "✖ $1: the server exited"; return 1; }
    sleep 1
  done
  echo "✖ $1: not ready in time"; return 1
}
env_production=(NODE_ENV=production ATRIUM_SKIP_APT=1 HOST=127.0.0.1 PORT="$PORT" AI_WARM_UP=false
  SESSION_SECRET=ci-production-install-session-secret-0123456789)

if curl -fsS "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1; then echo "✖ port $PORT is already in use"; exit 1; fi
git clone -q . "$work/clone"

# The supported node (this checkout's .runtime/ when the machine's is older), fetched outside production.
NODE_BIN=$(env -u NODE_ENV node --input-type=module -e "import { supportedNodePath } from './scripts/runtime.mjs'; console.log(supportedNodePath())")
if ! node --input-type=module -e "import { isSupportedNode } from './scripts/node-lines.mjs'; process.exit(isSupportedNode() ? 0 : 1)"; then
  # The machine's own node is unsupported: production start refuses to download one, with its reason.
  if env -C "$work/clone" NODE_ENV=production ATRIUM_SKIP_APT=1 npm start >"$work/refused.log" 2>&1; then
    echo '✖ NODE_ENV=production npm start ran on an unsupported Node'; exit 1
  fi
  grep -q 'a production server never downloads its runtime' "$work/refused.log" \
    || { echo '✖ NODE_ENV=production npm start did not say why it stopped'; cat "$work/refused.log"; exit 1; }
  [ ! -e "$work/clone/.runtime" ] || { echo '✖ a runtime was downloaded under NODE_ENV=production'; exit 1; }
  echo "✔ NODE_ENV=production npm start on Node $(node --version) refuses to download a runtime and says why"
fi
export PATH="$(dirname "$NODE_BIN"):$PATH"
started=$SECONDS
setsid env -C "$work/clone" DATA_DIR="$work/data1" "${env_production[@]}" npm start >"$work/start.log" 2>&1 &
server=$!
serve_ok 'NODE_ENV=production npm start' || { tail -40 "$work/start.log"; exit 1; }
echo "✔ NODE_ENV=production npm start on a fresh clone: $((SECONDS - started)) s"

started=$SECONDS
deploy="$work/deploy"
mkdir -p "$deploy"
(cd "$work/clone" && cp --parents package.json package-lock.json packages/*/package.json apps/*/package.json "$deploy/" \
  && cp -r --parents apps/server/dist apps/web/dist "$deploy/")
(cd "$deploy" && NODE_ENV=production npm ci --omit=dev >/dev/null)
[ ! -e "$deploy/node_modules/vite" ] && [ ! -e "$deploy/node_modules/tsx" ] || { echo '✖ dev dependencies were installed'; exit 1; }
setsid env -C "$deploy" DATA_DIR="$work/data2" "${env_production[@]}" "$NODE_BIN" apps/server/dist/main.js >"$work/lean.log" 2>&1 &
server=$!
serve_ok 'node apps/server/dist/main.js with runtime dependencies only' || { tail -40 "$work/lean.log"; exit 1; }
(cd "$deploy" && DATA_DIR="$work/data2" env "${env_production[@]}" "$NODE_BIN" apps/server/dist/ops.js backup "$work/backup" >/dev/null)
echo "✔ lean deploy (npm ci --omit=dev, node apps/server/dist/main.js, dist/ops.js backup): $((SECONDS - started)) s"
