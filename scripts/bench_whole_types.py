"""Regenerate whole C# classes deleted from a real port and judge them by the port's own hidden tests.

  python scripts/bench_whole_types.py --source ZXING/core/src/main/java --target ZXING_NET \
      [--junit ZXING/core/src/test/java] --types com.google.zxing.common.BitSource com.google.zxing.qrcode.decoder.Version ... [--work DIR]

For each Java type: its C# counterpart's file is deleted from a copy of the port (and from the
projects' Compile items), and the port's tests of that class (test files named `<Class>Test*.cs`)
(or `Test<Class>.cs`) are moved out of the copy: no index, store or prompt sees them. Then `skeleton` regenerates the
classes and `batch --model builtin` fills their bodies (only bodies that passed tests in the batch are
applied, and a class's compiled bodies together, then the failing classes together, when no translated JUnit
test contradicts them (all pass, or fail only by stopping in a placeholder), scripts/whole_types_apply.py; with the tests hidden a body is judged by compiling only and stays a placeholder). Other test
files that name the classes are hidden too and counted apart; the copy has no .git. Test methods of the
classes' own files that use members the port added (no Java counterpart) are set apart on both sides. Finally the hidden
tests come back and judge:
  API fidelity   share of the classes' hidden test files that compile against the regenerated API (only
                 when the library and their test project really built), and the members they miss;
  pass rate      of the tests in those files, beside the same tests on the untouched port;
  seconds per class from indexing to the last verdict, and the 10 most frequent skeleton mismatches
  (kind, name, arity, parameter types, static-ness, accessibility), classified.
With --junit, a second mode also translates the classes' JUnit tests into the port's test project
(`translate-tests`); they judge the bodies during the batch (verdicts labelled as translated tests)
and are removed before the port's hidden tests come back to judge the result (--junit-only: that mode alone).
Nothing of the port is committed; the copy lives under --work.
"""
from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from repotrans.agents.config import load_config
from repotrans.execution.sandboxes.choice import make_sandbox
from repotrans.execution.toolchains import Limits, PatchedFile, TargetBuildError
from repotrans.verdicts.results import ExceptionInfo
from repotrans.execution.toolchains.api import compile_argv, make_toolchain, parse_mcs, plan_build
from repotrans.execution.workspace.apply import LineMap
from repotrans.execution.workspace.scratch import Workspace, prepare_workspace
from repotrans.runs.batch import run_batch
from repotrans.index.store import Index
from repotrans.mapping.load import load_mapping
from repotrans.skeleton.create import create_skeleton
from repotrans.skeleton.place import add_compile_items
from repotrans.junit.port_tests import port_junit_tests
from whole_types_api import (TEST_ATTRIBUTE, api, api_mismatches, classify, comparable_copy, port_only_members,
                             print_mismatches, strip_port_only)
from whole_types_apply import apply_bodies, own_test_file, stopped_in_placeholders

MISSING = re.compile(r"does not contain a definition for `([^']+)'")


def counterpart_files(source: Path, target: Path, types: list[str], work: Path) -> dict[str, tuple]:
    """Java type -> (C# type id, C# file, other files holding partial parts of it) on the untouched port."""
    index = Index.open(work / "untouched-index")
    index.build(source, target, progress=False)
    mapping = load_mapping(index)
    out = {}
    for java in types:
        t = next((t for t in index.types("source") if t.qualified_name == java), None)
        match = mapping.target_type(t.id) if t else None
        if match is None:
            sys.exit(f"bench_whole_types: {java} has no C# counterpart on the untouched port")
        t = index.type(match.target_id)
        parts = [f.path for f in index.files("target") if t.container in f.namespaces and f.path != t.path and re.search(
            r"\bpartial\s+(class|struct|interface)\s+" + re.escape(t.name) + r"\b",
            (target / f.path).read_text(encoding="utf-8", errors="replace"))]
        out[java] = (match.target_id, t.path, parts)
    index.close()
    return out


def hidden_tests(target: Path, classes: list[str]) -> tuple[list[str], list[str]]:
    """Test files of the port: (those of these classes, the others that reach them). A class's own are
    `<Class>*Test*.cs` and `Test<Class>*.cs` in a test project, in the class's namespace (or a sub-namespace)
    or importing it; another test file reaches a class when it names it and can see its namespace. A file
    with no test method is a helper the tests share, never hidden."""
    plan = plan_build(target, "mono")
    own, reaching = [], []
    for p in plan.tests:
        for s in p.sources:
            if p.dir not in s.parents:
                continue
            text = s.read_text(encoding="utf-8", errors="replace")
            if not TEST_ATTRIBUTE.search(text):     # a helper the tests share (CountryCodeToRegionCodeMapForTesting)
                continue
            rel = s.relative_to(target.resolve()).as_posix()
            for qualified in classes:
                ns, _, name = qualified.rpartition(".")
                sees = re.search(r"(namespace\s+|using\s+)" + re.escape(ns) + r"\b", text) or qualified in text
                if not sees:
                    continue
                if own_test_file(name, s.name):
                    own.append(rel)
                elif re.search(r"\b" + re.escape(name) + r"\b", text):
                    reaching.append(rel)
    own = sorted(set(own))
    return own, sorted(set(reaching) - set(own))


def junit_tests_of(junit: Path, types: list[str]) -> list[str]:
    """The JUnit test classes (qualified names) of these Java classes, wherever the tests are laid out: a file
    named as the class's own (`<Class>*Test*.java`, `Test<Class>*.java`, own_test_file's rule) in any package
    (beside the class, in a `.test` subpackage, ...) whose code exercises the class: it is in the class's
    package, imports the class or its package, or names it qualified. When none of the classes has a file of its own,
    the test files that exercise them (hidden_tests' 'reaching' on the Java side), as a user would translate them
    (only then: a large suite reaching one class would be run for every candidate)."""
    texts = {f: f.read_text(encoding="utf-8", errors="replace") for f in sorted(junit.rglob("*.java"))}
    own, exercising = set(), set()
    for qualified in types:
        package, _, name = qualified.rpartition(".")
        found = {f for f, text in texts.items() if exercises(text, package, name, qualified)}
        own |= {f for f in found if own_test_file(name, f.stem + ".cs")}
        exercising |= {f for f in found if JUNIT_TEST.search(texts[f])}
    return sorted(f.relative_to(junit).with_suffix("").as_posix().replace("/", ".") for f in own or exercising)


JUNIT_TEST = re.compile(r"@(?:Parameterized)?Test\b|\bextends\s+\w*TestCase\b|\bpublic\s+void\s+test\w*\s*\(")


def exercises(text: str, package: str, name: str, qualified: str) -> bool:
    """Whether a Java test file's code can see the class (its package, an import of it or of its package, its
    qualified name) and names it."""
    sees = (re.search(r"^\s*package\s+" + re.escape(package) + r"\s*;", text, re.M)
            or re.search(r"^\s*import\s+(static\s+)?" + re.escape(package) + r"\.(\*|" + re.escape(name)
                         + r"\b)", text, re.M) or qualified in text)
    return bool(sees and re.search(r"\b" + re.escape(name) + r"\b", text))


def remove_compile_items(root: Path, rels: list[str]) -> dict[str, list[str]]:
    """Take the files out of every csproj's Compile items; csproj -> files removed (to put back)."""
    removed: dict[str, list[str]] = {}
    for csproj in root.rglob("*.csproj"):
        text = csproj.read_text(encoding="utf-8-sig", errors="replace")
        new = text
        for rel in rels:
            relpath = Path(subprocess.run(["realpath", "--relative-to", str(csproj.parent), str(root / rel)],
                                          capture_output=True, text=True).stdout.strip())
            win = str(relpath).replace("/", "\\")
            pattern = re.compile(r'[ \t]*<Compile\s+Include="' + re.escape(win) + r'"\s*(/>|>.*?</Compile>)[ \t]*\r?\n',
                                 re.S | re.I)
            new, n = pattern.subn("", new)
            if n:
                removed.setdefault(str(csproj), []).append(rel)
        if new != text:
            csproj.write_text(new, encoding="utf-8")
    return removed


def build_tests(port: Path, generated: frozenset[str] = frozenset()) -> dict[str, list[str]]:
    """Compile the libraries and test projects with mcs; file -> its compiler errors (what the hidden tests
    miss; whether a file compiled is the judge's build's answer, run_hidden). A library that does not build
    is '<library>', with its first errors (those in the `generated` files first), never just an exit code."""
    plan = plan_build(port, "mono")
    errors: dict[str, list[str]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-whole-") as tmp:
        ws = Workspace(Path(tmp), port, "bench")
        out = Path(tmp) / "out"
        out.mkdir()
        for p in plan.chosen:
            proc = subprocess.run(compile_argv(ws, p, plan.chosen, out, None), cwd=tmp, capture_output=True,
                                  text=True, timeout=900)
            found = [d for d in parse_mcs(proc.stdout + proc.stderr, Workspace(port.parent, port, ""), None)
                     if d.severity == "error"]
            if found and not any(d.file for d in found):    # not a source's error: set aside, as the skeleton check does
                print(f"  not built here (no error in its sources): {p.name}: {found[0].code} {found[0].message}")
                continue
            placed = [(_in_port(port, d.file), d) for d in found]
            for rel, d in placed:
                errors.setdefault(rel, []).append(f"{d.code} {d.message}")
            if proc.returncode != 0 and not p.is_test:
                first = sorted(placed, key=lambda rd: (rd[0] not in generated, rd[0], rd[1].line))[:3]
                errors.setdefault("<library>", []).append(f"{p.name} does not compile: " + "; ".join(
                    f"{rel}:{d.line}: {d.code} {d.message}" for rel, d in first) if first
                    else f"{p.name} does not compile (mcs exit {proc.returncode}, no error line)")
                break
    return errors


def _in_port(port: Path, file: str) -> str:
    """A compiler's file name relative to the port's root (mcs names it from the workspace's parent)."""
    path = Path(file)
    if path.is_absolute():
        return path.resolve().relative_to(port.resolve()).as_posix()
    return path.relative_to(port.name).as_posix() if path.parts[:1] == (port.name,) else file


def fixtures_of(port: Path, rels: list[str], project: str) -> list[str]:
    out = []
    for rel in rels:
        text = (port / rel).read_text(encoding="utf-8", errors="replace")
        ns = re.search(r"namespace\s+([\w.]+)", text)
        for cls in re.findall(r"\[TestFixture[^\]]*\](?:\s*\[[^\]]*\])*\s*(?:(?:public|internal|sealed)\s+)*"
                              r"class\s+(\w+)", text) or \
                re.findall(r"public\s+(?:sealed\s+)?class\s+(\w+)", text)[:1]:
            out.append(f"{project}:{ns.group(1) + '.' if ns else ''}{cls}")
    return out


def innermost(e: ExceptionInfo) -> str:
    """The type of the exception a failure's chain began with: a placeholder's NotImplementedException behind a
    TypeInitializationException (a translated fixture's static fields built with a placeholder) is a stop in it."""
    causes = re.findall(r" ---> ([\w.]+): ", e.message)
    return causes[-1] if causes else (e.type or "")


def run_hidden(port: Path, rels: list[str], work: Path) -> tuple[int, int, str, list[str]]:
    """(tests run, tests failed, reason, files that did not compile) of the hidden test files on `port`,
    through repotrans's runner. A file compiled only when the judge's build really built the library and
    the test project with it (not quarantined): mcs stops reporting member errors after a declaration error."""
    tc = make_toolchain("mono")
    ws = prepare_workspace(port, work, tc.name)
    box = make_sandbox("local", ws.root.parent, tc.image)
    limits = Limits(timeout=600, memory_mb=2048)
    try:
        tc.baseline(ws, box, limits)
        plan = tc.plan(ws)
        test = plan.tests[0]
        dropped = {q.what.split(":", 1)[1] for q in plan.quarantined if ":" in q.what}
        fixtures = fixtures_of(port, [r for r in rels if r not in dropped], test.name)
        not_compiled = sorted(r for r in rels if r in dropped)
        if not fixtures:
            return 0, 0, "no hidden test file compiles", not_compiled
        lib = next(p for p in plan.chosen if not p.is_test)
        rel = lib.sources[0].relative_to(ws.src.resolve()).as_posix()
        with ws.run_dir() as run_dir:
            cand = PatchedFile(path=rel, text=(ws.src / rel).read_text(encoding="utf-8"), line_map=LineMap(),
                               surface_changed=False, run_dir=run_dir)
            verdict = tc.run(ws, cand, fixtures, box, limits)
        stops = sum(1 for e in verdict.exceptions if innermost(e).endswith("NotImplementedException"))
        why = stopped_in_placeholders(stops) if verdict.tests_failed and stops == verdict.tests_failed else verdict.reason
        return verdict.tests_run, verdict.tests_failed, why, not_compiled
    except TargetBuildError as exc:
        return 0, 0, f"baseline build failed: {exc}", list(rels)
    finally:
        box.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--source", type=Path, required=True)
    ap.add_argument("--target", type=Path, required=True)
    ap.add_argument("--types", nargs="+", required=True, help="Java qualified names of the classes to regenerate")
    ap.add_argument("--work", type=Path, default=None)
    ap.add_argument("--junit", type=Path, help="the Java test sources: also run the mode where the JUnit tests "
                    "of the classes are translated and judge the bodies (e.g. core/src/test/java)")
    ap.add_argument("--junit-only", action="store_true",
                    help="with --junit, run only the mode with translated tests (the hidden-tests mode applies no body)")
    ap.add_argument("--api-only", action="store_true",
                    help="only regenerate the skeletons and compare their API with the deleted classes' (no batch, no tests)")
    ap.add_argument("--rag", action="store_true", help="let the agents retrieve translated pairs (embeds the whole pair first)")
    args = ap.parse_args()
    work = (args.work or Path(tempfile.mkdtemp(prefix="whole-types-"))).resolve()
    work.mkdir(parents=True, exist_ok=True)
    source, target = args.source.resolve(), args.target.resolve()
    files = counterpart_files(source, target, args.types, work)
    own, reaching = hidden_tests(target, [tid.split(":", 1)[1] for tid, _, _ in files.values()])
    hidden = own + reaching
    print(f"classes: {len(files)}; hidden test files: {len(own)} of the classes, {len(reaching)} others that "
          "reach them (hidden too, counted apart)")
    for java, (tid, path, parts) in files.items():
        print(f"  {java} -> {tid.split(':', 1)[1]} ({', '.join([path, *parts])})")
    for h in hidden:
        print(f"  hidden: {h}{'' if h in own else ' (reaches the classes)'}")

    if args.api_only:
        return api_only(source, target, work, args, files)
    original = Index.open(work / "untouched-index")
    port_only = port_only_members(original, files)
    original.close()
    reference = comparable_copy(target, own, port_only, work / "untouched-comparable")
    refs = {"own": run_hidden(reference, own, work / "judge-untouched"),
            "reaching": run_hidden(target, reaching, work / "judge-untouched-reaching") if reaching else (0, 0, "", [])}
    if args.junit_only and not args.junit:
        sys.exit("bench_whole_types: --junit-only needs --junit JAVA_TEST_SOURCES")
    modes = [] if args.junit_only else [("skeleton + bodies, tests hidden", None)]
    if args.junit:
        modes.append(("skeleton + bodies + tests translated from JUnit", args.junit.resolve()))
    n = len(files)
    for number, (title, junit) in enumerate(modes, 1):
        figures = regenerate(source, target, work / f"mode{number}", args, files, own, reaching, junit, port_only)
        print(f"\n== mode {number}: {title} (verdicts: the port's own hidden tests) ==")
        report(figures, own, reaching, n, refs)
    return 0


def api_only(source: Path, target: Path, work: Path, args, files: dict) -> int:
    """Skeletons of the deleted classes in a copy of the port, compared member by member with the port's."""
    port = work / "api" / target.name
    shutil.rmtree(work / "api", ignore_errors=True)
    shutil.copytree(target, port, ignore=shutil.ignore_patterns("bin", "obj", ".repotrans", ".git"))
    deleted = sorted({p for _, path, parts in files.values() for p in [path, *parts]})
    remove_compile_items(port, deleted)
    for rel in deleted:
        (port / rel).unlink()
    started = time.monotonic()
    index = Index.open(work / "api-index")
    index.build(source, port, progress=False)
    result = create_skeleton(index, args.types)
    seconds = time.monotonic() - started
    print(result.render())
    original = Index.open(work / "untouched-index")
    print_mismatches(api_mismatches(original, index, files, result.check.dropped if result.check else []),
                     sum(len(api(original, tid)) for tid, _, _ in files.values()))
    print(f"seconds per class (skeleton, compile check included): {seconds / len(files):.1f}")
    return 0


def regenerate(source: Path, target: Path, work: Path, args, files: dict, own: list[str], reaching: list[str],
               junit: Path | None, port_only: dict[str, set[str]]) -> dict:
    """Delete the classes and hide every test that reaches them in a copy (no .git: nothing recoverable),
    regenerate, bring the hidden tests back, judge. Seconds run from indexing to the last verdict."""
    hidden = own + reaching
    port = work / "port" / target.name
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(target, port, ignore=shutil.ignore_patterns("bin", "obj", ".repotrans", ".git"))
    deleted = sorted({p for _, path, parts in files.values() for p in [path, *parts]})
    remove_compile_items(port, deleted)
    tests_removed = remove_compile_items(port, hidden)
    for rel in deleted:
        (port / rel).unlink()
    vault = work / "hidden"
    for rel in hidden:
        (vault / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.move(port / rel, vault / rel)

    started = first = time.monotonic()
    index = Index.open(work / "index")
    index.build(source, port, progress=False)
    result = create_skeleton(index, args.types)
    skeleton_s = time.monotonic() - started
    print(result.render())
    translated: list[str] = []
    if junit is not None:
        ported = port_junit_tests(index, load_mapping(index), junit, junit_tests_of(junit, args.types))
        print(ported.render())
        translated = [t.path for t in ported.tests]
        index.build(source, port, progress=False)
    original = Index.open(work.parent / "untouched-index")
    mismatches = api_mismatches(original, index, files, result.check.dropped if result.check else [])
    api_total = sum(len(api(original, tid)) for tid, _, _ in files.values())
    original.close()
    generated = {f.path for f in result.plan.files}
    skeleton_text = "\n".join((port / p).read_text(encoding="utf-8") for p in generated)
    mapping = load_mapping(index)
    ids = [m.id.split(":", 1)[1] for m in index.all_methods("target") if m.path in generated
           and mapping.source_method(m.id) is not None and "NotImplementedException" in (m.body or "")]
    java_names = set()
    for java in args.types:
        t = next(t for t in index.types("source") if t.qualified_name == java)
        java_names |= {m.name for m in index.methods(t.id)} | {f.name for f in index.fields(t.id)}
    index.close()
    functions = work / "functions.txt"
    functions.write_text("\n".join(ids) + "\n")
    config = load_config(None, cli={"model": {"name": "builtin"}, "execution": {"sandbox": "local"},
                                    "agents": {"rag": args.rag}})
    print(f"batch: --model builtin, local sandbox, rag {'on' if args.rag else 'off'}; "
          + ("bodies judged by the translated JUnit tests (labelled: translated tests)" if junit
             else "bodies judged by compiling only (their tests are hidden)"))
    started = time.monotonic()
    try:
        summary = run_batch(source, port, work / "batch", config, functions=functions, progress=False)
        print(summary.render())
    except TargetBuildError as exc:     # the skeleton left the library unbuildable: no body can be judged
        summary = None
        print(f"batch stopped: the library does not build with the skeleton, every body stays a placeholder: "
              f"{str(exc).splitlines()[0]}")
    batch_s = time.monotonic() - started
    applied, joint, unverified = apply_bodies(work / "batch", port, source, translated, run_hidden, work / "joint") \
        if summary is not None else (0, 0, Counter())
    print(f"bodies applied: {applied + joint} of {len(ids)}: {applied} passed their tests in the batch (as batch "
          f"--write would), {joint} more as whole classes no translated test contradicts (they pass or "
          "stop only in placeholders); "
          f"{sum(unverified.values())} compiled but unverified or failing left as placeholders "
          f"({', '.join(f'{n} {s}' for s, n in sorted(unverified.items())) or 'none'})")

    if translated:                                      # translated tests leave; the port's own come back
        remove_compile_items(port, translated)
        for rel in translated:
            (port / rel).unlink()
    for rel in hidden:
        shutil.copyfile(vault / rel, port / rel)
    strip_port_only(port, own, port_only)
    for csproj, rels in tests_removed.items():
        add_compile_items(Path(csproj), [port / r for r in rels])
    errors = build_tests(port, frozenset(generated))
    missing = Counter()
    for h in hidden:
        for e in errors.get(h, []):
            m = MISSING.search(e)
            missing[m.group(1) if m else e.split(" ", 1)[0]] += 1
    verdicts = {"own": run_hidden(port, own, work / "judge"),
                "reaching": run_hidden(port, reaching, work / "judge-reaching") if reaching else (0, 0, "", [])}
    return {"errors": errors, "missing": missing, "verdicts": verdicts, "total_s": time.monotonic() - first,
            "skeleton_s": skeleton_s, "batch_s": batch_s, "java_names": java_names,
            "skeleton_text": skeleton_text, "dropped": result.check.dropped if result.check else [],
            "summary": summary, "mismatches": mismatches, "api_total": api_total}


def report(f: dict, own: list[str], reaching: list[str], n: int, refs: dict) -> None:
    errors, hidden = f["errors"], own + reaching
    unbuilt = set(f["verdicts"]["own"][3]) | set(f["verdicts"]["reaching"][3])
    for h in unbuilt:
        errors.setdefault(h, []).append("not built by the judge (quarantined, or the library did not build)")
    compiling = [h for h in own if not errors.get(h)]
    print(f"library compiles after regeneration: {'no' if '<library>' in errors else 'yes'}")
    for line in errors.get("<library>", []):
        print(f"  {line}")
    print(f"API fidelity: {len(compiling)}/{len(own)} of the classes' hidden test files compile, their projects "
          f"built ({100 * len(compiling) / max(1, len(own)):.0f}%); other tests reaching them: "
          f"{sum(1 for h in reaching if not errors.get(h))}/{len(reaching)}")
    for h in hidden:
        if errors.get(h):
            print(f"  does not compile: {h}: {len(errors[h])} error(s), first: {errors[h][0]}")
    for group, label in (("own", "the classes' hidden tests"), ("reaching", "other tests reaching them")):
        ran, failed, why, _ = f["verdicts"][group]
        ref_ran, ref_failed, ref_why, _ = refs[group]
        print(f"{label} pass on the regenerated classes: {ran - failed}/{ran}" + (f" ({why})" if why else "")
              + f"; on the untouched port: {ref_ran - ref_failed}/{ref_ran}" + (f" ({ref_why})" if ref_why else ""))
    print(f"seconds per class: skeleton {f['skeleton_s'] / n:.1f}, bodies {f['batch_s'] / n:.1f}, "
          f"total with indexing and judging {f['total_s'] / n:.1f}")
    print("members the hidden tests use and the regenerated API lacks (most frequent first):")
    kinds = Counter()
    for member, count in f["missing"].most_common():
        kinds[classify(member, f["java_names"], f["skeleton_text"])] += count
    for member, count in f["missing"].most_common(10):
        print(f"  {count:3d}  {member:32s} {classify(member, f['java_names'], f['skeleton_text'])}")
    print("by class: " + (", ".join(f"{k} {v}" for k, v in kinds.most_common()) or "none"))
    for d in f["dropped"]:
        print(f"  left out of the skeleton: {d}")
    print_mismatches(f["mismatches"], f["api_total"])


if __name__ == "__main__":
    sys.exit(main())
