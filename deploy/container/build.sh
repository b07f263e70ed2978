#!/usr/bin/env bash
# Builds the Atrium container image without pulling anything from a container registry (docs/DEPLOY.md, "Container"):
#   1. base   a Debian 12 root file system made by mmdebstrap from Debian's packages: the AI engines' tools, PostgreSQL
#             15's client (backups), tini, ca-certificates; the user atrium (uid 10001) and /data. Imported once as
#             localhost/atrium-base:<hash of its definition> and reused while that definition is unchanged.
#   2. node   the npm registry's official Node binary, the version and sha512 pinned in scripts/runtime.mjs.
#   3. deps   `npm ci --omit=dev` of the workspace manifests, cached by the lockfile's hash.
#   4. app    `npm run build` output (rebuilt only when the sources changed, scripts/lib.mjs).
#   5. image  `podman build` of deploy/container/Containerfile (no RUN step) on the base, tagged IMAGE.
# Idempotent: run it again and only what changed is redone; every step says what it does.
#
# Usage: deploy/container/build.sh [IMAGE]          (default localhost/atrium:latest)
# Environment:
#   ATRIUM_CONTAINER_CACHE  where the rootfs, production dependencies and build context go
#                           (default ${XDG_CACHE_HOME:-~/.cache}/atrium/container)
#   ATRIUM_DEBIAN_MIRROR    mmdebstrap's mirror: a deb822 .sources / .list file or "deb URL suite main" lines, one per
#                           argument separated by '|' (default: /etc/apt/sources.list.d/debian.sources when present,
#                           else deb.debian.org with bookworm-security and bookworm-updates)
#   ATRIUM_REBUILD_BASE=1   build the base again even when one with this definition exists (security updates)
# Needs: mmdebstrap, podman, the repository's dev dependencies (`npm ci`). Run and tested as root; rootless podman
# with mmdebstrap's unshare mode (uidmap) is expected to work but is not tested here.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"

IMAGE="${1:-localhost/atrium:latest}"
CACHE="${ATRIUM_CONTAINER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/atrium/container}"
SUITE=bookworm
# What the server calls (scripts/start.mjs AI_PACKAGES, .ci/run): speech (pocketsphinx + en-us model, festival + its
# HTS voice, flite, lame, sox, ffmpeg), OCR (tesseract-ocr + eng), PDF text (poppler-utils). postgresql-client-15: `ops.js backup` runs
# pg_dump of PostgreSQL 15 (compose.yaml's database). tini: PID 1. ca-certificates: S3, OIDC and SMTP over TLS.
PACKAGES=(ca-certificates tini festival festvox-us-slt-hts flite lame sox ffmpeg pocketsphinx pocketsphinx-en-us libpocketsphinx3 libsphinxbase3
  tesseract-ocr tesseract-ocr-eng poppler-utils postgresql-client-15)
# The service account (no login, no home of its own) and its data folder; the app's files stay root's, read-only to it.
HOOKS=(
  'echo "atrium:x:10001:10001:Atrium:/app:/usr/sbin/nologin" >>"$1/etc/passwd"'
  'echo "atrium:x:10001:" >>"$1/etc/group"'
  'install -d -m 0700 -o 10001 -g 10001 "$1/data"'
  'install -d -m 0755 "$1/app" "$1/opt/node"'
)
# Documentation and manual pages are left out (licences kept): ~60 MB less.
DPKG_OPTS=('path-exclude=/usr/share/doc/*' 'path-include=/usr/share/doc/*/copyright' 'path-exclude=/usr/share/man/*'
  'path-exclude=/usr/share/info/*')

step() { printf '\n▶ %s\n' "$*"; }
say() { printf '  %s\n' "$*"; }
run() {
  printf '  $ %s\n' "$*"
  "$@"
}

if [ -n "${ATRIUM_DEBIAN_MIRROR:-}" ]; then
  IFS='|' read -r -a MIRRORS <<<"$ATRIUM_DEBIAN_MIRROR"
elif [ -f /etc/apt/sources.list.d/debian.sources ]; then
  MIRRORS=(/etc/apt/sources.list.d/debian.sources)
else
  MIRRORS=("deb http://deb.debian.org/debian $SUITE $SUITE-updates main"
    "deb http://deb.debian.org/debian-security $SUITE-security main")
fi
for tool in mmdebstrap podman sha256sum; do
  command -v "$tool" >/dev/null || {
    echo "✖ $tool is missing: apt-get install -y --no-install-recommends mmdebstrap podman runc uidmap" >&2
    exit 1
  }
done
mkdir -p "$CACHE"

# 1. The base: its name is the hash of everything that defines it (suite, packages, hooks, options, mirror lines).
mirror_text=$(for mirror in "${MIRRORS[@]}"; do if [ -f "$mirror" ]; then cat "$mirror"; else echo "$mirror"; fi; done)
base_key=$(printf '%s\n' "$SUITE" "${PACKAGES[@]}" "${HOOKS[@]}" "${DPKG_OPTS[@]}" "$mirror_text" | sha256sum | cut -c1-16)
BASE="localhost/atrium-base:$base_key"
step "base: Debian $SUITE with ${PACKAGES[*]}"
if podman image exists "$BASE" && [ "${ATRIUM_REBUILD_BASE:-0}" != 1 ]; then
  say "reusing $BASE (built $(podman image inspect --format '{{.Created}}' "$BASE" | cut -c1-19)); ATRIUM_REBUILD_BASE=1 rebuilds it"
else
  rootfs="$CACHE/rootfs-$base_key.tar"
  args=(--variant=essential --format=tar "--include=$(
    IFS=,
    echo "${PACKAGES[*]}"
  )")
  for hook in "${HOOKS[@]}"; do args+=("--customize-hook=$hook"); done
  for option in "${DPKG_OPTS[@]}"; do args+=("--dpkgopt=$option"); done
  say "mirror: ${MIRRORS[*]}"
  run mmdebstrap "${args[@]}" "$SUITE" "$rootfs.partial" "${MIRRORS[@]}"
  mv "$rootfs.partial" "$rootfs"
  run podman import --quiet --message "Debian $SUITE for Atrium (deploy/container/build.sh)" "$rootfs" "$BASE" >/dev/null
  # The image is the cache from now on.
  rm -f "$rootfs"
  say "$BASE: $(podman image inspect --format '{{.Size}}' "$BASE" | numfmt --to=si)B"
fi

# 2. Node: downloaded once into .runtime/ and checked against the pinned sha512 (never trusted from the registry alone).
step 'node: the pinned official binary from the npm registry (scripts/runtime.mjs)'
node_bin=$(env -u NODE_ENV node --input-type=module -e \
  "import { pinnedNodePath } from './scripts/runtime.mjs'; console.log(pinnedNodePath())")
node_version=$("$node_bin" --version)
say "$node_bin ($node_version)"

# 3. Production dependencies, installed for that Node from the lockfile; the same lockfile reuses them.
manifests=(package.json package-lock.json .npmrc packages/*/package.json apps/*/package.json)
deps_key=$( (
  cat "${manifests[@]}"
  echo "$node_version"
) | sha256sum | cut -c1-16)
deps="$CACHE/deps-$deps_key"
step 'deps: npm ci --omit=dev (the runtime dependencies only)'
if [ -f "$deps/.complete" ]; then
  say "reusing $deps (same lockfile and Node)"
else
  rm -rf "$deps" "$deps.partial"
  mkdir -p "$deps.partial"
  cp --parents "${manifests[@]}" "$deps.partial/"
  say "with Node $node_version first on PATH, in $deps"
  (cd "$deps.partial" && PATH="$(dirname "$node_bin"):$PATH" NODE_ENV=production \
    run npm ci --omit=dev --no-audit --no-fund --loglevel=error)
  touch "$deps.partial/.complete"
  mv "$deps.partial" "$deps"
  # Older dependency sets are not needed any more.
  find "$CACHE" -maxdepth 1 -name 'deps-*' ! -name "deps-$deps_key" -exec rm -rf {} +
fi

# 4. The build output, rebuilt only when the sources changed.
step 'app: npm run build when the sources changed'
run node scripts/run.mjs node --input-type=module -e \
  "import { ensureDependencies, ensureBuild } from './scripts/lib.mjs'; ensureDependencies(); ensureBuild();"

# 5. The build context (hard links: no copy of node_modules), then the image.
step "image: podman build → $IMAGE"
context=$(mktemp -d "$CACHE/context.XXXXXX")
trap 'rm -rf "$context"' EXIT
mkdir -p "$context/node/bin" "$context/app"
cp -l "$node_bin" "$context/node/bin/node" 2>/dev/null || cp "$node_bin" "$context/node/bin/node"
cp "$(dirname "$node_bin")/../LICENSE" "$context/node/LICENSE"
cp -al "$deps" "$context/deps"
rm "$context/deps/.complete"
cp -r --parents apps/server/dist apps/web/dist "$context/app/"
rm -f "$context/app/apps/server/dist/.build-fingerprint"
version=$(node -p "require('./apps/server/package.json').version")
revision=$(git rev-parse HEAD 2>/dev/null || echo unknown)
git diff --quiet HEAD 2>/dev/null || revision="$revision-dirty"
previous=$(podman image inspect --format '{{.Id}}' "$IMAGE" 2>/dev/null || true)
run podman build --quiet --format docker --layers -f deploy/container/Containerfile \
  --build-arg "BASE=$BASE" \
  --label "org.opencontainers.image.title=Atrium" \
  --label "org.opencontainers.image.version=$version" \
  --label "org.opencontainers.image.revision=$revision" \
  --label "org.opencontainers.image.licenses=AGPL-3.0-or-later" \
  --label "org.opencontainers.image.base.name=$BASE" \
  -t "$IMAGE" "$context" >/dev/null
# The image this tag named before, unless a container still uses it (its layers stay cached either way).
current=$(podman image inspect --format '{{.Id}}' "$IMAGE")
if [ -n "$previous" ] && [ "$previous" != "$current" ]; then podman rmi "$previous" >/dev/null 2>&1 || true; fi
say "$IMAGE: $(podman image inspect --format '{{.Size}}' "$IMAGE" | numfmt --to=si)B, Atrium $version ($revision), Node $node_version"
