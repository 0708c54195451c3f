#!/usr/bin/env bash
# The test command: install, start what the tests need (Docker engine, mono image), run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh
bash scripts/start_docker.sh
export HF_HUB_OFFLINE=1
# REPOTRANS_TEST_WORKERS=N runs the suite on N workers (pytest-xdist): it mostly waits (compilers,
# sandboxes, containers, a Ray cluster), so workers overlap the waits even on two cores; whole modules
# per worker (tests/support/xdist_schedule.py). 0, the default until a full parallel run is shown green
# twice, runs it in this one process. Later arguments win (`-n 4`).
python3 -m pytest -q -p no:cacheprovider -n "${REPOTRANS_TEST_WORKERS:-0}" "$@"
