#!/usr/bin/env bash
# Install everything repotrans needs on a fresh Debian 12 machine (run as root). Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."

apt_pkgs=(mono-devel mono-utils nunit-console docker.io debootstrap bubblewrap chromium)   # chromium: the report's browser test; mono-utils: pedump, the IL verifier
command -v javac >/dev/null || apt_pkgs+=(openjdk-17-jdk-headless)
missing=()
for p in "${apt_pkgs[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing Debian packages: ${missing[*]}"
  apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >/dev/null
fi

# torch first, pinned: the local CPU build; anything looser pulls a multi-GB CUDA build.
python3 -c "import torch" 2>/dev/null || pip install -q torch==2.13.0
pip install -q -e '.[test,ray]'
