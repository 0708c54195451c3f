#!/usr/bin/env bash
# The ablation study on the two shipped datasets: all seven configurations (full, no-rag, no-context,
# no-refine, no-reflection, static-prompt, direct) over datasets/sample and datasets/ledger, then the
# report (report.md, rates.png, errors.png, overlap.png, report.html) in the run folder.
#
# Usage: scripts/reproduce_ablations.sh [MODEL]        MODEL defaults to the offline builtin policy.
#   LIMIT=N   only the first N tasks of each dataset (a quick look: LIMIT=5)
#   RUN_DIR   run folder (default runs/ablations-<model>[-limit<N>]); an existing one is resumed
#   JOBS      tasks run at the same time (default 1)
# A real model also needs REPOTRANS_BASE_URL and/or REPOTRANS_API_KEY (see README.md).
set -euo pipefail
cd "$(dirname "$0")/.."
export HF_HUB_OFFLINE=1
model="${1:-builtin}"
limit=()
suffix=""
if [ -n "${LIMIT:-}" ]; then
  limit=(--limit "$LIMIT")
  suffix="-limit$LIMIT"
fi
run_dir="${RUN_DIR:-runs/ablations-${model//[^A-Za-z0-9._-]/_}$suffix}"
python -m repotrans.cli ablate --dataset datasets/sample datasets/ledger \
  --configs full,no-rag,no-context,no-refine,no-reflection,static-prompt,direct \
  --run-dir "$run_dir" --model "$model" --jobs "${JOBS:-1}" "${limit[@]}"
python -m repotrans.cli report "$run_dir"
echo "tables: $run_dir/report.md; every task: $run_dir/report.html"
