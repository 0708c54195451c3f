#!/usr/bin/env bash
# The test command: install, start what the tests need (Docker engine, mono image), run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh
bash scripts/start_docker.sh
export HF_HUB_OFFLINE=1
python3 -m pytest -q -p no:cacheprovider "$@"
