"""Evaluation datasets: masking, candidate selection, materialize, validation, manifest errors."""
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from repotrans.errors import ConfigError
from repotrans.mapping.test_code import test_files as files_of_tests
from repotrans.datasets.build import VERDICTS, build_dataset, build_folder
from repotrans.datasets.dataset import load_dataset
from repotrans.datasets.masking import candidate_tasks, mask_file, materialize, placeholder_body
from repotrans.index.placeholders import is_placeholder
from repotrans.index.store import Index

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "datasets" / "sample"
LEDGER = REPO / "datasets" / "ledger"
THROW = "throw new System.NotImplementedException();"

COUNTER = """\
using System;
using System.Collections.Generic;

namespace Demo
{
    public abstract class Base
    {
        public abstract int Size { get; }
    }

    public class Counter : Base
    {
        private int count;
        private readonly List<int> items = new List<int>();

        public Counter(int start)
        {
            count = start;
        }

        public Counter() : this(0)
        {
            items.Add(0);
        }

        public int Count
        {
            get { return count; }
            private set { count = value; }
        }

        public override int Size
        {
            get { int set = Get(items); return set; }
        }

        public string Name { get; set; }

        public bool IsZero => count == 0;

        public int Twice() => count * 2;

        public int this[int i]
        {
            get { return items[i]; }
            set { items[i] = value; }
        }

        public T First<T>(IList<T> xs) where T : class
        {
            return xs[0];
        }

        private static int Get(List<int> set)
        {
            return set.Count; // "set" and "get" as plain words
        }
    }
}
"""

MASKED_COUNTER = COUNTER.replace("""\
        {
            count = start;
        }""", "        { " + THROW + " }").replace("""\
        {
            items.Add(0);
        }""", "        { " + THROW + " }").replace("""\
        {
            get { return count; }
            private set { count = value; }
        }""", f"        {{ get {{ {THROW} }} private set {{ {THROW} }} }}").replace("""\
        {
            get { int set = Get(items); return set; }
        }""", f"        {{ get {{ {THROW} }} }}").replace(
    "public bool IsZero => count == 0;", f"public bool IsZero {{ get {{ {THROW} }} }}").replace(
    "public int Twice() => count * 2;", f"public int Twice() {{ {THROW} }}").replace("""\
        {
            get { return items[i]; }
            set { items[i] = value; }
        }""", f"        {{ get {{ {THROW} }} set {{ {THROW} }} }}").replace("""\
        {
            return xs[0];
        }""", "        { " + THROW + " }").replace("""\
        {
            return set.Count; // "set" and "get" as plain words
        }""", "        { " + THROW + " }")


def _mcs(files: list[Path], out: Path) -> subprocess.CompletedProcess:
    return subprocess.run(["mcs", "-target:library", "-sdk:4.5", "-r:System.Core", "-nowarn:169,414",
                           f"-out:{out}", *map(str, files)], capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def counter(tmp_path_factory):
    root = tmp_path_factory.mktemp("counter")
    (root / "java" / "demo").mkdir(parents=True)
    (root / "java" / "demo" / "Counter.java").write_text(
        "package demo;\npublic class Counter { private int count; public int twice() { return count * 2; } }\n")
    (root / "cs").mkdir()
    (root / "cs" / "Counter.cs").write_text(COUNTER)
    index = Index.open(root / "ws")
    index.build(root / "java", root / "cs", progress=False)
    return root, index


def test_mask_file_methods_properties_expression_bodies_constructors(counter, tmp_path):
    root, index = counter
    members = {m.id: m for m in index.all_methods("target")}
    auto = {"target:Demo.Base.Size", "target:Demo.Counter.Name"}
    masked = mask_file(COUNTER.encode(), [m for i, m in members.items() if i not in auto])
    assert masked.decode() == MASKED_COUNTER
    assert placeholder_body(members["target:Demo.Counter.Count"]) == \
        f"{{ get {{ {THROW} }} private set {{ {THROW} }} }}"
    assert placeholder_body(members["target:Demo.Counter.IsZero"]) == f"{{ get {{ {THROW} }} }}"
    assert placeholder_body(members["target:Demo.Counter.<init>()"]) == f"{{ {THROW} }}"
    (tmp_path / "Masked.cs").write_bytes(masked)
    built = _mcs([tmp_path / "Masked.cs"], tmp_path / "masked.dll")
    assert built.returncode == 0, built.stdout + built.stderr


@pytest.fixture(scope="module")
def sample_index(tmp_path_factory):
    index = Index.open(tmp_path_factory.mktemp("sample") / "ws")
    index.build(SAMPLE / "java", SAMPLE / "csharp", progress=False)
    return index


def test_candidates_follow_select_globs(sample_index):
    ids = [t.id for t in candidate_tasks(sample_index, ["Acme.Geo.Vector2D.*"])]
    assert ids == ["Acme.Geo.Vector2D.<init>(double, double)", "Acme.Geo.Vector2D.X", "Acme.Geo.Vector2D.Y",
                   "Acme.Geo.Vector2D.Magnitude()", "Acme.Geo.Vector2D.Add(Vector2D)",
                   "Acme.Geo.Vector2D.Subtract(Vector2D)", "Acme.Geo.Vector2D.Scale(double)",
                   "Acme.Geo.Vector2D.Dot(Vector2D)", "Acme.Geo.Vector2D.Cross(Vector2D)",
                   "Acme.Geo.Vector2D.Normalize()", "Acme.Geo.Vector2D.Perpendicular()",
                   "Acme.Geo.Vector2D.AngleTo(Vector2D)", "Acme.Geo.Vector2D.Equals(object)",
                   "Acme.Geo.Vector2D.GetHashCode()", "Acme.Geo.Vector2D.ToString()"]
    two = candidate_tasks(sample_index, ["*.Clamp(*)", "Acme.Common.StringUtils.Re*"])
    assert [(t.id, t.source_method_id, t.path) for t in two] == [
        ("Acme.Common.StringUtils.Repeat(string, int)", "source:org.acme.util.StringUtils.repeat(String, int)",
         "src/Acme.Geo/Common/StringUtils.cs"),
        ("Acme.Geo.GeometryMath.Clamp(double, double, double)",
         "source:org.acme.geometry.GeometryMath.clamp(double, double, double)", "src/Acme.Geo/GeometryMath.cs")]
    assert candidate_tasks(sample_index, ["No.Such.*"]) == []
    every = candidate_tasks(sample_index)
    assert len(every) == len({t.id for t in every}) > 100
    tests = files_of_tests("target", sample_index.files("target"), sample_index.root("target"))
    assert tests and not any(t.path in tests for t in every)      # test methods are never tasks
    for t in every:             # no placeholder-like or auto-property body is a task: nothing to translate
        body = sample_index.method(t.target_method_id).body
        assert not is_placeholder(body) and body.strip() not in ("{ get; }", "{ get; set; }")


@pytest.mark.slow
def test_materialize_masks_every_task_and_the_oracle_sees_the_port(tmp_path):
    ds = load_dataset(LEDGER)
    assert len(ds.tasks) >= 50
    view = materialize(ds, tmp_path / "view")
    assert view.source == LEDGER / "java" and view.target == tmp_path / "view" / "target"
    seen = Index.open(tmp_path / "seen")
    seen.build(view.source, view.target, progress=False)
    for t in ds.tasks:
        assert is_placeholder(seen.method(t.target_method_id).body), t.id
        truth = view.oracle_index.method(t.target_method_id)
        assert truth.body and not is_placeholder(truth.body), t.id
    assert view.oracle_index.root("target") == LEDGER / "csharp"
    task_files = {t.path for t in ds.tasks}
    port_files = sorted(p.relative_to(LEDGER / "csharp") for p in (LEDGER / "csharp").rglob("*.cs"))
    assert port_files == sorted(p.relative_to(view.target) for p in view.target.rglob("*.cs"))
    for rel in port_files:      # the tests and every file without a task are copied as they are
        same = (view.target / rel).read_bytes() == (LEDGER / "csharp" / rel).read_bytes()
        assert same == (str(rel) not in task_files), rel
    stamp = (tmp_path / "view" / "masked.stamp").stat().st_mtime_ns
    materialize(ds, tmp_path / "view")                      # unchanged manifest: not masked again
    assert (tmp_path / "view" / "masked.stamp").stat().st_mtime_ns == stamp
    built = _mcs(sorted((view.target / "src").rglob("*.cs")), tmp_path / "Ledgerly.dll")
    assert built.returncode == 0, built.stdout[-3000:]


@pytest.mark.slow
@pytest.mark.parametrize("schemata", [True, False], ids=["schemata", "per-task"])
def test_validation_keeps_sound_tasks_and_drops_the_others_with_a_reason(tmp_path, schemata):
    """The same verdicts and reasons whether the tasks share one schemata build or are built one by one."""
    pair = tmp_path / "pair"
    shutil.copytree(SAMPLE / "java", pair / "java")
    shutil.copytree(SAMPLE / "csharp", pair / "csharp", ignore=shutil.ignore_patterns("bin", "obj"))
    # an untested method: its placeholder passes every covering test
    _insert(pair / "java/src/main/java/org/acme/geometry/GeometryMath.java", "    public static double toRadians(",
            "    public static double sign(double x) {\n        return x < 0 ? -1.0 : 1.0;\n    }\n\n")
    _insert(pair / "csharp/src/Acme.Geo/GeometryMath.cs", "        public static double ToRadians(",
            "        public static double Sign(double x)\n        {\n            return x < 0 ? -1.0 : 1.0;\n"
            "        }\n\n")
    # a broken port: its ground truth fails its own tests
    cs = pair / "csharp/src/Acme.Geo/Common/StringUtils.cs"
    cs.write_text(cs.read_text().replace("sb.Append(text);", "sb.Append(text).Append(text);"))
    ds = build_dataset(pair / "java", pair / "csharp", tmp_path / "out", name="mini", progress=False,
                       schemata=schemata, select=["Acme.Geo.GeometryMath.Clamp(*)", "Acme.Geo.GeometryMath.ToRadians(*)",
                                                  "Acme.Geo.GeometryMath.Sign(*)", "Acme.Common.StringUtils.Repeat(*)"])
    # the broken test fails on the untouched port: recorded with its cause and left out of every verdict, so
    # Repeat's ground truth passes the tests that can pass (the port's own build fails that one too)
    known = {"Acme.Geo.Tests:Acme.Geo.Tests.Common.StringUtilsTests.RepeatConcatenates":
             "an assertion (Expected string length 6 but was 12. Strings differ at index 6.)"}
    assert ds.fails_before_any_change == known
    assert [t.id for t in ds.tasks] == ["Acme.Common.StringUtils.Repeat(string, int)",
                                        "Acme.Geo.GeometryMath.Clamp(double, double, double)",
                                        "Acme.Geo.GeometryMath.ToRadians(double)"]
    assert ds.dropped == [{"id": "Acme.Geo.GeometryMath.Sign(double)", "reason": "a placeholder passes its tests"}]
    saved = json.loads((tmp_path / "out" / "dataset.json").read_text())
    assert (saved["name"], saved["source"], saved["target"], saved["toolchain"], saved["validated"]) == \
        ("mini", "../pair/java", "../pair/csharp", "mono", True)
    assert [t["id"] for t in saved["tasks"]] == [t.id for t in ds.tasks]
    assert load_dataset(tmp_path / "out").tasks == ds.tasks
    assert load_dataset(tmp_path / "out").fails_before_any_change == known
    report = (tmp_path / "out" / "report.md").read_text()
    assert "- validated tasks: 3\n- dropped: 1\n" in report
    assert ("| `Acme.Geo.Tests:Acme.Geo.Tests.Common.StringUtilsTests.RepeatConcatenates` | an assertion (Expected "
            "string length 6 but was 12. Strings differ at index 6.) |") in report
    assert "| `Acme.Geo.GeometryMath.Sign(double)` | a placeholder passes its tests |" in report
    assert ("- one schemata build (" in report and "served 4 tasks; 0 were built per task" in report) == schemata
    assert report.endswith("| C# type | tasks |\n|---|---:|\n| `Acme.Common.StringUtils` | 1 |\n"
                           "| `Acme.Geo.GeometryMath` | 2 |\n")


def test_validation_runs_jobs_in_parallel_saves_each_verdict_and_resumes(tmp_path, monkeypatch):
    from repotrans.verdicts.results import TestResult
    from repotrans.execution.judge.runner import Runner

    calls: list[str] = []

    def fake_run(self, index, method, code, **kw):
        calls.append(method.name)
        if kill and len(calls) >= 5:              # the process is going down: no run finishes any more
            raise KeyboardInterrupt
        if method.name == "Capitalize":
            return TestResult("no_tests", selection="no covering test (none names StringUtils or a caller): "
                                                    "compiled only, no test run", reason="no selected test ran")
        failed = "NotImplementedException" in code
        return TestResult("runtime_error" if failed else "passed", tests_run=2, tests_failed=2 * failed,
                          selection="2 covering test(s): X.A, X.B")

    monkeypatch.setattr(Runner, "run", fake_run)
    # every ground truth runs through the fake (none is read from the baseline: test_truth_from_baseline)
    monkeypatch.setattr("repotrans.datasets.build.untouched_outcome", lambda *a: None)
    select = ["Acme.Common.StringUtils.*"]
    out = tmp_path / "ds"
    kill = True
    with pytest.raises(KeyboardInterrupt):
        build_dataset(SAMPLE / "java", SAMPLE / "csharp", out, select=select, progress=False, schemata=False)
    saved = [json.loads(line) for line in (build_folder(out) / VERDICTS).read_text().splitlines()]
    assert [v["id"] for v in saved] == ["Acme.Common.StringUtils.IsBlank(string)",
                                        "Acme.Common.StringUtils.Repeat(string, int)"]
    assert not (out / "dataset.json").exists()
    kill, calls[:] = False, []
    ds = build_dataset(SAMPLE / "java", SAMPLE / "csharp", out, select=select, jobs=2, progress=False,
                       schemata=False)
    assert len(calls) == 2 * 4 + 1                # the 2 saved verdicts are not run again; Capitalize once
    assert len(ds.tasks) == 6 and ds.validated
    assert ds.dropped == [{"id": "Acme.Common.StringUtils.Capitalize(string)",
                           "reason": "no test covers it (no covering test (none names StringUtils or a caller): "
                                     "compiled only, no test run)"}]
    assert [t.id for t in ds.tasks] == [t.id for t in candidate_tasks(ds_index(out), select) if "Capital" not in t.id]
    report = (out / "report.md").read_text()
    assert "- validation: 7 tasks in" in report and "with --jobs 2" in report and "1 without a covering test" in report
    calls[:] = []
    build_dataset(SAMPLE / "java", SAMPLE / "csharp", out, select=select, progress=False)
    assert calls == []                            # everything known: nothing runs (nor builds schemata)


def ds_index(out: Path) -> Index:
    return Index.open(build_folder(out) / "index", must_exist=True)


def test_an_unvalidated_dataset_says_so_everywhere(tmp_path):
    from repotrans.cli import main

    out = tmp_path / "ds"
    assert main(["dataset", "build", "--source", str(SAMPLE / "java"), "--target", str(SAMPLE / "csharp"),
                 "--out", str(out), "--select", "Acme.Geo.Vector2D.*", "--no-validate", "--quiet",
                 "--workdir", str(tmp_path / "w")]) == 0
    ds = load_dataset(out)
    assert not ds.validated and ds.label == "ds (unvalidated)" and len(ds.tasks) == 15
    assert "**unvalidated**" in (out / "report.md").read_text()
    assert "validated tasks" not in (out / "report.md").read_text()


def _insert(path: Path, before: str, text: str) -> None:
    source = path.read_text()
    assert before in source
    path.write_text(source.replace(before, text + before, 1))


@pytest.mark.parametrize("content, message", [
    (None, "is not a dataset: no dataset.json"),
    ("{not json", "dataset.json is malformed: Expecting property name"),
    ('{"name": "x", "source": "java", "tasks": []}', "dataset.json is malformed: missing field 'target'"),
    ('{"name": "x", "source": "j", "target": "c", "tasks": [{"id": "A.B()"}]}',
     "dataset.json is malformed: task 1"),
    ('[1, 2]', "dataset.json is malformed: expected a JSON object"),
])
def test_load_dataset_errors_are_one_line(tmp_path, content, message):
    if content is not None:
        (tmp_path / "dataset.json").write_text(content)
    with pytest.raises(ConfigError) as err:
        load_dataset(tmp_path)
    assert message in str(err.value) and "\n" not in str(err.value)


def test_cli_reports_a_bad_dataset_in_one_line(tmp_path):
    (tmp_path / "dataset.json").write_text("{broken")
    run = subprocess.run(["python", "-m", "repotrans.cli", "dataset", "mask", "--dataset", str(tmp_path),
                          "--out", str(tmp_path / "view")], capture_output=True, text=True, cwd=REPO, timeout=120)
    assert run.returncode == 2
    assert run.stderr.startswith("repotrans: error: ") and run.stderr.count("\n") == 1


def test_a_compile_error_drop_carries_the_compiler_error(tmp_path, monkeypatch):
    """The drop reason names the first compiler error, not only the count (a port that does not build here)."""
    from types import SimpleNamespace

    from repotrans.verdicts.results import Diagnostic, TestResult
    from repotrans.execution.judge.runner import Runner
    from repotrans.execution.settings import ExecutionConfig
    from repotrans.datasets.build import validate_task

    (tmp_path / "A.cs").write_text("class A { int F() { return 1; } }")
    method = SimpleNamespace(path="A.cs", start_byte=10, end_byte=32, signature="int F()", body="{ return 1; }")
    oracle = SimpleNamespace(method=lambda mid: method if mid == "target:A.F()" else None, root=lambda side: tmp_path)
    failed = TestResult(status="compile_error", reason="1 error(s) compiling Acme", diagnostics=[
        Diagnostic(code="CS1644", message="Feature `pattern matching' cannot be used", file="src/X.cs", line=39,
                   column=5, severity="error")])
    monkeypatch.setattr(Runner, "run", lambda *a, **k: failed)
    task = SimpleNamespace(id="t", target_method_id="target:A.F()", source_method_id="source:A.f()")
    with Runner(ExecutionConfig(sandbox="local"), tmp_path) as runner:
        got = validate_task(oracle, task, runner)
    assert got.reason == ("ground truth gives compile_error: 1 error(s) compiling Acme "
                          "(src/X.cs:39: CS1644 Feature `pattern matching' cannot be used)")


def test_test_methods_are_never_dataset_tasks(tmp_path):
    # a one-fixture library's pair (jBCrypt/BCrypt.Net): the Java test class maps to the C# one, method by method
    from tests.support.indexes import mapped_pair
    _, index = mapped_pair(tmp_path, {
        "src/main/java/org/acme/Codec.java": "package org.acme; public class Codec { public static int twice(int x) { return 2 * x; } }",
        "src/test/java/org/acme/TestCodec.java": "package org.acme; import org.junit.Test; public class TestCodec {"
                                                 " @Test public void testTwice() { Codec.twice(2); } }"}, {
        "Acme/Codec.cs": "namespace Acme { public class Codec { public static int twice(int x) { return 2 * x; } } }",
        "Acme.Test/TestCodec.cs": "using Microsoft.VisualStudio.TestTools.UnitTesting; namespace Acme.Test {"
                                  " [TestClass] public class TestCodec { [TestMethod] public void testTwice() { Acme.Codec.twice(2); } } }"})
    assert [t.id for t in candidate_tasks(index)] == ["Acme.Codec.twice(int)"]
