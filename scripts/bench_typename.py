"""Covering tests by type identity (index.typename) against the simple-name reach of an earlier revision,
without running anything (issue 28/35). For each task of a dataset manifest (validated and dropped; without
--dataset: every target member outside the test projects) it prints, side by side, the selection's basis and
size (test methods) before (reach.py of --before, types matched by simple name) and after (this tree), then
the totals, how often a type name fell back to its simple name, and the tests that leave a selection (a whole
fixture counts as its test methods). --out writes every leaving (task, test) pair as JSON for spot-checks.
  PYTHONPATH=. python3 scripts/bench_typename.py --source JAVA --target CS [--dataset DS/dataset.json] --workdir WD
(from a clone: PYTHONPATH=. makes the clone's package the "after"). A leaving test is explained by the first
hop, walking back from the member on the old path, where a simple name admitted a type it does not bind to
from where it is written; "UNEXPLAINED" would be a test to read by hand.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import types
from collections import Counter, defaultdict, deque
from pathlib import Path

from repotrans.execution.judge.runner import Runner, covering_names, member_tokens
from repotrans.execution.settings import ExecutionConfig
from repotrans.execution.workspace.reach import Reachability, family
from repotrans.execution.workspace.selection import Selection, caller_types, choose_tests, index_tests, select_tests
from repotrans.index.store import Index

REACH = "repotrans/execution/workspace/reach.py"


def old_reach(rev: str) -> types.ModuleType:
    """reach.py as it was at `rev` (the simple-name walk), as a module of its own."""
    repo = Path(__file__).resolve().parent.parent
    text = subprocess.run(["git", "show", f"{rev}:{REACH}"], cwd=repo, check=True, capture_output=True,
                          text=True).stdout
    module = sys.modules["reach_before"] = types.ModuleType("reach_before")
    exec(compile(text, f"{rev}:{REACH}", "exec"), module.__dict__)
    return module


def methods_of(tests: list[str], fixtures: dict[str, dict]) -> set[str]:
    """Selected ids as test methods: a whole fixture is all of its tests."""
    out: set[str] = set()
    for t in tests:
        fx = fixtures.get(t)
        out |= {f"{t}.{m}" for m in fx["tests"]} if fx is not None else {t}
    return out


def provenance(graph, start: set[str]) -> tuple[dict[str, tuple], dict[str, str | None]]:
    """The old graph's reach from `start`, remembering why each member was reached (("name", token,
    family token) or ("override", member)) and which member added each token (None: the test)."""
    why: dict[str, tuple] = {}
    source: dict[str, str | None] = {t: None for t in start}
    names: set[str] = set()
    waiting: dict[str, list[str]] = defaultdict(list)
    queue: deque[str] = deque()

    def add(token: str, by: str | None) -> None:
        if token not in names:
            names.add(token)
            source.setdefault(token, by)
            queue.append(token)

    def visit(mid: str, reason: tuple) -> None:
        todo = [(mid, reason)]
        while todo:
            cur, reason = todo.pop()
            if cur in why:
                continue
            why[cur] = reason
            for token in graph.tokens.get(cur, ()):
                add(token, cur)
            todo += [(o, ("override", cur)) for o in graph.overriders.get(cur, [])]

    for token in start:
        add(token, None)
    while queue:
        name = queue.popleft()
        for mid in graph.by_name.get(name, ()):
            if mid in why:
                continue
            fam = graph.family[mid]
            if not fam or fam & names:
                visit(mid, ("name", name, min(fam & names) if fam else None))
            else:
                for t in fam:
                    waiting[t].append(mid)
        for mid in waiting.pop(name, ()):
            if mid not in why and graph.name_of[mid] in names:
                visit(mid, ("name", graph.name_of[mid], name))
    return why, source


def collision(index, binder, why, source, member: str, fixture_scope: str) -> str:
    """The hop on the old path to `member` where a simple type name admitted a member of a type the name
    does not bind to from where it is written (index.typename); "" when there is none."""
    cur = member
    seen = set()
    overriding = None                # the type of the override the walk came through, if any
    while cur is not None and cur not in seen:
        seen.add(cur)
        reason = why[cur]
        if reason[0] == "override":
            overriding = overriding or index.method(cur).type_id
            cur = reason[1]
            continue
        _, name, fam_token = reason
        here = index.method(cur)
        base = binder.type(here.type_id) if here is not None else None
        if overriding is not None and base is not None and fam_token:
            below = index.subtypes(base)
            through = [t for t in below if fam_token in (t.id, t.name)]
            runs_on = {x.id for t in through for x in [t] + index.subtypes(t)}
            if through and overriding not in runs_on:
                return (f"an override in {overriding.split(':', 1)[1]} of {cur.split(':', 1)[1].split('(')[0]}, which "
                        f"was reached only through its subtype {through[0].qualified_name} (class-hierarchy dispatch)")
        by_name = source.get(name)
        if by_name is not None and by_name.split(":", 1)[1].split("(")[0].rsplit(".", 1)[0].endswith("." + name):
            return (f"named by {name}, the simple name of the type of {by_name.split(':', 1)[1].split('(')[0]} "
                    f"(the old walk added a member's own type by simple name), not by a call")
        by_fam = source.get(fam_token) if fam_token else None
        host = index.method(by_fam) if by_fam is not None else None
        m = index.method(cur)
        if host is not None and m is not None and fam_token in (host.type_id, host.type_id.rsplit(".", 1)[-1]):
            host_type, own_type = binder.type(host.type_id), binder.type(m.type_id)
            if host_type is not None and own_type is not None and \
                    own_type.id in {t.id for t in index.subtypes(host_type)}:
                return (f"an override in {own_type.qualified_name}, admitted because {host.id.split(':', 1)[1]} "
                        f"named its own type; it ran only on a subtype's objects (class-hierarchy dispatch)")
        own = binder.type(m.type_id) if m is not None else None
        admits = {m.type_id} if own is None else family(index, own)
        for token in ([fam_token] if fam_token else []) + ([name] if name.startswith("new ") else []):
            simple = token[4:] if token.startswith("new ") else token
            by = source.get(token)
            scope = binder.type(index.method(by).type_id) if by is not None and index.method(by) else \
                binder.type(f"target:{fixture_scope}")
            bound = binder.bind(scope, simple)
            if not bound & admits:
                where = by.split(":", 1)[1].split("(")[0] if by else f"test {fixture_scope}"
                return f"{simple} written in {where} binds to {', '.join(sorted(b.split(':', 1)[1] for b in bound))}"
        cur = source.get(fam_token if fam_token else name)
    return ""


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--source", type=Path, required=True)
    ap.add_argument("--target", type=Path, required=True)
    ap.add_argument("--dataset", type=Path)
    ap.add_argument("--workdir", type=Path, required=True)
    ap.add_argument("--before", default="34efeac", help="revision whose reach.py is the 'before' (default: "
                    "34efeac, covering tests by static reach with simple names)")
    ap.add_argument("--out", type=Path, help="write the leaving (task, test) pairs here (JSON)")
    args = ap.parse_args()
    index = Index.open(args.workdir / "index")
    index.build(args.source, args.target, progress=False)
    runner = Runner(ExecutionConfig(sandbox="local"), args.workdir / "run")
    ws = runner.workspace(args.target)
    projects = runner.toolchain.test_projects(ws)
    fixtures = index_tests(ws, projects)
    if args.dataset is not None:
        manifest = json.loads(args.dataset.read_text())
        ids = [t["target_method_id"] for t in manifest["tasks"]]
        ids += ["target:" + d["id"] for d in manifest.get("dropped", [])]
    else:
        roots = [ws.src.resolve()]
        tests_at = [str(Path(p).resolve().relative_to(roots[0])) for folder in projects.values()
                    for p in (folder if isinstance(folder, list) else [folder])]
        ids = [m.id for m in index.all_methods("target") if not any(m.path.startswith(t) for t in tests_at)]
    before_mod = old_reach(args.before)
    before_reach, after_reach = before_mod.Reachability(), Reachability()
    skip = {key.split(":", 1)[1].replace("+", ".") for key in fixtures}
    basis: dict[str, Counter] = {"before": Counter(), "after": Counter()}
    sizes, leaving, joining, rows = Counter(), [], Counter(), []
    for mid in ids:
        m = index.method(mid)
        if m is None:
            basis["before"]["not in the index"] += 1
            basis["after"]["not in the index"] += 1
            continue
        names, tokens = covering_names(index, m), member_tokens(index, m)
        tests, used, size = before_mod.reaching_tests(fixtures, lambda s, *scopes: before_reach.reached(index, s, *scopes),
                                                      m.id)
        old = Selection(tests, "covering", fixtures=used, size=size) if tests else select_tests(
            fixtures, names, tokens, callers=lambda: caller_types(index.types("target"), index.all_methods("target"),
                                                                   tokens, names, skip))
        new = choose_tests(index, m, fixtures, names, tokens, after_reach)
        basis["before"][old.basis] += 1
        basis["after"][new.basis] += 1
        sizes["before"] += old.size
        sizes["after"] += new.size
        gone = methods_of(old.tests, fixtures) - methods_of(new.tests, fixtures)
        joining[mid] = len(methods_of(new.tests, fixtures) - methods_of(old.tests, fixtures))
        leaving += [(mid, t) for t in sorted(gone)]
        rows.append((mid.split(":", 1)[1], old.basis, old.size, new.basis, new.size))
    print(f"{'task':<70} {'before':>16} {'after':>16}")
    for name, ob, osz, nb, nsz in rows:
        print(f"{name[:70]:<70} {ob:>9} {osz:>6} {nb:>9} {nsz:>6}{'' if osz == nsz else '  *'}")
    names = after_reach.type_names(index)
    print(f"\ntasks: {len(ids)}")
    for side in ("before", "after"):
        b = basis[side]
        print(f"  {side:<6} covered by reaching tests {b['covering']}, fallbacks "
              f"{b['names'] + b['class'] + b['callers']}, no covering test {b['none']}, "
              f"test methods selected {sizes[side]}")
    print(f"  selections changed: {sum(1 for r in rows if r[2] != r[4])}; smaller {sum(1 for r in rows if r[4] < r[2])}"
          f", larger {sum(1 for r in rows if r[4] > r[2])}")
    print(f"type names bound by the C# rules: {names.resolved}; fell back to the simple name: "
          f"{sum(names.fallbacks.values())} ({len(names.fallbacks)} names; most: "
          f"{', '.join(f'{n} {c}' for n, c in names.fallbacks.most_common(8))})")
    print(f"tests leaving a selection: {len(leaving)} (task, test) pairs over "
          f"{len({t for t, _ in leaving})} tasks; joining: {sum(joining.values())}")
    old_graph, binder, reasons, memo = before_reach._graph, names, Counter(), {}
    explained = []
    for mid, test in leaving:
        key = test if test in fixtures else test.rsplit(".", 1)[0]
        fx = fixtures[key]
        start = set(fx["shared"]) | set(fx["tests"].get(test.rsplit(".", 1)[1], [])) if key != test else set(fx["shared"])
        if key not in memo or memo[key][0] != frozenset(start):
            scope = (key.split(":", 1)[1].replace("+", "."),)
            tokens = before_reach._start_tokens(index, before_reach._names, frozenset(start), scope) \
                if hasattr(before_reach, "_start_tokens") else start
            memo[key] = (frozenset(start), provenance(old_graph, tokens))
        why, source = memo[key][1]
        reason = collision(index, binder, why, source, mid, key.split(":", 1)[1].replace("+", ".")) \
            if mid in why else "not reached from the test alone (its base fixture's identifiers)"
        reasons[reason or "UNEXPLAINED"] += 1
        explained.append({"task": mid, "test": test, "why": reason or "UNEXPLAINED"})
    print("why they leave (the first hop of the old path where a simple type name admits a type it does not bind to):")
    for reason, n in reasons.most_common():
        print(f"  {n:>6}  {reason}")
    if args.out is not None:
        args.out.write_text(json.dumps(explained, indent=1))
        print(f"written: {args.out}")


if __name__ == "__main__":
    main()
