"""Measure the offline builtin policy without the agents: for every mapped method pair, gather the
fixed context with the real tools, translate, run the covering tests (mcs + NUnit), and apply the
repair rules (compile errors, expected-exception test failures) for up to --rounds rounds.

    python scripts/bench_policy.py SOURCE TARGET WORKDIR [--select GLOB] [--limit N] [--rounds 2] [--out results.json]
"""
from __future__ import annotations

import argparse
import fnmatch
import json
import time
from collections import Counter
from pathlib import Path

from repotrans.execution.judge.runner import Runner
from repotrans.execution.settings import ExecutionConfig
from repotrans.execution.toolchains.api import read_known_failures
from repotrans.datasets.dataset import load_dataset
from repotrans.mapping.fields import renamed_fields
from repotrans.mapping.load import load_mapping
from repotrans.index.store import Index
from repotrans.mapping.task import TranslationTask
from repotrans.translator.boundary import store_values, stored_values
from repotrans.translator.constants import add_constants, constants_of
from repotrans.translator.helpers import add_helpers, removed_helpers
from repotrans.translator.implementation import implementation
from repotrans.translator.removed_types import inline_removed_calls, removed_type_helpers
from repotrans.translator.java2cs import translate_method
from repotrans.translator.timestamps import translate_with_dates
from repotrans.translator.repair import repair_with_reason
from repotrans.translator.resolver import ContextResolver, renamed_members
from repotrans.translator.steps import class_name, jdk_imports, missing_owners, wanted_calls
from repotrans.tools import run_tool
from repotrans.tools.context import ToolContext


def resolver_for(index, mapping, match, renames: dict[str, str] | None, api_map: bool) -> ContextResolver:
    """The context the builtin would gather for this pair, as a resolver (with the learned map unless off)."""
    source, target = implementation(index, index.method(match.source_id)), index.method(match.target_id)
    ctx = ToolContext(index, mapping, TranslationTask(target.id, source.id))
    jdk = jdk_imports(getattr(index.file("source", source.path), "imports", []))
    outputs = [(tool, args, run_tool(ctx, tool, args)) for tool, args in wanted_calls(source, [], target, jdk)[:3]]
    outputs += [(tool, args, run_tool(ctx, tool, args)) for tool, args in wanted_calls(source, outputs, target, jdk)[3:]]
    for _ in range(3):      # types a dry translation needed but the context lacks (bounded, like the agent)
        asked = {a.get("class_name") for _, a, _ in outputs}
        todo = [m for m in missing_owners(source, outputs, target, jdk) if m not in asked][:2]
        if not todo:
            break
        outputs += [("find_target_class_info", {"class_name": m},
                     run_tool(ctx, "find_target_class_info", {"class_name": m})) for m in todo]
    resolver = ContextResolver.from_tool_outputs(class_name(source), outputs)
    resolver.renames = renamed_members(mapping.method_matches) | renamed_fields(index, mapping) \
        if renames is None else renames
    resolver.api = ctx.task_api_map() if api_map else None      # never the task's own pair
    return resolver


def helpers_of(index, mapping, source, target) -> list:
    """Java helpers of the source class the port removed (as the builtin client finds them)."""
    paired = {m.source_id for m in mapping.method_matches}
    cs_members = index.methods(target.type_id)
    cs_names = {m.name for m in cs_members} | {f.name for f in index.fields(target.type_id)}
    return removed_helpers([m for m in index.methods(source.type_id) if m.id != source.id], paired, cs_names,
                           {(m.name, len(m.params)) for m in cs_members if m.kind == "method"})


def with_helpers(index, mapping, source, target, resolver, code: str) -> str:
    """The candidate with the removed helpers and constants it uses, as the builtin client adds them
    (steps.generate)."""
    code = add_helpers(code, helpers_of(index, mapping, source, target), resolver, translate_method)
    code = inline_removed_calls(code, removed_type_helpers(index, mapping, source), resolver, translate_method)
    code = add_constants(code, constants_of(index, resolver.renames, source, target), resolver, translate_method)
    return store_values(code, stored_values(index, mapping, source, target), resolver, translate_method,
                        [p.name for p in target.params])


def one(index, mapping, match, runner: Runner, rounds: int, renames: dict[str, str] | None = None,
        api_map: bool = True) -> dict:
    source, target = implementation(index, index.method(match.source_id)), index.method(match.target_id)
    resolver = resolver_for(index, mapping, match, renames, api_map)
    row: dict = {"target": target.id, "rules": []}
    try:
        code = with_helpers(index, mapping, source, target, resolver,
                            translate_with_dates(source, resolver, target, translate_method))
    except Exception as exc:  # the benchmark records translator crashes instead of stopping
        return {**row, "status": "translator_error", "error": f"{type(exc).__name__}: {exc}"}
    result = runner.run(index, target, code, java=source)
    for _ in range(rounds):
        if result.status == "passed":
            break
        outcome = repair_with_reason(code, result, resolver)
        if outcome.code is None:
            break
        code, row["rules"] = outcome.code, row["rules"] + outcome.rules
        result = runner.run(index, target, code, java=source)
    first_errors = [d.code for d in result.diagnostics if d.severity == "error"][:3]
    return {**row, "status": result.status, "errors": first_errors, "code": code}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("source", type=Path)
    ap.add_argument("target", type=Path)
    ap.add_argument("workdir", type=Path)
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--select", action="append", default=[], help="glob over C# method ids (repeatable)")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per test run (default 60)")
    ap.add_argument("--no-api-map", action="store_true", help="ablation: without the port's learned API map")
    ap.add_argument("--translate-only", action="store_true",
                    help="no test runs: count the translations the learned map changed (with --out, their code)")
    ap.add_argument("--dataset", type=Path, help="only the validated tasks of this dataset (dataset.json)")
    ap.add_argument("--ablate", action="store_true",
                    help="with and without the learned map side by side (a task whose translation the map does not "
                         "change is judged once and counts for both)")
    ap.add_argument("--test-timeout", type=float, default=ExecutionConfig.test_timeout,
                    help="seconds one test may run before it fails alone (default %(default)s; BCrypt.Net's cost-12 "
                         "hashing tests need more on a loaded machine)")
    ap.add_argument("--known-failures", type=Path,
                    help="tests that fail before any change (batch's --known-failures file): left out of verdicts")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    known = read_known_failures(args.known_failures) if args.known_failures else ()
    index = Index.open(args.workdir)
    index.build(args.source, args.target, progress=False)
    mapping = load_mapping(index)
    matches = [m for m in mapping.method_matches
               if (t := index.method(m.target_id)) is not None and t.body and t.kind != "indexer"]
    if args.dataset:
        wanted = {(t.source_method_id, t.target_method_id) for t in load_dataset(args.dataset).tasks}
        matches = [m for m in matches if (m.source_id, m.target_id) in wanted]
    if args.select:
        matches = [m for m in matches if any(fnmatch.fnmatchcase(m.target_id.split(":", 1)[1], g) for g in args.select)]
    matches = matches[: args.limit] if args.limit else matches
    renames = renamed_members(mapping.method_matches) | renamed_fields(index, mapping)
    if args.translate_only:
        return changed_by_map(index, mapping, matches, renames, args.out)
    if args.ablate:
        return ablate(index, mapping, matches, renames, args)
    rows, started = [], time.time()
    with Runner(ExecutionConfig(timeout=args.timeout, test_timeout=args.test_timeout, known_failures=known), args.workdir) as runner:
        for match in matches:
            row = one(index, mapping, match, runner, args.rounds, renames, not args.no_api_map)
            rows.append(row)
            print(f"{row['status']:16} {row['target']} {' '.join(row.get('errors', []))} {row.get('error', '')}",
                  flush=True)
    counts = Counter(r["status"] for r in rows)
    repaired = sum(1 for r in rows if r["rules"] and r["status"] == "passed")
    print(f"{len(rows)} methods in {time.time() - started:.0f}s: {dict(counts)}; "
          f"passed {counts['passed'] / max(1, len(rows)):.0%}; passed after repair rules: {repaired}")
    if args.out:
        args.out.write_text(json.dumps(rows, indent=1), encoding="utf-8")


def ablate(index, mapping, matches, renames: dict[str, str], args) -> None:
    """Pass and compile rates with the learned map and without it (the ablation row)."""
    rows, started = [], time.time()
    known = read_known_failures(args.known_failures) if args.known_failures else ()
    with Runner(ExecutionConfig(timeout=args.timeout, test_timeout=args.test_timeout, known_failures=known), args.workdir) as runner:
        for match in matches:
            source, target = implementation(index, index.method(match.source_id)), index.method(match.target_id)
            try:
                same = translate_method(source, resolver_for(index, mapping, match, renames, True), target) == \
                    translate_method(source, resolver_for(index, mapping, match, renames, False), target)
            except Exception:  # noqa: BLE001 (the run below records the crash)
                same = True
            on = one(index, mapping, match, runner, args.rounds, renames, True)
            off = on if same else one(index, mapping, match, runner, args.rounds, renames, False)
            rows.append({"target": target.id, "changed": not same, "with": on, "without": off})
            print(f"{'changed' if not same else 'same':8} {on['status']:16} {off['status']:16} {target.id}", flush=True)
    for label, key in (("with the learned map", "with"), ("without it (ablation)", "without")):
        counts = Counter(r[key]["status"] for r in rows)
        compiled = sum(1 for r in rows if r[key]["status"] not in ("compile_error", "translator_error"))
        print(f"{label:24} passed {counts['passed']}/{len(rows)} ({counts['passed'] / max(1, len(rows)):.1%}), "
              f"compiled {compiled}/{len(rows)} ({compiled / max(1, len(rows)):.1%}): {dict(counts)}")
    changed = [r for r in rows if r["changed"]]
    print(f"{len(changed)} of {len(rows)} translations changed by the map; on those: "
          f"passed {sum(r['with']['status'] == 'passed' for r in changed)} with, "
          f"{sum(r['without']['status'] == 'passed' for r in changed)} without; {time.time() - started:.0f}s")
    if args.out:
        args.out.write_text(json.dumps(rows, indent=1), encoding="utf-8")


def changed_by_map(index, mapping, matches, renames: dict[str, str], out: Path | None) -> None:
    """Translate every pair with and without the learned map; print those it changes."""
    rows = []
    for match in matches:
        source, target = implementation(index, index.method(match.source_id)), index.method(match.target_id)
        try:
            codes = [translate_method(source, resolver_for(index, mapping, match, renames, api), target)
                     for api in (True, False)]
        except Exception as exc:  # the benchmark records translator crashes instead of stopping
            print(f"translator_error {target.id} {type(exc).__name__}: {exc}")
            continue
        if codes[0] != codes[1]:
            rows.append({"target": target.id, "with": codes[0], "without": codes[1]})
            print(f"changed {target.id}", flush=True)
    print(f"{len(rows)} of {len(matches)} translations changed by the learned API map")
    if out:
        out.write_text(json.dumps(rows, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
