"""Covering tests before/after static reachability (issue 35), without running anything: for each task of a
dataset manifest (validated and dropped), the name walk's selection (select_tests: the old rule) and the
reach-based one (choose_tests), by basis, with the tasks whose basis changes. Usage:
  python3 scripts/bench_selection.py --source JAVA --target CS --dataset DIR/dataset.json --workdir WD
"""
from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from repotrans.execution.judge.runner import Runner, covering_names, member_tokens
from repotrans.execution.settings import ExecutionConfig
from repotrans.execution.workspace.reach import Reachability
from repotrans.execution.workspace.selection import caller_types, choose_tests, index_tests, select_tests
from repotrans.index.store import Index


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--source", type=Path, required=True)
    ap.add_argument("--target", type=Path, required=True)
    ap.add_argument("--dataset", type=Path, required=True)
    ap.add_argument("--workdir", type=Path, required=True)
    args = ap.parse_args()
    manifest = json.loads(args.dataset.read_text())
    ids = [("validated", t["target_method_id"]) for t in manifest["tasks"]]
    ids += [("dropped", "target:" + d["id"]) for d in manifest.get("dropped", [])]
    index = Index.open(args.workdir / "index")
    index.build(args.source, args.target, progress=False)
    runner = Runner(ExecutionConfig(sandbox="local"), args.workdir / "run")
    ws = runner.workspace(args.target)
    fixtures = index_tests(ws, runner.toolchain.test_projects(ws))
    skip = {key.split(":", 1)[1].replace("+", ".") for key in fixtures}
    reach = Reachability()
    moves, before, after, sizes = Counter(), Counter(), Counter(), Counter()
    for kind, mid in ids:
        m = index.method(mid)
        if m is None:
            moves[(kind, "not in the index")] += 1
            continue
        names, tokens = covering_names(index, m), member_tokens(index, m)
        old = select_tests(fixtures, names, tokens, callers=lambda: caller_types(
            index.types("target"), index.all_methods("target"), tokens, names, skip))
        new = choose_tests(index, m, fixtures, names, tokens, reach)
        old_basis = "covering" if old.basis == "names" else old.basis
        before[old_basis] += 1
        after[new.basis] += 1
        sizes["before"] += old.size
        sizes["after"] += new.size
        moves[(kind, f"{old_basis} -> {new.basis}")] += 1
    print(f"tasks: {len(ids)} ({sum(1 for k, _ in ids if k == 'validated')} validated before)")
    print("basis before (name walk):", dict(before))
    print("basis after (static reach, name walk as fallback):", dict(after))
    print("test methods selected in all: before", sizes["before"], "after", sizes["after"])
    for (kind, move), n in sorted(moves.items()):
        print(f"  {kind:<9} {move:<28} {n}")


if __name__ == "__main__":
    main()
