#!/usr/bin/env bash
# Start the Docker engine if it is not running, then build the local mono image (no image can be pulled here).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! docker info >/dev/null 2>&1; then
  echo "starting dockerd"
  (dockerd >/tmp/repotrans-dockerd.log 2>&1 &)
  for _ in $(seq 60); do docker info >/dev/null 2>&1 && break; sleep 1; done
  docker info >/dev/null 2>&1 || { echo "dockerd did not start; see /tmp/repotrans-dockerd.log" >&2; exit 1; }
fi
bash scripts/build_mono_image.sh
