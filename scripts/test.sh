#!/usr/bin/env bash
# The test command: install, start what the tests need (Docker engine, mono image), run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh
bash scripts/start_docker.sh
export HF_HUB_OFFLINE=1
# The suite runs on two workers (pytest-xdist; REPOTRANS_TEST_WORKERS=N for N, 0 for this one process):
# it mostly waits (compilers, sandboxes, containers, a Ray cluster), so workers overlap the waits even on
# two cores; whole modules per worker (tests/support/xdist_schedule.py), the Ray modules first. The 40
# slowest tests are listed at the end: where the suite's time goes, on the machine that ran it.
python3 -m pytest -q -p no:cacheprovider -n "${REPOTRANS_TEST_WORKERS:-2}" --durations=40 "$@"
