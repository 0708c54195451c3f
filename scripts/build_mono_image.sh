#!/usr/bin/env bash
# Build the offline mono image used by the docker sandbox: repotrans/mono:bookworm.
#
# No registry image can be pulled here, so the image is made from Debian packages:
# debootstrap a minimal bookworm from the Debian mirror the host's apt already uses,
# chroot-install mono-devel + nunit-console + mono-utils (pedump: the IL verifier), then `docker import` the tree.
#
# Usage: scripts/build_mono_image.sh [--force] [--tag NAME]   (env MIRROR=... overrides the mirror)
set -euo pipefail

TAG="repotrans/mono:bookworm"
FORCE=0
while [ $# -gt 0 ]; do
  case "$1" in
    --force) FORCE=1 ;;
    --tag) TAG="$2"; shift ;;
    -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
    *) echo "build_mono_image.sh: unknown argument: $1" >&2; exit 2 ;;
  esac
  shift
done

die() { echo "build_mono_image.sh: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "must run as root (debootstrap, chroot)"
command -v debootstrap >/dev/null || die "debootstrap is not installed (apt-get install debootstrap)"
command -v docker >/dev/null || die "docker CLI is not installed"
docker info >/dev/null 2>&1 || die "the Docker engine is not reachable (start dockerd)"

if [ "$FORCE" = 0 ] && docker image inspect "$TAG" >/dev/null 2>&1; then
  echo "image $TAG already exists (use --force to rebuild)"
  exit 0
fi

# The Debian mirror the host's apt uses: deb822 "URIs:" or one-line "deb URL suite".
host_mirror() {
  local f
  for f in /etc/apt/sources.list.d/*.sources /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -r "$f" ] || continue
    awk '/^URIs:/ && $2 ~ /\/debian\/?$/ {print $2; exit}
         /^deb / && $0 ~ / bookworm / && $2 ~ /\/debian\/?$/ {print $2; exit}' "$f"
  done | head -n 1
}
MIRROR="${MIRROR:-$(host_mirror)}"
MIRROR="${MIRROR:-http://deb.debian.org/debian}"
echo "mirror: $MIRROR"

ROOT="$(mktemp -d /var/tmp/repotrans-mono-root.XXXXXX)"
cleanup() {
  umount "$ROOT/proc" 2>/dev/null || true
  rm -rf --one-file-system "$ROOT"
}
trap cleanup EXIT

debootstrap --variant=minbase bookworm "$ROOT" "$MIRROR"

cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
cat > "$ROOT/etc/apt/sources.list" <<SRC
deb $MIRROR bookworm main
deb $MIRROR bookworm-updates main
SRC
mount -t proc proc "$ROOT/proc"
chroot "$ROOT" /usr/bin/env DEBIAN_FRONTEND=noninteractive LANG=C.UTF-8 bash -euc '
  apt-get update -q
  apt-get install -y -q --no-install-recommends mono-devel mono-utils nunit-console ca-certificates-mono
  apt-get clean
  rm -rf /var/lib/apt/lists/* /var/cache/apt/* /tmp/* /root/.cache
  mcs --version
'
umount "$ROOT/proc"
: > "$ROOT/etc/resolv.conf"
mkdir -p "$ROOT/work"

[ -f "$ROOT/usr/lib/cli/nunit.framework-2.6.3/nunit.framework.dll" ] || die "NUnit 2.6.3 framework missing in the image"

tar -C "$ROOT" --numeric-owner -c . | docker import \
  --change 'ENV LANG=C.UTF-8' \
  --change 'WORKDIR /work' \
  --change 'CMD ["/bin/bash"]' \
  - "$TAG"
docker run --rm --network none "$TAG" mcs --version
echo "built $TAG"
