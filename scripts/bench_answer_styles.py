#!/usr/bin/env python3
"""The demo batch (datasets/sample/demo) with fake models answering in real models' styles.

Each style is the oracle model (it knows the complete port and answers every step right) with its
answers wrapped as that kind of model writes them (tests/answer_styles.py): R1 think blocks with
draft code, ```cs fences, sloppy JSON and occasional whole-class answers; native tool calls; ...
Every run goes through the real HTTP client, real mcs builds and NUnit runs. Prints per style: tasks
passed, model calls, prompt tokens.

    python scripts/bench_answer_styles.py [--styles oracle,r1,native | all] [--out DIR]
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from repotrans.cli import main as cli  # noqa: E402
from repotrans.runs.layout import summary_file  # noqa: E402
from repotrans.index.store import Index  # noqa: E402
from tests.support.answer_styles import STYLES  # noqa: E402
from tests.support.fake_openai_server import FakeOpenAIServer  # noqa: E402
from tests.support.oracle_model import OracleModel  # noqa: E402


def run_style(style: str, out: Path, full: Index, view: Path, sandbox: str) -> dict:
    os.environ["REPOTRANS_CACHE_DIR"] = str(out / "cache")
    model = OracleModel(full, style=style)
    started = time.time()
    with FakeOpenAIServer(responder=model) as server:
        argv = ["batch", "--source", str(ROOT / "datasets/sample/java"), "--target", str(view),
                "--run-dir", str(out / "batch"), "--model", f"{style}-model",
                "--base-url", server.base_url, "--sandbox", sandbox]
        import contextlib
        import io

        err = io.StringIO()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            rc = cli(argv)
    if not summary_file(out / "batch").is_file():
        raise SystemExit(f"{style}: batch failed (exit {rc}): {err.getvalue().strip().splitlines()[-1:]}")
    summary = json.loads(summary_file(out / "batch").read_text())
    return {"style": style, "rc": rc, "tasks": summary["tasks"], "passed": summary["passed"],
            "errors": summary["errors"], "calls": len(server.requests), "prompt_tokens": summary["prompt_tokens"],
            "together": summary.get("together", {}).get("status"), "seconds": round(time.time() - started, 1)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--styles", default="oracle,r1,native", help="comma-separated, or 'all'")
    ap.add_argument("--out", help="folder for the runs (default: a temporary one)")
    ap.add_argument("--sandbox", default="local", help="sandbox of the test runs (local or docker)")
    args = ap.parse_args()
    styles = sorted(STYLES) if args.styles == "all" else [s.strip() for s in args.styles.split(",")]
    unknown = [s for s in styles if s not in STYLES]
    if unknown:
        print(f"unknown styles {unknown}; known: {', '.join(sorted(STYLES))}", file=sys.stderr)
        return 2
    os.environ.setdefault("REPOTRANS_API_KEY", "fake-key")
    out = Path(args.out or tempfile.mkdtemp(prefix="bench-styles-"))
    full = Index.open(out / "complete-index")
    full.build(ROOT / "datasets/sample/java", ROOT / "datasets/sample/csharp", progress=False)
    import contextlib
    import io

    with contextlib.redirect_stdout(io.StringIO()):
        cli(["dataset", "mask", "--dataset", str(ROOT / "datasets/sample/demo"), "--out", str(out / "view")])
    rows = [run_style(s, out / s, full, out / "view" / "target", args.sandbox) for s in styles]
    print(f"{'style':<16} {'passed':>9} {'errors':>6} {'calls':>6} {'prompt tok':>10} {'together':>9} {'s':>6}")
    for r in rows:
        print(f"{r['style']:<16} {r['passed']:>4}/{r['tasks']:<4} {r['errors']:>6} {r['calls']:>6} "
              f"{r['prompt_tokens']:>10} {str(r['together']):>9} {r['seconds']:>6}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
