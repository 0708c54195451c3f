"""Benchmark the repotrans index on a large repository pair.

Generates (or takes with --source/--target) a Java repo and a C# repo, then prints:
tree-sitter parse time alone, cold index time and its ratio to the parse time (goal <= 2x),
warm re-index time with nothing changed (goal < 1 s), and p95 latency of Index lookups (goal < 20 ms).

  python scripts/bench_index.py                       # ~1,500 Java + ~1,200 C# synthetic files
  python scripts/bench_index.py --source J --target C  # an existing pair
"""
from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

from repotrans.index.model import SIDES
from repotrans.index.parse import parser_for
from repotrans.index.store import EXTENSION, PARALLEL_MIN, Index

WORDS = ("account ledger entry balance amount rate order item price customer invoice payment total "
         "report period window buffer cache record event shape circle point vector matrix node edge "
         "graph path queue stack token parser reader writer config limit score").split()
JAVA_TYPES = ("int", "long", "double", "String", "boolean", "List<String>", "Map<String, Integer>")
CS_TYPES = ("int", "long", "double", "string", "bool", "List<string>", "Dictionary<string, int>")


def _name(rng: random.Random, parts: int = 2, upper: bool = True) -> str:
    words = [rng.choice(WORDS) for _ in range(parts)]
    text = "".join(w.capitalize() for w in words)
    return text if upper else text[0].lower() + text[1:]


def _java_method(rng: random.Random, i: int) -> str:
    params = ", ".join(f"{rng.choice(JAVA_TYPES)} {_name(rng, 1, False)}{j}" for j in range(rng.randint(0, 4)))
    name = f"{_name(rng, 2, False)}{i}"
    return f"""
    /** Computes {name}. */
    public {rng.choice(("int", "long", "double"))} {name}({params}) {{
        int total = 0;
        for (int k = 0; k < {rng.randint(2, 40)}; k++) {{
            if (k % {rng.randint(2, 7)} == 0) {{
                total += k * {rng.randint(1, 9)};
            }} else {{
                total -= Math.max(k, {rng.randint(1, 9)});
            }}
        }}
        String label = "{name}" + total;
        return label.length() + total;
    }}
"""


def _cs_method(rng: random.Random, i: int) -> str:
    params = ", ".join(f"{rng.choice(CS_TYPES)} {_name(rng, 1, False)}{j}" for j in range(rng.randint(0, 4)))
    name = f"{_name(rng, 2)}{i}"
    return f"""
        /// <summary>Computes {name}.</summary>
        public {rng.choice(("int", "long", "double"))} {name}({params})
        {{
            int total = 0;
            for (int k = 0; k < {rng.randint(2, 40)}; k++)
            {{
                if (k % {rng.randint(2, 7)} == 0) total += k * {rng.randint(1, 9)};
                else total -= Math.Max(k, {rng.randint(1, 9)});
            }}
            var label = "{name}" + total;
            return label.Length + total;
        }}
"""


def _java_file(rng: random.Random, package: str, cls: str) -> str:
    fields = "".join(f"    private {rng.choice(JAVA_TYPES)} {_name(rng, 2, False)}{i};\n" for i in range(rng.randint(2, 8)))
    methods = "".join(_java_method(rng, i) for i in range(rng.randint(4, 14)))
    nested = f"""
    public static class {cls}Builder {{
        private int size;
        public {cls}Builder size(int size) {{ this.size = size; return this; }}
    }}

    enum Mode {{ FAST, SAFE, {_name(rng, 1).upper()} }}
""" if rng.random() < 0.5 else ""
    return f"""package {package};

import java.util.List;
import java.util.Map;
import java.util.ArrayList;

public class {cls} implements Comparable<{cls}> {{
{fields}
    public {cls}(int seed) {{
        this.hashCode();
    }}
{methods}
    @Override
    public int compareTo({cls} other) {{ return 0; }}
{nested}}}
"""


def _cs_file(rng: random.Random, namespace: str, cls: str) -> str:
    fields = "".join(f"        private {rng.choice(CS_TYPES)} {_name(rng, 2, False)}{i};\n" for i in range(rng.randint(2, 8)))
    methods = "".join(_cs_method(rng, i) for i in range(rng.randint(4, 14)))
    nested = f"""
        public class {cls}Builder
        {{
            public int Size {{ get; set; }}
            public {cls}Builder WithSize(int size) {{ Size = size; return this; }}
        }}

        public enum Mode {{ Fast, Safe, {_name(rng, 1)} }}
""" if rng.random() < 0.5 else ""
    return f"""using System;
using System.Collections.Generic;

namespace {namespace}
{{
    public class {cls} : IComparable<{cls}>
    {{
{fields}
        public int Count {{ get; private set; }}
        public string Label => "{cls}";

        public {cls}(int seed)
        {{
            Count = seed;
        }}
{methods}
        public int CompareTo({cls} other) => 0;
{nested}    }}
}}
"""


def generate(root: Path, java_files: int, cs_files: int, seed: int = 7) -> tuple[Path, Path]:
    rng = random.Random(seed)
    source, target = root / "java", root / "csharp"
    for i in range(java_files):
        pkg = f"com.acme.{rng.choice(WORDS)}.{rng.choice(WORDS)}"
        cls = f"{_name(rng)}{i}"
        path = source / pkg.replace(".", "/") / f"{cls}.java"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(_java_file(rng, pkg, cls))
    for i in range(cs_files):
        ns = f"Acme.{rng.choice(WORDS).capitalize()}.{rng.choice(WORDS).capitalize()}"
        cls = f"{_name(rng)}{i}"
        path = target / ns.replace(".", "/") / f"{cls}.cs"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(_cs_file(rng, ns, cls))
    return source, target


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children (the index's worker processes)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


class Timer:
    """Wall-clock and CPU seconds of a block (CPU time is steadier on a shared machine)."""

    def __enter__(self) -> Timer:
        self.wall, self.cpu = time.perf_counter(), cpu_seconds()
        return self

    def __exit__(self, *exc) -> None:
        self.wall, self.cpu = time.perf_counter() - self.wall, cpu_seconds() - self.cpu


def parse_only(roots: dict[str, Path]) -> tuple[Timer, int]:
    """Time for tree-sitter to parse every file (reading excluded), and the file count."""
    blobs = {side: [p.read_bytes() for p in sorted(roots[side].rglob(f"*{EXTENSION[side]}"))] for side in SIDES}
    with Timer() as timer:
        for side in SIDES:
            parser = parser_for(side)
            for data in blobs[side]:
                parser.parse(data)
    return timer, sum(map(len, blobs.values()))


def best(timers: list[Timer]) -> Timer:
    return min(timers, key=lambda t: t.wall)


def p95(samples: list[float]) -> float:
    return statistics.quantiles(samples, n=20)[-1] if len(samples) > 1 else samples[0]


def lookups(index: Index, rng: random.Random, n: int) -> dict[str, float]:
    """p95 milliseconds of each lookup kind over n random queries."""
    types = [t for side in SIDES for t in index.types(side)]
    methods = [m for side in SIDES for m in index.all_methods(side)]
    queries = {
        "find_types(simple)": lambda: (lambda t: index.find_types(t.side, t.name))(rng.choice(types)),
        "find_types(suffix)": lambda: (lambda t: index.find_types(t.side, t.qualified_name.split(".", 2)[-1]))(rng.choice(types)),
        "type": lambda: index.type(rng.choice(types).id),
        "methods": lambda: index.methods(rng.choice(types).id),
        "fields": lambda: index.fields(rng.choice(types).id),
        "method": lambda: index.method(rng.choice(methods).id),
        "find_methods(Name)": lambda: (lambda m: index.find_methods(m.side, m.name))(rng.choice(methods)),
        "find_methods(Type.Name)": lambda: (lambda m: index.find_methods(
            m.side, m.type_id.rsplit(".", 1)[-1] + "." + m.name))(rng.choice(methods)),
        "find_methods(Ns.Type.Name(..))": lambda: (lambda m: index.find_methods(
            m.side, m.id.split(":", 1)[1]))(rng.choice(methods)),
    }
    out = {}
    for label, call in queries.items():
        samples = []
        for _ in range(n):
            started = time.perf_counter()
            call()
            samples.append((time.perf_counter() - started) * 1000)
        out[label] = p95(samples)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--source", type=Path, help="existing Java repo (default: generate one)")
    ap.add_argument("--target", type=Path, help="existing C# repo (default: generate one)")
    ap.add_argument("--java-files", type=int, default=1500)
    ap.add_argument("--cs-files", type=int, default=1200)
    ap.add_argument("--queries", type=int, default=300, help="random queries per lookup kind")
    ap.add_argument("--repeat", type=int, default=2, help="parse-alone and cold-index runs (best is shown)")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="worker processes for the cold index")
    args = ap.parse_args(argv)
    if (args.source is None) != (args.target is None):
        ap.error("give both --source and --target, or neither")
    with tempfile.TemporaryDirectory(prefix="bench_index_") as tmp:
        tmp_path = Path(tmp)
        if args.source is None:
            started = time.perf_counter()
            source, target = generate(tmp_path / "repos", args.java_files, args.cs_files)
            print(f"generated {args.java_files} Java + {args.cs_files} C# files in {time.perf_counter() - started:.1f} s")
        else:
            source, target = args.source, args.target
        runs = [parse_only({"source": source, "target": target}) for _ in range(args.repeat)]
        parse, count = best([t for t, _ in runs]), runs[0][1]
        print(f"tree-sitter parse alone: {parse.wall:.2f} s wall, {parse.cpu:.2f} s CPU for {count} files "
              f"(best of {args.repeat})")

        for workers in sorted({1, args.workers} if count >= PARALLEL_MIN else {1}):
            cold = []
            for n in range(args.repeat):
                with Timer() as timer:
                    index = Index.open(tmp_path / f"work{workers}-{n}")
                    summary = index.build(source, target, progress=False, workers=workers)
                cold.append(timer)
            c = best(cold)
            mode = f"{workers} worker processes" if workers > 1 and count >= PARALLEL_MIN else "in-process"
            print(f"cold index, {mode}: {c.wall:.2f} s wall ({c.wall / parse.wall:.2f}x parse), "
                  f"{c.cpu:.2f} s CPU ({c.cpu / parse.cpu:.2f}x parse CPU); goal <= 2x (best of {args.repeat})")
        print("  " + summary.render().replace("\n", "\n  "))
        with Timer() as warm_timer:
            warm = index.build(source, target, progress=False)
        print(f"warm re-index, nothing changed: {warm_timer.wall:.2f} s wall (goal < 1 s; parsed {warm.parsed})")

        with Timer() as load:
            reopened = Index.open(tmp_path / "work1-0", must_exist=True)
            reopened.types("source")
        print(f"open + first lookup (loads the in-memory view): {load.wall:.2f} s wall")
        print(f"lookup p95 over {args.queries} random queries each (goal < 20 ms):")
        for label, ms in lookups(reopened, random.Random(1), args.queries).items():
            print(f"  {label:34s} {ms:7.3f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
