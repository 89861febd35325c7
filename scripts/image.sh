#!/bin/sh
# Builds localhost/profile-pilot:latest with podman or docker. Where Debian's image cannot be pulled, the base is
# built from Debian's packages with debootstrap once and kept as localhost/debian:trixie-minbase.
set -eu
cd "$(dirname "$0")/.."
IMAGE=${IMAGE:-localhost/profile-pilot:latest}
# Another Containerfile on the same base (npm run test:deploy builds PostgreSQL's for the one-machine overlay).
CONTAINERFILE=${CONTAINERFILE:-Containerfile}
BASE=${BASE:-docker.io/library/debian:trixie-slim}
LOCAL_BASE=localhost/debian:trixie-minbase

if command -v podman >/dev/null 2>&1; then
  ENGINE=podman
  export CONTAINERS_CONF=${CONTAINERS_CONF:-$PWD/deploy/podman/containers.conf}
elif command -v docker >/dev/null 2>&1; then
  ENGINE=docker
else
  echo "npm run image needs podman or docker; neither is installed." >&2
  exit 3
fi

if $ENGINE image inspect "$LOCAL_BASE" >/dev/null 2>&1; then
  BASE=$LOCAL_BASE
elif ! $ENGINE image inspect "$BASE" >/dev/null 2>&1 && ! timeout 60 $ENGINE pull -q "$BASE" >/dev/null 2>&1; then
  echo "$BASE cannot be pulled here: building the base from Debian's packages (debootstrap, once)." >&2
  command -v debootstrap >/dev/null 2>&1 || { echo "debootstrap is not installed (apt-get install debootstrap)." >&2; exit 3; }
  MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
  ROOT=$(mktemp -d)
  trap 'rm -rf "$ROOT"' EXIT
  debootstrap --variant=minbase trixie "$ROOT" "$MIRROR" >/dev/null
  rm -rf "$ROOT"/var/cache/apt/archives/*.deb "$ROOT"/var/lib/apt/lists/*
  tar -C "$ROOT" -c . | $ENGINE import --change 'CMD ["/bin/bash"]' - "$LOCAL_BASE" >/dev/null
  BASE=$LOCAL_BASE
  echo "Built $LOCAL_BASE from $MIRROR." >&2
fi

if [ "$CONTAINERFILE" = Containerfile ]; then
# Production dependencies are installed here, where the registry is reachable through this machine's settings,
# and the dashboard's pages are built here (Vite is a dev dependency); the image takes the results only.
# The extension's own packages are left out: one of them brings its build tool (wxt, vite) as a peer.
mkdir -p .image
if ! cmp -s package-lock.json .image/installed-from.json; then
cp package.json package-lock.json .image/
(cd .image && npm uninstall --package-lock-only --no-audit --no-fund --loglevel=error \
  @wxt-dev/webextension-polyfill webextension-polyfill preact \
  && npm ci --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error)
cp package-lock.json .image/installed-from.json
fi
npm run --silent build:dashboard >/dev/null
fi
$ENGINE build --build-arg "BASE=$BASE" -t "$IMAGE" -f "$CONTAINERFILE" .
echo "Built $IMAGE on $BASE."
