"""The judge's cost on a port: the untouched baseline's seconds cold (empty cache) and warm (a second
build, its baseline cached), validation seconds per task, and the tests each task's covering selection
names (median, max); with --rev, the same for another revision of repotrans (say the commit before
selection by reachability, 34efeac^), built from `git archive` into a folder of its own and run side by
side in this one run on the same machine and the same tasks. Verdicts are compared task by task.

    nice -n 10 python scripts/bench_judge_cost.py [SOURCE TARGET] [--select GLOB ...] [--rev REV]
        [--jobs 1] [--work DIR] [--no-schemata] [--helper MEMBER]

--helper judges one member's ground truth as a candidate (as batch judges one, after the port's first
build; with the limits the cached baseline gives) and prints its seconds, with one test process and with
--test-processes (default 2: this machine's cores, one job) side by side. A revision with no baseline
(before 8505589) is built once: its warm build would be the same work.

Defaults: the bundled sample pair (datasets/sample), StringUtils and Vector2D. Each build runs in a fresh
dataset folder; the cache folder is fresh for the cold build and kept for the warm one. A revision that has
execution.test_processes builds with what the CLI gives it (the cores --jobs leaves each worker).
"""
from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "datasets" / "sample"

# run inside the code tree measured (this checkout or --rev's): one dataset build, its figures as JSON
WORKER = r"""
import importlib, json, re, sys, time
from pathlib import Path
sys.meta_path = [f for f in sys.meta_path if "editable" not in getattr(f, "__module__", "")]   # this tree only
sys.path.insert(0, ".")
b = importlib.import_module("repotrans.datasets.build" if Path("repotrans/datasets/build.py").is_file()
                            else "repotrans.experiments.datasets")      # before the package layout of c548e9e
from repotrans.execution.settings import ExecutionConfig
src, tgt, out, cache, jobs, schemata, select = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), sys.argv[6] == "1", sys.argv[7:]
spent = {"baseline": 0.0}
name = "port_baseline" if hasattr(b, "port_baseline") else "known_failures"   # none before 8505589
original = getattr(b, name, None)
def timed(*a, **k):
    t = time.monotonic()
    try:
        return original(*a, **k)
    finally:
        spent["baseline"] += time.monotonic() - t
if original is not None:
    setattr(b, name, timed)
import dataclasses, os
# test processes as the CLI resolves them (cores --jobs leaves), where the revision has the setting
given = {"test_processes": max(1, (os.cpu_count() or 1) // jobs)} if "test_processes" in {
    f.name for f in dataclasses.fields(ExecutionConfig)} else {}
kw = dict(select=select or None, jobs=jobs, progress=False, schemata=schemata,
          execution=ExecutionConfig(sandbox="local", **given))
if "cache_root" in b.build_dataset.__code__.co_varnames:
    kw["cache_root"] = Path(cache)
t = time.monotonic()
ds = b.build_dataset(Path(src), Path(tgt), Path(out), **kw)
wall = time.monotonic() - t
rows = [json.loads(l) for l in (Path(out) / ".build" / b.VERDICTS).read_text().splitlines() if l.strip()]
def count(sel):
    m = re.search(r"(\d+) (?:covering )?(?:test|fixture)", sel or "")
    return int(m.group(1)) if m else 0
print("@@RESULT " + json.dumps({"wall": wall, "baseline": spent["baseline"], "kept": sorted(t.id for t in ds.tasks),
      "tasks": {r["id"]: {"seconds": r["seconds"], "selected": r.get("selected") or count(r.get("selection")),
                           "reason": r["reason"]} for r in rows}}))
"""

# run inside the code tree measured: one member's ground truth judged as a candidate (as batch judges one), with
# the limits the cached baseline gives (known failures, measured seconds, memory); the second judgement is timed
HELPER = r"""
import json, sys, time
from pathlib import Path
sys.meta_path = [f for f in sys.meta_path if "editable" not in getattr(f, "__module__", "")]
sys.path.insert(0, ".")
from repotrans.execution.judge.baseline import BaselineCache, cached_baseline
from repotrans.execution.judge.runner import Runner
from repotrans.execution.settings import ExecutionConfig
from repotrans.index.store import Index
import dataclasses
index_dir, target, cache, work, query, processes = sys.argv[1:7]
fields = {f.name for f in dataclasses.fields(ExecutionConfig)}
index = Index.open(Path(index_dir), must_exist=True)
m = index.find_methods("target", query)[0]
code = (index.root("target") / m.path).read_bytes()[m.start_byte:m.end_byte].decode()
tasks = json.loads((Path(index_dir).parents[1] / "dataset.json").read_text())["tasks"]
java = next((index.method(t["source_method_id"]) for t in tasks if t["target_method_id"] == m.id), None)
config = ExecutionConfig(sandbox="local", **({"test_processes": int(processes)} if "test_processes" in fields else {}))
with Runner(config, Path(work), trusted=True) as runner:
    base = cached_baseline(runner, Path(target), BaselineCache.under(cache))
    if base is not None:
        runner.limits = base.limits(runner.limits)
        if hasattr(runner, "untouched"):                   # what a judgement sees fail untouched is kept (as batch)
            runner.untouched = base
    runner.run(index, m, code, java=java)                  # the port built once, as a batch's first judgement
    t = time.monotonic()
    r = runner.run(index, m, code, java=java)
    print("@@HELPER " + json.dumps({"member": m.id, "seconds": time.monotonic() - t, "status": r.status,
                                     "selected": len(r.selected), "run": r.tests_run, "timings": r.timings}))
"""


def judge_helper(code: Path, index_dir: Path, target: Path, cache: Path, work: Path, query: str,
                 processes: int) -> dict:
    """Seconds to judge `query`'s ground truth as a candidate with the code at `code` (--helper), `processes`
    test processes at once."""
    argv = [sys.executable, "-c", HELPER, str(index_dir), str(target), str(cache), str(work), query, str(processes)]
    done = subprocess.run(argv, cwd=code, env={**_env(), "PYTHONPATH": str(code)}, capture_output=True, text=True)
    line = next((ln for ln in done.stdout.splitlines() if ln.startswith("@@HELPER ")), None)
    if line is None:
        raise SystemExit(f"judging {query} with {code} failed:\n{done.stderr[-3000:]}")
    return json.loads(line[len("@@HELPER "):])


def measure(code: Path, source: Path, target: Path, out: Path, cache: Path, jobs: int, schemata: bool,
            select: list[str]) -> dict:
    """One dataset build with the code at `code`, in a process of its own; its figures."""
    argv = [sys.executable, "-c", WORKER, str(source), str(target), str(out), str(cache), str(jobs),
            "1" if schemata else "0", *select]
    done = subprocess.run(argv, cwd=code, env={**_env(), "PYTHONPATH": str(code)}, capture_output=True, text=True)
    line = next((ln for ln in done.stdout.splitlines() if ln.startswith("@@RESULT ")), None)
    if line is None:
        raise SystemExit(f"the build with {code} failed:\n{done.stderr[-3000:]}")
    return json.loads(line[len("@@RESULT "):])


def _env() -> dict[str, str]:
    import os
    return dict(os.environ)


def tree_of(rev: str, into: Path, repo: Path) -> Path:
    """repotrans at `rev` of the git repository `repo`, from git archive (nothing of the working tree)."""
    into.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(["git", "archive", rev], cwd=repo, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def summary(label: str, cold: dict, warm: dict) -> list[str]:
    secs = [t["seconds"] for t in cold["tasks"].values()]
    sel = [t["selected"] for t in cold["tasks"].values()]
    per = statistics.median(secs) if secs else 0.0
    return [f"| {label} | {cold['wall']:.1f} / {warm['wall']:.1f} | {cold['baseline']:.1f} | {warm['baseline']:.1f} | "
            f"{cold['wall'] - cold['baseline']:.1f} | "
            f"{per:.2f} / {max(secs, default=0):.1f} | {statistics.median(sel) if sel else 0:g} / {max(sel, default=0)} | "
            f"{len(cold['kept'])} of {len(cold['tasks'])} |"]


def compare(a: dict, b: dict) -> list[str]:
    """Tasks whose verdict (kept, or the reason dropped) differs between two builds."""
    out = []
    for tid in sorted(set(a["tasks"]) | set(b["tasks"])):
        ra, rb = a["tasks"].get(tid, {}).get("reason", "?"), b["tasks"].get(tid, {}).get("reason", "?")
        if (ra is None) != (rb is None):
            out.append(f"  {tid}: {'kept' if ra is None else ra} | {'kept' if rb is None else rb}")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("source", nargs="?", default=str(SAMPLE / "java"))
    ap.add_argument("target", nargs="?", default=str(SAMPLE / "csharp"))
    ap.add_argument("--select", nargs="*", default=None, help="task globs (default: StringUtils and Vector2D "
                                                               "for the sample, all tasks otherwise)")
    ap.add_argument("--rev", help="another revision of repotrans to measure beside this checkout")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--work", help="work folder (default: a temporary one, removed)")
    ap.add_argument("--no-schemata", action="store_true")
    ap.add_argument("--code", default=str(REPO), help="the repotrans tree measured as 'this' (default: this checkout)")
    ap.add_argument("--repo", default=str(REPO), help="the git repository --rev is taken from (default: this one)")
    ap.add_argument("--helper", help="a member (say 'MathUtils.round(float)') whose ground truth is judged as a "
                                     "candidate with this checkout's code: its seconds")
    ap.add_argument("--test-processes", type=int, default=2, help="test processes at once for --helper's second "
                                                                  "judgement (default 2)")
    args = ap.parse_args()
    source, target = Path(args.source).resolve(), Path(args.target).resolve()
    select = args.select if args.select is not None else (["*StringUtils*", "*Vector2D*"] if source == SAMPLE / "java"
                                                          else [])
    work = Path(args.work) if args.work else Path(tempfile.mkdtemp(prefix="judge-cost-"))
    trees = {"this": Path(args.code).resolve()}
    if args.rev:
        trees[args.rev] = tree_of(args.rev, work / "rev", Path(args.repo))
    results = {}
    for label, code in trees.items():
        cache = work / f"cache-{len(results)}"
        shutil.rmtree(cache, ignore_errors=True)
        cold = measure(code, source, target, work / f"out-{len(results)}-cold", cache, args.jobs, not args.no_schemata, select)
        warm = measure(code, source, target, work / f"out-{len(results)}-warm", cache, args.jobs, not args.no_schemata,
                       select) if cold["baseline"] > 0 else cold       # no baseline (before 8505589): nothing to warm
        results[label] = (cold, warm)
    print(f"port: {target} ({', '.join(select) or 'all tasks'}), --jobs {args.jobs}")
    print("| code | build wall s cold / warm | baseline s cold | baseline s warm | validation s | "
          "s per task (median / max) | tests selected (median / max) | kept |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for label, (cold, warm) in results.items():
        print("\n".join(summary(label, cold, warm)))
    labels = list(results)
    same = compare(results[labels[0]][0], results[labels[0]][1])
    print(f"verdicts cold vs warm ({labels[0]}): {'identical' if not same else f'{len(same)} differ'}")
    print("\n".join(same))
    if len(labels) > 1:
        diff = compare(results[labels[0]][0], results[labels[1]][0])
        print(f"verdicts {labels[0]} vs {labels[1]}: {'identical' if not diff else f'{len(diff)} differ'}")
        print("\n".join(diff))
    if args.helper:
        for processes in (1, args.test_processes):
            found = judge_helper(trees["this"], work / "out-0-cold" / ".build" / "index", target, work / "cache-0",
                                 work / "helper", args.helper, processes)
            print(f"one member judged ({found['member']}), {processes} test process(es): {found['seconds']:.1f} s "
                  f"(tests {found['timings'].get('test', 0):.1f} s), {found['status']}, {found['run']} of "
                  f"{found['selected']} selected tests run")
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
