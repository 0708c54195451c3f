#!/usr/bin/env bash
# The main job on the bundled sample: mask the methods of datasets/sample/demo in the sample's C#
# port, batch-translate every placeholder back from Java with the agents (callees first; real mcs
# builds, real NUnit runs), and render the report.
# Model: REPOTRANS_MODEL (+ REPOTRANS_BASE_URL, REPOTRANS_API_KEY) if set, else the offline builtin policy.
set -euo pipefail
cd "$(dirname "$0")/.."
export HF_HUB_OFFLINE=1
model="${REPOTRANS_MODEL:-builtin}"
[ "$model" = builtin ] && echo "no model configured (REPOTRANS_MODEL unset): using the offline builtin policy"
out=runs/sample
resume=()
[ -f "$out/batch/results.sqlite" ] && resume=(--resume)
repotrans dataset mask --dataset datasets/sample/demo --out "$out/view"
repotrans batch --source datasets/sample/java --target "$out/view/target" \
  --run-dir "$out/batch" --model "$model" "${resume[@]}"
repotrans report "$out/batch"
echo "open $out/batch/report.html for every task's code, test outcome and agent trajectory"
