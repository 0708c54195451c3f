"""Tool latency benchmark: p50/p95/max of each context tool, on the sample pair or a generated pair.

    python scripts/bench_tools.py                       # datasets/sample
    python scripts/bench_tools.py --generate 400        # a generated pair of 400 classes x 12 members
    python scripts/bench_tools.py --json out.json --check   # exit 1 when a p95 misses the goal

Every call goes through run_tool (argument check, lookup, rendering, size bound), as the agent's
calls do; one ToolContext per task, as in a translation run. Goal: p95 < 20 ms per tool.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from repotrans.mapping.mapping import build_mapping  # noqa: E402
from repotrans.mapping.load import load_mapping  # noqa: E402
from repotrans.index.store import Index  # noqa: E402
from repotrans.mapping.task import TranslationTask, has_code  # noqa: E402
from repotrans.tools import ToolContext, load_schemas, run_tool  # noqa: E402

GOAL_MS = 20.0


def generate_pair(root: Path, classes: int, methods: int = 10) -> tuple[Path, Path]:
    """A Java library and its C# port: `classes` classes over 8 packages (renamed namespaces),
    each with fields, two constructors, a getter that became a property and `methods` methods
    that call into the next class."""
    java, cs = root / "java", root / "csharp"
    for i in range(classes):
        pkg, nxt = i % 8, (i + 1) % classes
        jdir, cdir = java / f"org/gen/p{pkg}", cs / f"Gen/P{pkg}"
        jdir.mkdir(parents=True, exist_ok=True)
        cdir.mkdir(parents=True, exist_ok=True)
        jm = "".join(
            f"    public int step{j}(int a, String s) {{\n        int t = a * {j} + s.length();\n"
            f"        return t + next.getValue();\n    }}\n\n" for j in range(methods))
        cm = "".join(
            f"        public int Step{j}(int a, string s)\n        {{\n            int t = a * {j} + s.Length;\n"
            f"            return t + next.Value;\n        }}\n\n" for j in range(methods))
        (jdir / f"C{i}.java").write_text(
            f"package org.gen.p{pkg};\n\nimport java.util.List;\nimport org.gen.p{nxt % 8}.C{nxt};\n\n"
            f"public class C{i} {{\n    private final int value;\n    private C{nxt} next;\n\n"
            f"    public C{i}(int value) {{\n        this.value = value;\n    }}\n\n"
            f"    public C{i}() {{\n        this({i});\n    }}\n\n"
            f"    public int getValue() {{\n        return value;\n    }}\n\n{jm}}}\n")
        (cdir / f"C{i}.cs").write_text(
            f"using System;\nusing System.Collections.Generic;\nusing Gen.P{nxt % 8}.Impl;\n\n"
            f"namespace Gen.P{pkg}.Impl\n{{\n    public class C{i}\n    {{\n"
            f"        private readonly int value;\n        private C{nxt} next;\n\n"
            f"        public C{i}(int value)\n        {{\n            this.value = value;\n        }}\n\n"
            f"        public C{i}() : this({i})\n        {{\n        }}\n\n"
            f"        public int Value\n        {{\n            get {{ return value; }}\n        }}\n\n{cm}"
            f"    }}\n}}\n")
    return java, cs


def _calls(index, mapping, limit: int) -> list[tuple[TranslationTask, str, dict]]:
    """(task, tool, args) for up to `limit` translatable members; class/method lookups target the task's class."""
    calls = []
    for match in mapping.method_matches:
        target = index.method(match.target_id)
        if target is None or not has_code(target):
            continue
        task = TranslationTask(match.target_id, match.source_id)
        owner = index.type(target.type_id)
        name = owner.name if target.kind == "constructor" else target.name
        for tool in ("get_source_class_info", "get_target_class_info", "find_target_imports"):
            calls.append((task, tool, {}))
        calls.append((task, "find_target_class_info", {"class_name": owner.name}))
        calls.append((task, "find_target_method_body", {"class_name": owner.qualified_name, "method_name": name}))
        if len(calls) >= 5 * limit:
            break
    return calls


def bench(workdir: Path, limit: int, repeat: int) -> dict:
    """Time every tool call; returns {tool: {n, p50_ms, p95_ms, max_ms, errors}} plus mapping timings."""
    index = Index.open(workdir, must_exist=True)
    t0 = time.perf_counter()
    mapping = build_mapping(index)
    build_s = time.perf_counter() - t0
    load_mapping(index)                                  # fill the cache
    t0 = time.perf_counter()
    mapping = load_mapping(index)
    load_s = time.perf_counter() - t0
    samples: dict[str, list[float]] = {name: [] for name in load_schemas()}
    errors: dict[str, int] = {name: 0 for name in samples}
    contexts: dict[TranslationTask, ToolContext] = {}
    for _ in range(repeat):
        contexts.clear()
        for task, tool, args in _calls(index, mapping, limit):
            ctx = contexts.setdefault(task, ToolContext(index, mapping, task))
            t0 = time.perf_counter()
            out = run_tool(ctx, tool, args)
            samples[tool].append((time.perf_counter() - t0) * 1000)
            errors[tool] += "error" in out
    result = {"mapping_build_s": round(build_s, 3), "mapping_load_s": round(load_s, 4), "tools": {}}
    for tool, times in samples.items():
        times.sort()
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))] if times else float("nan")
        result["tools"][tool] = {"n": len(times), "p50_ms": round(statistics.median(times), 2) if times else None,
                                 "p95_ms": round(p95, 2), "max_ms": round(times[-1], 2) if times else None,
                                 "errors": errors[tool]}
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", default=str(ROOT / "datasets/sample/java"))
    parser.add_argument("--target", default=str(ROOT / "datasets/sample/csharp"))
    parser.add_argument("--generate", type=int, metavar="CLASSES", help="benchmark a generated pair instead")
    parser.add_argument("--limit", type=int, default=300, help="at most this many tasks")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--check", action="store_true", help=f"exit 1 if a tool's p95 is >= {GOAL_MS:g} ms")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        source, target = Path(args.source), Path(args.target)
        if args.generate:
            source, target = generate_pair(tmp_path / "pair", args.generate)
        work = tmp_path / "work"
        summary = Index.open(work).build(source, target, progress=False)
        result = bench(work, args.limit, args.repeat)
    result["pair"] = f"generated {args.generate} classes" if args.generate else f"{source} -> {target}"
    result["index"] = {"files": summary.files, "types": summary.types, "methods": summary.methods}
    print(f"tool latency on {result['pair']} ({summary.types} types, {summary.methods} members); "
          f"mapping build {result['mapping_build_s']:.3f} s, cached load {result['mapping_load_s'] * 1000:.1f} ms")
    print(f"{'tool':26} {'calls':>6} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8} {'errors':>6}")
    slow = []
    for tool, r in result["tools"].items():
        print(f"{tool:26} {r['n']:6d} {r['p50_ms']:8.2f} {r['p95_ms']:8.2f} {r['max_ms']:8.2f} {r['errors']:6d}")
        if r["p95_ms"] >= GOAL_MS:
            slow.append(tool)
    print(f"goal p95 < {GOAL_MS:g} ms: " + ("met" if not slow else "MISSED by " + ", ".join(slow)))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2))
    return 1 if args.check and slow else 0


if __name__ == "__main__":
    sys.exit(main())
